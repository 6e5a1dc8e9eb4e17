"""mkdocs-macros entry point: the only way lesson prose gets numbers, facts and figures.

    {{ num("sin_slowest_period") }}     a number computed by posenc (posenc/quantities/)
    {{ fact("vaswani_base_dev_bleu") }} a reported fact with its verification tag (posenc/data/facts_<lesson>.yaml)
    {{ cfg("qwen3_8b", "rope_theta") }} a model config field with its tag (posenc/data/models.yaml);
                                        "scaling.factor" reads one key of a dict field
    {{ figure("sin_clock") }}           a built figure, light and dark, with its alt text (figures_src/)
    {{ show_code("lesson3_table.py") }} a snippet from docs/snippets/ and its real output
    {{ claim("nope_flat_past_train_len") }}
                                        a sentence about the training experiment, printed only if
                                        the committed results support it (posenc/experiment/claims.py)
    {{ widget("sin-clock", fallback="sin_clock") }}
                                        an in-page experiment (docs/javascripts/widgets/) mounted over
                                        its static figure, which stays for readers without JavaScript;
                                        it starts from posenc.examples.WIDGET_DEFAULTS["sin-clock"]
    {{ example("SENTENCE") }}           a text example of the page's edition from posenc/examples.py
                                        (小明打了小王; the dog bit the man .): prose never types one
    {{ citation_bibtex() }}             the course's BibTeX entry, generated from CITATION.cff
    {{ tag_legend() }}                  what the verification tags after a reported value mean (the home page)
    {{ glossary() }}, {{ timeline(…) }} the glossary and the timeline (tools/build/course_macros.py)
    {{ method_rows() }}                 the results table's rows, one per method record of
                                        posenc/experiment/course.py (tools/build/course_macros.py)
    {{ main_lesson_count() }}           how many main lessons the nav lists (not 3b, 6b), as a word
                                        ("六", "six"; tools/build/course_macros.py)
    {{ reading_time() }}                the page's main-path reading time, computed from its Markdown
                                        (tools/build/reading_time.py: the rule and its constants)
    {{ course_reading_time() }}         the lessons' main paths added up (the home page's course overview)
    {{ notation() }}                    the course's notation table (posenc/data/notation.yaml, tools/guards/notation.py)

An unknown name fails the build with a message that says where to add it.

Every macro prints in the page's language, the language of its source file (lesson.md: Chinese,
lesson.en.md: English; tools/build/i18n.py): the same call gives "19,869" on both, a claim's Chinese or
English sentence, a figure's alt text and caption from figures_src/labels/<lang>.yaml.
"""

from __future__ import annotations

import hashlib
import html
import os
import posixpath
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SNIPPETS = ROOT / "docs" / "snippets"
WIDGETS = ROOT / "docs" / "javascripts" / "widgets"
SNIPPET_CACHE = ROOT / ".cache" / "snippets"


def define_env(env):
    from posenc import configs, facts, quantities
    from posenc.formatting import format_value, with_noun

    from posenc.experiment.claims import ResultsPending
    from tools.build import i18n, sources

    def lang() -> str:
        """The page's language: that of its source file (tools/build/i18n.py)."""
        return i18n.source_language(env.page.file.src_uri)

    def pending() -> str:
        return pending_mark(lang())

    def tag_link(tag: str, anchor: str) -> str:
        """A reported value's verification tag, a link to its source on the references page (tools/build/sources.py)."""
        return sources.badge(tag, lang(), sources.href(anchor, env.page.url, lang()))

    @env.macro
    def num(name: str, noun: str | None = None) -> str:
        """A computed number; on an English page, noun="token" makes the word agree ("1 token", "5 tokens")."""
        try:
            text = quantities.text(name, lang())
        except ResultsPending:
            return pending()
        return text if noun is None else with_noun(text, quantities.get(name).value, noun, lang())

    @env.macro
    def fact(name: str, badge: bool = True) -> str:
        f = facts.get(name)
        return f.shown_in(lang()) + (tag_link(f.tag, sources.fact_anchor(name)) if badge else "")

    @env.macro
    def cfg(model: str, field: str, fmt: str = ",", badge: bool = True) -> str:
        m = configs.load(model)
        top, _, sub = field.partition(".")  # "scaling.factor" reads one key of a dict field
        fld = m.field(top)
        value = fld.value
        if sub:
            if not isinstance(value, dict) or sub not in value:
                raise ValueError(f"model {model!r}: field {top!r} has no key {sub!r}; keys: {', '.join(value) if isinstance(value, dict) else 'none'}")
            value = value[sub]
        text = format_value(value, fmt, lang()) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        return text + (tag_link(fld.tag, sources.field_anchor(model, top)) if badge else "")

    @env.macro
    def figure(name: str) -> str:
        from figures_src.build import drawn_sizes, load_all

        registry = load_all()
        if name not in registry:
            raise ValueError(f"unknown figure {name!r}; define it with @figure({name!r}, alt=...) in figures_src/<lesson>.py")
        spec = registry[name]
        try:
            alt = spec.alt_text(lang()).replace("\n", " ").replace('"', "”")
        except ResultsPending:
            return f"*({i18n.text(lang(), 'figure_pending', name=name, mark=pending())})*"
        caption = spec.caption_text(lang())
        if os.environ.get("POSENC_SKIP_FIGURES") == "1":
            return f"*({i18n.text(lang(), 'figure_skipped', alt=alt)})*"
        here = posixpath.dirname(env.page.file.src_uri)
        # Each scheme's image is a link to its SVG: tapping a figure opens it at full size (without
        # JavaScript the SVG itself; docs/javascripts/figures.js shows it in a dialog on the page's
        # own background, so the dark variant stays readable). Material hides the other scheme's
        # image (#only-light / #only-dark); extra.css hides its link with it.
        zoom = i18n.text(lang(), "zoom")
        # width/height: the page keeps each image's place before it loads (drawn_sizes); a figure not drawn
        # yet (make serve, drawing after an edit) goes without, and the gates check every built page has them.
        sizes = drawn_sizes(name, lang())
        imgs = "\n".join(
            f'[![{alt}]({src}#only-{theme}){{ loading=lazy{box} }}]({src}){{ .pe-zoom .pe-zoom--{theme} title="{zoom}" }}'
            for theme in ("light", "dark")
            for src in [posixpath.relpath(f"figures/{name}.{theme}.svg", here)]
            for box in [" width={} height={}".format(*sizes[theme]) if theme in sizes else ""]
        )
        cap = f"\n<figcaption>{caption}</figcaption>" if caption else ""
        return f'<figure class="pe-figure" markdown id="fig-{name}">\n{imgs}{cap}\n</figure>'

    @env.macro
    def widget(name: str, fallback: str | None = None, **options) -> str:
        """A mount point for widget ``name``; the static figure inside is the no-JavaScript content.

        Every default in posenc.examples.WIDGET_DEFAULTS[name] becomes a data-* attribute;
        keyword ``options`` written in the page override them (see widget_attributes).
        """
        if not (WIDGETS / f"{name}.js").is_file():
            raise ValueError(f"unknown widget {name!r}: add docs/javascripts/widgets/{name}.js")
        inner = figure(fallback) if fallback else ""
        return f'<div class="pe-widget" data-pe-widget="{name}"{widget_attributes(name, options, lang())} markdown>\n{inner}\n</div>'

    @env.macro
    def example(name: str) -> str:
        """A text parameter of posenc.examples (the example sentence, a name in it), in the page's words."""
        return example_text(name, lang())

    @env.macro
    def notebook(lesson: int) -> str:
        """Links to lesson N's notebook: read it on the site, or download the .ipynb to run it."""
        if not (ROOT / "docs" / "notebooks" / f"lesson{lesson}.ipynb").is_file():
            raise ValueError(f"no notebook docs/notebooks/lesson{lesson}.ipynb; write docs/notebooks/lesson{lesson}.py and run python -m tools.build.notebooks")
        here = posixpath.dirname(env.page.file.src_uri)
        page = posixpath.relpath(i18n.source_for(f"notebooks/lesson{lesson}.ipynb", lang()), here)
        # the download of the page's language: an English page's is under en/ (lessonN.en.ipynb, saved as lessonN.ipynb)
        raw = posixpath.relpath(i18n.counterpart(f"notebooks/lesson{lesson}/lesson{lesson}.ipynb", lang()), env.page.url or ".")
        t = lambda key, **v: i18n.text(lang(), key, **v)  # noqa: E731
        return (
            f'!!! tip "{t("notebook_title")}"\n'
            f"    {t('notebook_text')}"
            f'[{t("notebook_read")}]({page}) · <a href="{raw}" download>{t("notebook_download", n=lesson)}</a>{t("notebook_run")}'
        )

    @env.macro
    def citation_bibtex() -> str:
        """The course's BibTeX entry, generated from CITATION.cff (tools/build/citation.py), as a code block."""
        from tools.build.citation import bibtex_entry

        return f"```bibtex\n{bibtex_entry(lang=lang()).rstrip()}\n```"

    @env.macro
    def attention_head_json() -> str:
        """Lesson 1's seeded attention head and token vectors, so the swap widget shows posenc's exact numbers."""
        import json

        from posenc import attention
        from posenc import examples as ex

        from posenc import tokenize

        head = attention.make_head(ex.ATTN_D, ex.ATTN_SEED)
        t = ex.texts(lang())  # the page's own sentences: characters, or words on an English page
        ids = {tok: int(i) for text in (t.swap_main[0], t.swap_short[0])
               for tok, i in zip(tokenize.tokens(text), tokenize.token_ids(text))}
        chars = sorted(ids)
        vecs = attention.token_vectors([ids[c] for c in chars], ex.ATTN_D, ex.ATTN_SEED)
        return json.dumps(
            {"w_q": head.w_q.tolist(), "w_k": head.w_k.tolist(), "w_v": head.w_v.tolist(),
             "vectors": {c: v.tolist() for c, v in zip(chars, vecs)}},
            ensure_ascii=False,
        )

    @env.macro
    def claim(name: str) -> str:
        """A registered sentence about the experiment; the build fails, quoting it, if the results contradict it."""
        from posenc.experiment import claims

        if name not in claims.CLAIMS:
            raise ValueError(f"unknown claim {name!r}: register the sentence and its test in CLAIMS in posenc/experiment/claims.py")
        try:
            sentence = claims.check(name, lang=lang())
        except ResultsPending:
            return pending()
        title = i18n.text(lang(), "claim_title")
        return f'<span class="pe-claim" data-claim="{name}" title="{title}">{html.escape(sentence)}</span>'

    @env.macro
    def replication() -> str:
        """The pre-registered claims judged on the replication seeds, claim by claim; a plain note while it runs."""
        from posenc.experiment import frozen

        try:
            return frozen.page_section(lang())
        except ResultsPending:
            return pending()

    @env.macro
    def english_amendments() -> str:
        """The frozen claims whose English sentence was re-worded after the freeze, each beside its frozen wording."""
        from posenc.experiment import frozen

        try:
            return frozen.amendments_section(lang())
        except ResultsPending:
            return pending()

    @env.macro
    def show_code(snippet: str) -> str:
        """The snippet's source as a code block, then what running it printed (run at build, cached by content)."""
        path = SNIPPETS / snippet
        if not path.is_file():
            raise ValueError(f"unknown snippet {snippet!r}: put the file in docs/snippets/")
        from tools.build import code_i18n

        source = code_i18n.snippet(path, lang())  # its comments and labels in the page's language
        output = run_snippet(path, lang())
        return f'```python title="{snippet}"\n{source.rstrip()}\n```\n\n```text title="{i18n.text(lang(), "snippet_output")}"\n{output.rstrip()}\n```'

    @env.macro
    def value_sources() -> str:
        """The references page's list: every fact and model field with its source, under the anchors tags link to."""
        return sources.sources_html(lang())

    @env.macro
    def tag_legend() -> str:
        """The three verification tags, each as the page shows it, with what it means (posenc.facts.TAGS)."""
        return tag_legend_markdown(lang())

    from tools.build import course_macros  # {{ glossary() }} and {{ timeline(…) }}
    from tools.guards import concept_order
    from tools.build import reading_time
    from tools.guards import notation

    course_macros.register(env, concept_order.link_glossary_terms)
    reading_time.register(env)
    notation.register(env)


def tag_legend_markdown(lang: str = "zh") -> str:
    """One line per tag: the badge as a page shows it (not a link here) and its meaning."""
    from posenc.facts import TAGS, TAGS_EN
    from tools.build import i18n, sources

    lines = []
    for tag, meaning in (TAGS if lang == "zh" else TAGS_EN).items():
        badge = sources.badge(tag, lang)
        rest = meaning.partition("：" if lang == "zh" else ": ")[2]
        lines.append(i18n.text(lang, "tag_legend_line", badge=badge, meaning=rest, tag=tag))
    return "\n".join(lines)


def attribute_text(value) -> str:
    """A widget option as a data-* value: plain decimals (no thousands separators), lists comma-separated."""
    from decimal import Decimal

    if isinstance(value, bool) or value is None:
        raise ValueError(f"widget option {value!r}: use a number, a string or a list of numbers")
    if isinstance(value, (list, tuple)):
        return ",".join(attribute_text(v) for v in value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"widget option {value!r} is not finite")
        text = format(Decimal(repr(value)), "f")  # the shortest digits that round-trip, never 1e-05
        return text.rstrip("0").rstrip(".") if "." in text else text
    return str(value)


# What a number, sentence or figure from the experiment shows while POSENC_EXPERIMENT_PENDING=1.
PENDING_MARK = '<span class="pe-pending">〔实验结果待定〕</span>'


def pending_mark(lang: str = "zh") -> str:
    from tools.build import i18n

    return f'<span class="pe-pending">{i18n.text(lang, "pending")}</span>'


def widget_attributes(name: str, options: dict, lang: str = "zh") -> str:
    """' data-k="v"' for every default of widget ``name`` (posenc.examples.WIDGET_DEFAULTS), options overriding.

    A key swap_i becomes data-swap-i, which the browser's dataset reads as swapI; a default written per
    edition (PerLanguage: an example sentence) is the ``lang`` edition's.
    An option the widget has no default for is an error: the widget would ignore it.
    """
    from posenc.examples import WIDGET_DEFAULTS
    from posenc.formatting import PerLanguage

    if name not in WIDGET_DEFAULTS:
        raise ValueError(f"widget {name!r} has no defaults: add WIDGET_DEFAULTS[{name!r}] to posenc/examples.py")
    defaults = WIDGET_DEFAULTS[name]
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise ValueError(f"widget {name!r} has no option {', '.join(map(repr, unknown))}; its options are {', '.join(defaults)} "
                         f"(posenc/examples.py WIDGET_DEFAULTS)")
    merged = {k: v[lang] if isinstance(v, PerLanguage) else v for k, v in {**defaults, **options}.items()}
    return "".join(f' data-{k.replace("_", "-")}="{html.escape(attribute_text(v), quote=True)}"' for k, v in merged.items())


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part.capitalize() for part in rest)


def widget_default_mismatches() -> list[str]:
    """Where the widgets and posenc.examples.WIDGET_DEFAULTS disagree, one line per place.

    Every widget file needs a WIDGET_DEFAULTS entry and the other way round. A widget reads every
    starting value from its page with ``pageOptions(el, {key: "kind", …})`` (docs/javascripts/widgets/_ui.js)
    and keeps no copy of its own: its keys must be WIDGET_DEFAULTS' keys (swap_i → swapI), so the
    macro writes exactly what the widget reads, and a ``const DEFAULTS`` left in a widget is reported
    with its file and line.
    """
    import re

    from posenc.examples import WIDGET_DEFAULTS

    out = []
    names = sorted(p.stem for p in WIDGETS.glob("*.js") if not p.stem.startswith("_") and p.stem != "index")
    for name in names:
        if name not in WIDGET_DEFAULTS:
            out.append(f"docs/javascripts/widgets/{name}.js: no WIDGET_DEFAULTS[{name!r}] in posenc/examples.py")
    for name in sorted(set(WIDGET_DEFAULTS) - set(names)):
        out.append(f"posenc/examples.py: WIDGET_DEFAULTS[{name!r}] has no docs/javascripts/widgets/{name}.js")
    for name in sorted(set(WIDGET_DEFAULTS) & set(names)):
        source = (WIDGETS / f"{name}.js").read_text(encoding="utf-8")
        where = f"docs/javascripts/widgets/{name}.js"
        copy = re.search(r"^const DEFAULTS\b", source, re.M)
        if copy:
            out.append(f"{where}:{source.count(chr(10), 0, copy.start()) + 1}: a JavaScript copy of the defaults; "
                       f"read them from the page with pageOptions (posenc/examples.py WIDGET_DEFAULTS[{name!r}])")
        m = re.search(r"pageOptions(?:OrFail)?\(\s*el,\s*\{([^}]*)\}", source)
        if not m:
            out.append(f"{where}: does not read its options with pageOptions(el, {{…}}) from docs/javascripts/widgets/_ui.js")
            continue
        line = source.count("\n", 0, m.start()) + 1
        js = set(re.findall(r"(\w+)\s*:", m.group(1)))
        ours = {_camel(k): k for k in WIDGET_DEFAULTS[name]}
        for key in sorted(js - set(ours)):
            out.append(f"{where}:{line}: reads data-{re.sub('([A-Z])', lambda c: '-' + c.group(1).lower(), key)}, "
                       f"which posenc/examples.py WIDGET_DEFAULTS[{name!r}] does not give")
        for key in sorted(set(ours) - js):
            out.append(f"{where}:{line}: posenc/examples.py WIDGET_DEFAULTS[{name!r}][{ours[key]!r}] is written into the page "
                       f"but the widget does not read it")
    return out


def example_text(name: str, lang: str = "zh") -> str:
    """A text example of the page's edition (posenc.examples.texts(lang)), by its upper-case role name
    ("SENTENCE", "REL_A" …); an unknown name or a number is an error that says what to use. An English text
    is written word by word, joined with spaces."""
    from dataclasses import fields

    from posenc import examples
    from posenc._check import did_you_mean
    from posenc.tokenize import join

    t = examples.texts(lang)
    texts = {f.name.upper(): getattr(t, f.name) for f in fields(t) if isinstance(getattr(t, f.name), (str, tuple))
             and all(isinstance(w, str) for w in getattr(t, f.name))}
    if name not in texts:
        if isinstance(getattr(examples, name, None), (int, float)):
            raise ValueError(f"example({name!r}) is a number: quote it through a registered quantity, {{{{ num(...) }}}}")
        hint = did_you_mean(name, texts)
        raise ValueError(f"unknown text example {name!r}.{hint} Text examples are the text fields of "
                         f"posenc/examples.py TextExamples: {', '.join(texts)}.")
    return join(texts[name])


def snippet_imports(path: Path) -> list[Path]:
    """The snippet files ``path`` imports (lesson3_cat_fish.py imports lesson3_table.py), transitively."""
    import ast

    seen: list[Path] = []
    todo = [path]
    while todo:
        tree = ast.parse(todo.pop().read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in names:
                dep = path.parent / f"{name.split('.')[0]}.py"
                if dep.is_file() and dep != path and dep not in seen:
                    seen.append(dep)
                    todo.append(dep)
    return sorted(seen)


def _snippet_cache_path(path: Path, lang: str = "zh") -> Path:
    """Where a snippet's output is cached: keyed on its source, the snippets it imports, and posenc; a
    folder per language, as each language's edition of the snippets prints its own words."""
    from figures_src.build import tree_digest

    h = hashlib.sha256(path.read_bytes())
    for dep in snippet_imports(path):
        h.update(dep.name.encode() + b"\0" + dep.read_bytes())
    h.update(tree_digest(ROOT / "posenc").encode())
    return SNIPPET_CACHE / lang / f"{path.stem}.{h.hexdigest()[:16]}.txt"


def localised_snippets(lang: str) -> Path:
    """The folder of the snippets as ``lang``'s edition shows and runs them: docs/snippets/ itself for Chinese;
    for another language a copy under the cache, each file's words from its table (tools/build/code_i18n.py), so
    that a snippet imports its neighbours in the same language."""
    from tools.build import code_i18n

    if lang == code_i18n.SOURCE_LANGUAGE:
        return SNIPPETS
    folder = SNIPPET_CACHE / f"src-{lang}"
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(SNIPPETS.glob("*.py")):
        text = code_i18n.snippet(path, lang)
        target = folder / path.name
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
    return folder


def _execute_snippets(paths: list[Path], lang: str = "zh") -> dict[Path, str | RuntimeError]:
    """Run the snippets (tools/build/snippet_runner.py: one process imports torch once and forks one per snippet).

    Returns what each printed, cached, or for a snippet that failed an error naming it, with its traceback.
    """
    import tempfile

    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    results: dict[Path, str | RuntimeError] = {}
    with tempfile.TemporaryDirectory(prefix="posenc-snippets-") as tmp:
        out = Path(tmp)
        proc = subprocess.run([sys.executable, "-m", "tools.build.snippet_runner", str(out), *map(str, paths)],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
        if proc.returncode != 0:
            raise RuntimeError(f"running the snippets failed (python -m tools.build.snippet_runner, exit {proc.returncode}):\n{proc.stderr}")
        for path in paths:
            status = (out / f"{path.stem}.exit").read_text(encoding="utf-8")
            if status != "0":
                err = (out / f"{path.stem}.err").read_text(encoding="utf-8")
                results[path] = RuntimeError(f"snippet {path.name} failed (exit {status}); fix it or the code it calls:\n{err}")
            else:
                results[path] = (out / f"{path.stem}.out").read_text(encoding="utf-8")
    (SNIPPET_CACHE / lang).mkdir(parents=True, exist_ok=True)
    for path, text in results.items():
        for stale in (SNIPPET_CACHE / lang).glob(f"{path.stem}.*.txt"):
            stale.unlink()
        if isinstance(text, str):
            _snippet_cache_path(path, lang).write_text(text, encoding="utf-8")
    return results


def run_snippet(path: Path, lang: str = "zh") -> str:
    """Run a snippet (in ``lang``'s edition) with the project's Python; cache its output by the snippet's and
    posenc's content.

    On a miss every stale snippet is run at once (tools/build/snippet_runner.py): each would spend most of its
    few seconds importing torch, so they share one import, and a cold build runs them together.
    """
    folder = localised_snippets(lang) if path.parent == SNIPPETS else path.parent
    path = folder / path.name
    cached = _snippet_cache_path(path, lang)
    if cached.exists():
        return cached.read_text(encoding="utf-8")
    stale = [p for p in sorted(folder.glob("*.py")) if not _snippet_cache_path(p, lang).exists()]
    if path not in stale:
        stale.append(path)
    result = _execute_snippets(stale, lang)[path]
    if isinstance(result, RuntimeError):
        raise result
    return result
