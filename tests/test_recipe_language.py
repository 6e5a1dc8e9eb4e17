"""CONTRIBUTING.md's recipe "Add a language", smoke-tested on a copy with a fake third language, xx, whose words are
a copy of the English ones: which places still assume two languages.

On the copy: the declarations (posenc/formatting.py LANGUAGES, LIST_SEPARATOR, RANGE_WORD, count words, QUOTES and NOUN_FORMS;
tools/build/i18n.py UI),
every English catalogue copied to xx (the pages, figure labels, widget, snippet and notebook strings, the glossary,
timeline and data-flow files, and the data files' value_en and source_en fields as value_xx and source_xx). Without more, the registry does not import: the words written inline, keyed by
language (every PerLanguage(zh=…, en=…), the example sentences of posenc/examples.py TEXTS, the names in the
experiment's records, the claims' sentences, the replication section's words in posenc/experiment/frozen.py), are a
schema change, so the copy then fills xx from en in those five places.

Then every page is rendered in xx through the build's macros (tests/macro_env.py) and through the build's page
guards, beside the same file rendered as English. An xx page should come out as the English one, the language code
aside: a page that fails names the file that refuses xx, and a page that differs shows the places that treat xx as
Chinese. The expectations below are today's list; making a place language-generic fails this test until the list
and CONTRIBUTING.md's table follow. Code snippets are shown without running them (the build runs every snippet of
the course once per language, seconds of CPU). That runs in two processes in the copy (about 3 CPU-seconds). Last, one
page is built in xx by the real build, with mkdocs.yml's entry for the language (below).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from site_support import ROOT, copy_project

FAKE = "xx"
# the English catalogues, copied to the fake language: files named by language, and pages
CATALOGUES = ("posenc/data/dataflow.en.yaml", "posenc/data/glossary.en.yaml", "posenc/data/timeline.en.yaml",
              "figures_src/labels/en.yaml", "docs/snippets/strings/en.yaml", "docs/notebooks/strings/en.yaml",
              "docs/javascripts/widgets/strings/en.js", "docs/javascripts/widgets/strings/en")


def _edit(path: Path, old: str, new: str) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count(old) == 1, f"{path}: the recipe's anchor {old!r} is not there exactly once"
    path.write_text(source.replace(old, new), encoding="utf-8")


def _as_fake(path: str) -> str:
    return re.sub(r"(?<=[./])en(?=[./]|$)", FAKE, path)


def _python(copy: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, POSENC_SKIP_FIGURES="1", POSENC_EXECUTE_NOTEBOOKS="false", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=240)


# The innermost frame of an error that lies in the copy's own code: the place that refused xx.
PLACE = """
import os, traceback
def place(err, skip=()):
    frames = [f"{os.path.relpath(f.filename)}:{f.name}" for f in traceback.extract_tb(err.__traceback__)
              if f.filename.startswith(os.getcwd()) and "/tests/" not in f.filename]
    return ([f for f in frames if f not in skip] or ["?"])[-1]
"""

# the modules that hold words inline, keyed by language, imported each on its own: the place (PerLanguage and the
# declaration check themselves skipped, to name their caller) and the error
IMPORT_INLINE_WORDS = PLACE + """
import importlib, json, sys
out = {}
for module in sys.argv[1:]:
    try:
        importlib.import_module(module)
        out[module] = None
    except Exception as err:
        out[module] = [place(err, skip=("posenc/formatting.py:__init__", "posenc/formatting.py:check_declared")), f"{type(err).__name__}: {err}"]
print(json.dumps(out, ensure_ascii=False))
"""

RENDER_PAGES = PLACE + """
import json, re, sys
from pathlib import Path
sys.path[:0] = [".", "tests"]
from macro_env import MacroEnv
from posenc.formatting import LANGUAGES, format_value
from tools.build import i18n
from tools.guards import notation, prose_lint, universal_claims

FAKE = sys.argv[1]
CJK = re.compile(r"[\\u3400-\\u9fff\\u3000-\\u303f\\uff00-\\uffef]")
out = {"languages": list(LANGUAGES), "declared": {
    "source_language": i18n.source_language(f"lessons/04-rope.{FAKE}.md"),
    "counterpart": i18n.counterpart("lessons/04-rope/", FAKE),
    "source_for": i18n.source_for(f"lessons/04-rope.{FAKE}.md", "zh"),
    "number": format_value([1234.5, -2], ",.1f", FAKE), "ui": i18n.text(FAKE, "report_error")}, "pages": {}}
GUARDS = {"prose_lint": prose_lint.lint, "notation": notation.check_files, "universal_claims": universal_claims.check_files}

def render(page, text):
    # a code snippet is shown by running it, every snippet of the course at once per language (seconds): not here
    env = MacroEnv(page)
    env.env.globals["show_code"] = lambda snippet: f"(the snippet {snippet}, not run here)"
    return env.render(text)

def guarded(path):
    found = {}
    for name, check in GUARDS.items():
        try:
            found[name] = sorted(str(f).replace(f".{FAKE}.md", ".en.md") for f in check([path]))
        except Exception as err:
            found[name] = [f"fails in {place(err)}"]
    return found

for name in sys.argv[2:]:
    page, fake = f"{name}.{FAKE}.md", Path("docs") / f"{name}.{FAKE}.md"
    english = page.replace(f".{FAKE}.md", ".en.md")
    text = fake.read_text(encoding="utf-8")
    as_english = guarded(Path("docs") / english)
    shown = {"guards": sorted(n for n, f in guarded(fake).items() if f != as_english[n])}
    try:
        rendered = re.sub(rf"\\b{FAKE}\\b", "en", render(page, text))
    except Exception as err:
        shown["fails"] = [place(err), f"{type(err).__name__}: {str(err).splitlines()[0]}"]
    else:
        lines = set(render(english, text).splitlines())
        shown["differs"] = [l for l in rendered.splitlines() if l not in lines]
        shown["chinese"] = [CJK.findall(l) != [] for l in shown["differs"]]
    out["pages"][name] = shown
print(json.dumps(out, ensure_ascii=False))
"""


@pytest.fixture(scope="module")
def copy_with_a_third_language(tmp_path_factory) -> tuple[Path, list | None]:
    copy = copy_project(tmp_path_factory.mktemp("recipe_language") / "project")
    # the declarations
    _edit(copy / "posenc/formatting.py", 'LANGUAGES = ("zh", "en")', f'LANGUAGES = ("zh", "en", "{FAKE}")')
    _edit(copy / "posenc/formatting.py", '"en": ", "}', f'"en": ", ", "{FAKE}": ", "}}')
    _edit(copy / "posenc/formatting.py", "\n# Each declaration above covers", f'\n_COUNT_WORDS["{FAKE}"] = _COUNT_WORDS["en"]\n'
          f'QUOTES["{FAKE}"] = QUOTES["en"]\nNOUN_FORMS["{FAKE}"] = NOUN_FORMS["en"]\nRANGE_WORD["{FAKE}"] = RANGE_WORD["en"]\n# Each declaration above covers')
    _edit(copy / "tools/build/i18n.py", "\n# Every language writes every word", f'\nUI["{FAKE}"] = dict(UI["en"])\n# Every language writes every word')
    # the words: every English catalogue and page, copied
    for name in CATALOGUES:
        source = copy / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, copy / _as_fake(name))
    for page in (copy / "docs").rglob("*.en.md"):
        shutil.copy(page, page.with_name(page.name.replace(".en.md", f".{FAKE}.md")))
    # the data's words in English (value_en, source_en: one line each), given again for xx
    for data in (copy / "posenc/data").glob("*.yaml"):
        text = data.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(value|source)_en:\s*[|>]", text, re.M), f"{data.name}: a block scalar; copy it through YAML"
        data.write_text(re.sub(r"^(\s*)(value|source)_en:(.*)$", rf"\g<0>\n\1\2_{FAKE}:\3", text, flags=re.M), encoding="utf-8")
    done = _python(copy, "-c", IMPORT_INLINE_WORDS, "posenc.examples", "posenc.experiment.course", "posenc.experiment.claims")
    assert done.returncode == 0, done.stderr[-3000:]
    without_inline_words = json.loads(done.stdout)
    # the words written inline, keyed by language: filled from English where they are read
    _edit(copy / "posenc/formatting.py", "    def __init__(self, **texts: str):\n",
          f'    def __init__(self, **texts: str):\n        texts.setdefault("{FAKE}", texts.get("en"))\n')
    _edit(copy / "posenc/examples.py", "\n\ndef texts(lang: str)", f'\nTEXTS["{FAKE}"] = TEXTS["en"]\n\n\ndef texts(lang: str)')
    _edit(copy / "posenc/experiment/course.py", "    for i, r in enumerate(raw):\n",
          "    for i, r in enumerate(raw):\n"
          f'        r = {{k: dict(v, {FAKE}=v["en"]) if isinstance(v, dict) and "en" in v else v for k, v in r.items()}}\n')
    _edit(copy / "posenc/experiment/claims.py", "\ncheck_languages(CLAIMS)\n",
          f'\nfor _name, _claim in CLAIMS.items():  # the English as the pages print it (amended where amended)\n'
          f'    CLAIMS[_name] = Claim({{**_claim.text, "{FAKE}": english_template(_name)}}, _claim.checks)\ncheck_languages(CLAIMS)\n')
    # the replication section's words, which import the claims: refused on their own once the claims have theirs
    done = _python(copy, "-c", IMPORT_INLINE_WORDS, "posenc.experiment.frozen")
    assert done.returncode == 0, done.stderr[-3000:]
    without_inline_words.update(json.loads(done.stdout))
    _edit(copy / "posenc/experiment/frozen.py", "\ncheck_declared(", f'\n_TEXT["{FAKE}"] = _TEXT["en"]\ncheck_declared(')
    return copy, without_inline_words


@pytest.fixture(scope="module")
def rendered(copy_with_a_third_language) -> dict:
    copy, _ = copy_with_a_third_language
    done = _python(copy, "-c", RENDER_PAGES, FAKE, *EXPECTED)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_without_its_inline_words_the_registry_refuses_the_language_naming_what_is_missing(copy_with_a_third_language):
    _, refused = copy_with_a_third_language
    examples, course, claims = (refused[m] for m in ("posenc.examples", "posenc.experiment.course", "posenc.experiment.claims"))
    # the widgets' defaults from each edition's example sentences, one per language of TEXTS
    assert examples == ["posenc/examples.py:_per_language",
                        f"ValueError: PerLanguage needs exactly the languages zh, en, {FAKE}; missing {FAKE}"], examples
    assert course[0] == "posenc/experiment/course.py:records", course
    assert "method record 'nope': field 'name'" in course[1] and f"(zh, en, {FAKE})" in course[1], course
    # each claim's sentences: the first claim without one is named
    assert claims == ["posenc/experiment/claims.py:check_languages",
                      f"ValueError: claim 'nope_beats_unigram' (posenc/experiment/claims.py): no sentence in {FAKE}: add it to its text"], claims
    assert refused["posenc.experiment.frozen"] == [
        "posenc/experiment/frozen.py:<module>",
        f"ValueError: posenc/experiment/frozen.py _TEXT has no entry for {FAKE}: declare it for each of the course's "
        f"languages (zh, en, {FAKE}, posenc/formatting.py LANGUAGES)"], refused["posenc.experiment.frozen"]


def test_the_declarations_take_a_third_language(rendered):
    assert rendered["languages"] == ["zh", "en", FAKE]
    assert rendered["declared"] == {"source_language": FAKE, "counterpart": f"{FAKE}/lessons/04-rope/",
                                    "source_for": "lessons/04-rope.md", "number": "1,234.5, −2.0",
                                    "ui": "Report an error"}


# Each page of the fake language: as English, or failing in the named file, or differing where a place treats it as
# Chinese (what the differing lines come from, read off them), or held to Chinese rules by a guard.
SAME = "same as English"
# Every page of the English edition, as the build finds them: as English (the guards take a translation as its
# Chinese page's place in the course: tools/build/i18n.source_for).
PAGES = sorted(str(p.relative_to(ROOT / "docs"))[: -len(".en.md")] for p in (ROOT / "docs").rglob("*.en.md"))
EXPECTED = {page: SAME for page in PAGES}


def _outcome(shown: dict):
    guards = tuple(shown["guards"])
    if "fails" in shown:
        return ("fails", shown["fails"][0], *guards)
    if not shown["differs"] and not guards:
        return SAME
    return ("differs", len(shown["differs"]), *guards)


def test_each_page_in_a_third_language_renders_as_english_or_names_the_place_that_assumes_two(rendered):
    got = {page: _outcome(shown) for page, shown in rendered["pages"].items()}
    detail = {page: shown.get("fails") or shown.get("differs") for page, shown in rendered["pages"].items()
              if got[page] != EXPECTED.get(page)}
    assert "lessons/05-long-context" in got and got == EXPECTED, json.dumps(detail, ensure_ascii=False, indent=1)[:4000]


# One page built in xx by the real build (ProperDocs, Material, mkdocs-static-i18n, every hook and guard), beside its
# Chinese page: the recipe's last declaration, the language in mkdocs.yml (the i18n plugin's entry, a copy of English's
# with Material's English interface, Material having no language xx, and the language selector's link), and every
# other page left out of the build (exclude_docs; the links to them are then reported, not errors). Figures are not
# drawn and notebooks not run, as in the build's prose-only mode: about 16 CPU-seconds.
BUILT_PAGE = "lessons/03b-relative-bias"


@pytest.fixture(scope="module")
def built(copy_with_a_third_language) -> tuple[subprocess.CompletedProcess, Path]:
    copy, _ = copy_with_a_third_language
    yml = copy / "mkdocs.yml"
    text = yml.read_text(encoding="utf-8")
    start = text.index("        - locale: en\n")
    translations = text.index("          nav_translations:", start)
    end = text.index("\n  - mkdocs-jupyter:", translations)
    entry = (text[start:translations].replace("- locale: en", f"- locale: {FAKE}").replace("name: English", "name: XX")
             .replace("build: !ENV [POSENC_BUILD_ENGLISH, true]", "build: true") + text[translations:end])
    text = text[:end] + "\n" + entry.rstrip("\n") + text[end:]
    selector = "    - name: English\n      link: /posenc/en/\n      lang: en\n"
    assert text.count(selector) == 1
    text = text.replace(selector, selector + f"    - name: XX\n      link: /posenc/{FAKE}/\n      lang: {FAKE}\n")
    text += (f"\nexclude_docs: |\n  *.md\n  *.ipynb\n  !/{BUILT_PAGE}.md\n  !/{BUILT_PAGE}.{FAKE}.md\n"
             "validation:\n  nav: {not_found: info, omitted_files: info, absolute_links: info}\n"
             "  links: {not_found: info, anchors: info, absolute_links: info, unrecognized_links: info}\n")
    yml.write_text(text, encoding="utf-8")
    env = dict(os.environ, POSENC_SKIP_FIGURES="1", POSENC_EXECUTE_NOTEBOOKS="false", POSENC_BUILD_ENGLISH="false",
               PYTHONDONTWRITEBYTECODE="1")
    site = copy / "site"
    done = subprocess.run([sys.executable, "-m", "properdocs", "build", "--strict", "-q", "-d", str(site)], cwd=copy,
                          env=env, capture_output=True, text=True, timeout=600)
    return done, site


def test_a_page_in_a_third_language_builds_in_its_own_words(built):
    done, site = built
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    page = (site / FAKE / BUILT_PAGE / "index.html").read_text(encoding="utf-8")
    article = re.search(r"<article.*?</article>", page, re.S).group(0)
    words = re.sub(r"<[^>]+>", " ", re.sub(r"<math.*?</math>", " ", article, flags=re.S))
    assert "Relative position" in words and not re.findall(r"[\u3400-\u9fff]+", words)
    # its Chinese page beside it, and the selector offers all three
    chinese = (site / BUILT_PAGE / "index.html").read_text(encoding="utf-8")
    assert re.search(r"[\u3400-\u9fff]", re.search(r"<article.*?</article>", chinese, re.S).group(0))
    assert all(f'hreflang="{lang}"' in page for lang in ("zh", "en", FAKE)), re.findall(r'hreflang="[^"]*"', page)
