"""Course-wide macros: the glossary page, the one timeline of positional encoding, and the results table's rows.

    {{ glossary() }}             the glossary (术语表) from posenc/data/glossary.yaml: one Chinese term
                                 per concept, its English name, where it is first taught, a definition,
                                 and the synonyms the course does not use
    {{ timeline() }}             the timeline (位置编码的演进) from posenc/data/timeline.yaml, every
                                 stage in full: the home page, the one place it is told in full
    {{ timeline("lesson4") }}    inside a lesson: one line, 你在这里 and the stage(s) that lesson teaches,
                                 with a link to the home page's timeline
    {{ method_rows() }}          the results page's table rows, one per method record of
                                 posenc/experiment/course.py: its name, the lesson that teaches it,
                                 and its three losses (posenc/quantities/experiment.py METHOD_LOSS_NAMES)
``register(env)`` adds the macros; ``tools/build/macros.py`` calls it at the end of ``define_env``. This module
imports nothing from tools/build/macros.py (the macros module imports it). The data
files' texts are lesson prose: they quote numbers with the same macros as a page (``num``, ``cfg``,
``fact``), rendered here by the page's Jinja environment, and tests lint them like a page
(tests/test_glossary.py, tests/test_timeline.py), including the rejected synonyms, which
``synonym_findings`` looks for in every page, notebook and data text.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from posenc import _yaml

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DATA = ROOT / "posenc" / "data"
GLOSSARY = DATA / "glossary.yaml"
TIMELINE = DATA / "timeline.yaml"
# The English pages' words for the same entries, by id and key (the structure stays in the files above).
GLOSSARY_EN = DATA / "glossary.en.yaml"
TIMELINE_EN = DATA / "timeline.en.yaml"

LESSON_KEY = re.compile(r"^lesson\d+b?$")  # lesson1 … lesson6, lesson3b: the argument of timeline()
KINDS = ("start", "naive", "generation")
CN_ORDINALS = "一二三四五六七八九十"


# --- where a page is, and what it is called ---------------------------------------------------------------


def split_target(target: str) -> tuple[str, str]:
    """'lessons/04-rope.md#shift' → ('lessons/04-rope.md', 'shift')."""
    page, _, anchor = target.partition("#")
    return page, anchor


def page_label(page: str, lang: str = "zh") -> str:
    """'lessons/03b-relative-bias.md' → '第 3 课·续' (English: 'Lesson 3b'); the label a link to that lesson shows.
    The results page, which the notation table names for its statistics, is '实验全貌' ('the results page')."""
    if page == "lessons/results.md":
        return "实验全貌" if lang == "zh" else "the results page"
    m = re.match(r"lessons/0*(\d+)(b?)-", page)
    if not m:
        raise ValueError(f"{page!r} is not a lesson page (docs/lessons/NN-name.md); the glossary and timeline link lessons")
    if lang != "zh":
        return f"Lesson {m.group(1)}{m.group(2)}"
    return f"第 {m.group(1)} 课" + ("·续" if m.group(2) else "")


@lru_cache(maxsize=None)
def english_texts(path: Path) -> dict:
    """glossary.en.yaml's terms or timeline.en.yaml's stages: id or key → its English words."""
    data = _yaml.load_file(path) or {}
    return data.get("terms") or data.get("stages") or {}


def _english(path: Path, key: str) -> dict | str:
    texts = english_texts(path)
    if key not in texts:
        raise ValueError(f"{path.relative_to(ROOT).as_posix()}: no English entry {key!r}; the English pages need one "
                         f"for every entry of {path.name.replace('.en.', '.')}")
    return texts[key]


def anchor_exists(page: str, anchor: str) -> bool:
    """Whether docs/<page> exists and, if ``anchor`` is given, declares it as { #anchor } on some heading."""
    path = DOCS / page
    if not path.is_file():
        return False
    return not anchor or re.search(r"\{\s*#" + re.escape(anchor) + r"[\s}]", path.read_text(encoding="utf-8")) is not None


def relative_link(target: str, from_page: str) -> str:
    """A docs-relative target ('lessons/04-rope.md#shift') as a link from the page ``from_page`` (its src_uri)."""
    page, anchor = split_target(target)
    rel = posixpath.relpath(page, posixpath.dirname(from_page) or ".")
    return rel + (f"#{anchor}" if anchor else "")


def relink(markdown: str, from_page: str) -> str:
    """Rewrite the docs-relative links a data text writes ([x](lessons/…)) as links from ``from_page``."""
    return re.sub(r"\]\(((?:lessons|notebooks)/[^)\s]+)\)", lambda m: f"]({relative_link(m.group(1), from_page)})", markdown)


# --- the results table --------------------------------------------------------------------------------------------


def method_rows_markdown(from_page: str, lang: str = "zh") -> str:
    """The results table's rows, one per method record, as the page would type them: its table name, a link to
    the lesson that teaches it, and the ``num`` calls of its three losses (rendered like the page's own)."""
    from posenc.experiment import course
    from posenc.quantities.experiment import METHOD_LOSS_NAMES

    rows = []
    for m in course.METHOD_RECORDS:
        label = page_label(f"lessons/{m.lesson_page}", lang)
        label = label[:1].lower() + label[1:]  # a cell inside a row, like the names ("lesson 3b"; Chinese unchanged)
        numbers = " | ".join(f'{{{{ num("{name}") }}}}' for name in METHOD_LOSS_NAMES[m.key])
        rows.append(f"| {m.table_label(lang)} | [{label}]({relative_link('lessons/' + m.lesson, from_page)}) | {numbers} |")
    return "\n".join(rows)


# --- the glossary ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    id: str
    term: str
    english: str
    first: str
    define: str
    reject: tuple[str, ...]
    line: int  # where the entry starts in glossary.yaml


_TERM_FIELDS = ("id", "term", "english", "first", "define")


@lru_cache(maxsize=None)
def load_glossary(path: Path = GLOSSARY) -> tuple[Term, ...]:
    """The glossary's entries in order, checked: every field present, ids and terms unique, pages real."""
    data, root = _yaml.load_file_with_nodes(path)
    data = data or {}
    if not isinstance(data.get("terms"), list):
        raise ValueError(f"{path.name}: expected a list under 'terms'")
    lines = [node.start_mark.line + 1 for key, value in root.value if key.value == "terms" for node in value.value]
    out, seen = [], {}
    for raw, line in zip(data["terms"], lines):
        missing = [f for f in _TERM_FIELDS if not raw.get(f)]
        if missing:
            raise ValueError(f"{path.name}:{line}: entry lacks {', '.join(missing)}; every entry needs {', '.join(_TERM_FIELDS)}")
        for field in ("id", "term"):
            if raw[field] in seen.get(field, {}):
                raise ValueError(f"{path.name}:{line}: {field} {raw[field]!r} is already used at line {seen[field][raw[field]]}")
            seen.setdefault(field, {})[raw[field]] = line
        if not re.fullmatch(r"[a-z0-9-]+", raw["id"]):
            raise ValueError(f"{path.name}:{line}: id {raw['id']!r} must be lower-case ASCII letters, digits and hyphens (it is the anchor)")
        if not anchor_exists(*split_target(raw["first"])):
            raise ValueError(f"{path.name}:{line}: first {raw['first']!r} names no page under docs/ or no {{ #anchor }} on it")
        page_label(split_target(raw["first"])[0])
        reject = tuple(raw.get("reject") or ())
        out.append(Term(raw["id"], raw["term"], raw["english"], raw["first"], raw["define"], reject, line))
    return tuple(out)


def rejected() -> dict[str, str]:
    """Every rejected synonym → the term to write instead."""
    return {r: t.term for t in load_glossary() for r in t.reject}


def glossary_markdown(from_page: str, render, lang: str = "zh") -> str:
    """The glossary as a definition list (one term per entry, anchored by its id), links relative to ``from_page``.

    In English the English name comes first with the course's Chinese term beside it, the definition is
    glossary.en.yaml's, and the rejected synonyms (Chinese words) are left out."""
    out = ['<div class="pe-glossary" markdown>', ""]
    for t in load_glossary():
        page, _ = split_target(t.first)
        first = f"[{page_label(page, lang)}]({relative_link(t.first, from_page)})"
        if lang == "zh":
            names, define = f"**{t.term}** · {t.english}", t.define
            taught = f"首次讲解：{first}" + ("。不用：" + "、".join(f"「{r}」" for r in t.reject) if t.reject else "")
        else:
            names, define = f"**{t.english}** · {t.term}", _english(GLOSSARY_EN, t.id)
            taught = f"First taught in {first}."
        out += [f"{names} {{ #{t.id} }}", f":   {relink(render(define), from_page)}", "", f"    {taught}", ""]
    out.append("</div>")
    return "\n".join(out)


# --- rejected synonyms in prose --------------------------------------------------------------------------


def synonym_pattern(word: str) -> re.Pattern:
    """A rejected word with any spacing between its parts, Latin letters in any case ('因果 mask' ~ '因果Mask')."""
    parts = [re.escape(ch) for ch in word if not ch.isspace()]
    return re.compile(r"\s*".join(parts), re.IGNORECASE)


def notebook_prose(source: str) -> str:
    """The Markdown cells of a jupytext percent-format notebook, line for line (code lines blanked)."""
    out, markdown = [], False
    for line in source.splitlines():
        if line.startswith("# %%"):
            markdown = "[markdown]" in line
            out.append("")
        elif markdown and line.startswith("#"):
            out.append(line[2:] if line.startswith("# ") else line[1:])
        else:
            out.append("")
    return "\n".join(out)


def yaml_prose(source: str, fields: tuple[str, ...]) -> str:
    """The text fields of a data file, line for line: each ``field: …`` value and each '- …' item under one."""
    out, inside = [], False
    for line in source.splitlines():
        stripped = line.strip()
        m = re.match(r"(\w+):\s*(.*)$", stripped)
        if m and not stripped.startswith("#"):
            inside = m.group(1) in fields
            out.append(m.group(2) if inside and m.group(2) not in ("", "[]") else "")
        elif inside and stripped.startswith("- "):
            out.append(stripped[2:])
        else:
            out.append("")
    return "\n".join(out)


TIMELINE_TEXT = ("title", "who", "short", "fixed", "left", "models")
GLOSSARY_TEXT = ("define",)


def prose_sources() -> list[tuple[Path, str]]:
    """(file, its prose with line numbers kept) for every text a reader reads: pages, notebooks, data texts."""
    from tools.guards import prose_lint

    out = [(p, prose_lint.prose(p.read_text(encoding="utf-8"))) for p in sorted(DOCS.rglob("*.md"))]
    out += [(p, prose_lint.prose(notebook_prose(p.read_text(encoding="utf-8")))) for p in sorted((DOCS / "notebooks").glob("lesson*.py"))]
    out += [(TIMELINE, prose_lint.prose(yaml_prose(TIMELINE.read_text(encoding="utf-8"), TIMELINE_TEXT))),
            (GLOSSARY, prose_lint.prose(yaml_prose(GLOSSARY.read_text(encoding="utf-8"), GLOSSARY_TEXT)))]
    return out


def synonym_findings(sources=None, words: dict[str, str] | None = None) -> list[str]:
    """'file:line: 「因果 mask」 → write 因果掩码' for each rejected synonym in ``sources`` (default: prose_sources())."""
    words = rejected() if words is None else words
    out = []
    for path, text in prose_sources() if sources is None else sources:
        rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        for word, use in words.items():
            for m in synonym_pattern(word).finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                out.append((str(rel), line, f"{rel}:{line}: 「{m.group(0)}」 is a rejected synonym; write {use} (posenc/data/glossary.yaml)"))
    return [msg for _, _, msg in sorted(out)]


# --- the timeline ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stage:
    key: str
    kind: str
    title: str
    year: str
    who: str
    page: str
    here: tuple[str, ...]
    short: str
    fixed: str
    left: str
    models: tuple[str, ...]
    label: str  # 起点 · 朴素方案 · 第一代 …


@lru_cache(maxsize=None)
def load_timeline(path: Path = TIMELINE) -> tuple[Stage, ...]:
    """The stages in order, checked; only generations are numbered (第一代 …), the start and the naive design not."""
    data = _yaml.load_file(path) or {}
    stages, generation, keys = [], 0, set()
    for raw in data.get("stages") or []:
        name = raw.get("key", "?")
        missing = [f for f in ("key", "kind", "title", "page", "short", "fixed", "left") if not raw.get(f)]
        if missing:
            raise ValueError(f"{path.name}: stage {name!r} lacks {', '.join(missing)}")
        if raw["kind"] not in KINDS:
            raise ValueError(f"{path.name}: stage {name!r} has kind {raw['kind']!r}; use one of {', '.join(KINDS)}")
        if name in keys:
            raise ValueError(f"{path.name}: stage key {name!r} is used twice")
        keys.add(name)
        here = tuple(raw.get("here") or ())
        bad = [h for h in here if not LESSON_KEY.match(h)]
        if bad:
            raise ValueError(f"{path.name}: stage {name!r}: here {bad} must be lesson keys such as 'lesson4' or 'lesson3b'")
        if not anchor_exists(*split_target(raw["page"])):
            raise ValueError(f"{path.name}: stage {name!r}: page {raw['page']!r} names no page under docs/ or no {{ #anchor }} on it")
        if raw["kind"] == "generation":
            generation += 1
            label = f"第{CN_ORDINALS[generation - 1]}代"
        else:
            label = {"start": "起点", "naive": "朴素方案"}[raw["kind"]]
        stages.append(Stage(name, raw["kind"], raw["title"], str(raw.get("year") or ""), raw.get("who") or "", raw["page"],
                            here, raw["short"], raw["fixed"], raw["left"], tuple(raw.get("models") or ()), label))
    if not stages:
        raise ValueError(f"{path.name}: no stages")
    return tuple(stages)


def lesson_keys() -> list[str]:
    return sorted({h for s in load_timeline() for h in s.here})


HERE_MARK = '<span class="pe-here">你在这里</span>'
HOME_TIMELINE = "index.md#timeline"  # where the timeline is told in full
# The timeline's own words on English pages (the Chinese ones are written in the functions below).
TIMELINE_WORDS_EN = {"start": "Starting point", "naive": "Naive design", "generation": "Generation {n}",
                     "here": '<span class="pe-here">You are here</span>', "who": "Source", "fixed": "Solved",
                     "left": "Left open", "models": "Representative models"}


def _heading(s: Stage, from_page: str, lang: str = "zh") -> str:
    link = f"[{page_label(split_target(s.page)[0], lang)}]({relative_link(s.page, from_page)})"
    if lang != "zh":
        return f"**{s.label}: {s.title}**" + (f" ({s.year})" if s.year else "") + f" · {link}"
    return f"**{s.label}：{s.title}**" + (f"（{s.year}）" if s.year else "") + f" · {link}"


def _stages_in(lang: str) -> tuple[Stage, ...]:
    """The stages with their words in ``lang`` (English: timeline.en.yaml's, the generations counted in words)."""
    stages = load_timeline()
    if lang == "zh":
        return stages
    from dataclasses import replace

    out, generation = [], 0
    for s in stages:
        en = _english(TIMELINE_EN, s.key)
        generation += s.kind == "generation"
        label = TIMELINE_WORDS_EN[s.kind].format(n=generation)
        out.append(replace(s, title=en["title"], who=en.get("who") or "", short=en["short"], fixed=en["fixed"],
                           left=en["left"], models=tuple(en.get("models") or ()), label=label))
    return tuple(out)


def _stations(numbers: list[int], lang: str = "zh") -> str:
    """[3] → '第 3 站' ('stop 3'); [2, 3] → '第 2–3 站' ('stops 2–3'): a lesson's stages are consecutive."""
    if numbers != list(range(numbers[0], numbers[-1] + 1)):
        raise ValueError(f"a lesson's stages must be consecutive in posenc/data/timeline.yaml, got stations {numbers}")
    span = f"{numbers[0]}" if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"
    if lang != "zh":
        return f"stop {span}" if len(numbers) == 1 else f"stops {span}"
    return f"第 {span} 站"


def timeline_markdown(here: str | None, from_page: str, render, lang: str = "zh", link_terms=None) -> str:
    """The timeline for the page ``from_page`` in ``lang``: every stage in full (``here`` None: the home
    page), or, in a lesson, one line: 你在这里, the stage(s) that lesson teaches with their one-line
    summaries (``short``), and a link to the full timeline.

    ``render`` turns a data text's macro calls into their values (the page's Jinja environment).
    ``link_terms(line, from_page, seen)`` links the glossary terms the full timeline uses
    (tools/guards/concept_order.py link_glossary_terms; passed in, since concept_order reads this module's glossary).
    """
    stages = _stages_in(lang)
    zh = lang == "zh"
    words = None if zh else TIMELINE_WORDS_EN

    def text(t: str) -> str:
        return relink(render(t), from_page)

    if here is not None:
        if here not in lesson_keys():
            raise ValueError(f"timeline({here!r}): no stage is marked here: [{here}] in posenc/data/timeline.yaml; "
                             f"lesson keys there: {', '.join(lesson_keys())}")
        mine = [(n, s) for n, s in enumerate(stages, 1) if here in s.here]
        home = relative_link(HOME_TIMELINE, from_page)
        stations = _stations([n for n, _ in mine], lang)
        generations = sum(s.kind == "generation" for s in stages)
        others = [s.label for s in stages if s.kind != "generation"]  # the start and the naive design, by their labels
        others_zh, others_en = "、".join(others), ", ".join(o[:1].lower() + o[1:] for o in others)
        if zh:
            titles = "；".join(f"**{s.label}：{s.title}**" + (f"（{s.year}）" if s.year else "") + f"——{text(s.short)}"
                               for _, s in mine)
            line = (f"{HERE_MARK}：{stations}（共 {len(stages)} 站：{others_zh}，再加 {generations} 代），{titles}。"
                    f"每一站解决了什么、又卡在哪里，见[首页的时间线]({home})。")
        else:
            titles = "; ".join(f"**{s.label}: {s.title}**" + (f" ({s.year})" if s.year else "") + f" — {text(s.short)}"
                               for _, s in mine)
            line = (f"{words['here']}: {stations} of {len(stages)} ({others_en}, "
                    f"then {generations} generations). {titles}. "
                    f"What each stop solved, and where it got stuck, is in [the timeline on the home page]({home}).")
        return "\n".join(['<div class="pe-timeline pe-timeline--line" markdown>', "", line, "", "</div>"])
    out = ['<div class="pe-timeline" markdown>', ""]
    seen: set[str] = set()  # the glossary terms linked so far: each once, where the timeline first uses it

    def body(line: str) -> str:
        return link_terms(line, from_page, seen) if link_terms else line

    for n, s in enumerate(stages, 1):
        out.append(f"{n}. {_heading(s, from_page, lang)}")
        if zh:
            if s.who:
                out.append(body(f"    - 出处：{text(s.who)}"))
            out.append(body(f"    - 解决了：{text(s.fixed)}"))
            out.append(body(f"    - 卡在：{text(s.left)}"))
            if s.models:
                out.append(body("    - 代表模型：" + "；".join(text(m) for m in s.models) + "。"))
            continue
        if s.who:
            out.append(body(f"    - {words['who']}: {text(s.who)}"))
        out.append(body(f"    - {words['fixed']}: {text(s.fixed)}"))
        out.append(body(f"    - {words['left']}: {text(s.left)}"))
        if s.models:
            out.append(body(f"    - {words['models']}: " + "; ".join(text(m) for m in s.models) + "."))
    out += ["", "</div>"]
    return "\n".join(out)


def register(env, link_terms=None) -> None:
    """Add {{ glossary() }}, {{ timeline(…) }}, {{ main_lesson_count() }} and {{ method_rows() }} to the macros (call from tools/build/macros.py define_env)."""

    def render(text: str) -> str:
        # The data texts call the page's own macros (num, cfg, fact); render them like the page itself.
        return env.env.from_string(text).render() if "{{" in text or "{%" in text else text

    from tools.build.i18n import source_language

    @env.macro
    def glossary() -> str:
        """The glossary (posenc/data/glossary.yaml) as a definition list, in the page's language."""
        return glossary_markdown(env.page.file.src_uri, render, source_language(env.page.file.src_uri))

    @env.macro
    def timeline(here: str | None = None) -> str:
        """The timeline (posenc/data/timeline.yaml): every stage in full, or a lesson's one line with 你在这里."""
        return timeline_markdown(here, env.page.file.src_uri, render, source_language(env.page.file.src_uri), link_terms)

    @env.macro
    def main_lesson_count() -> str:
        """How many main lessons mkdocs.yml's nav has (1, 2, 3, …; not 3b or 6b), as the page's language writes a count."""
        from posenc.formatting import count_words
        from tools.build.lesson_pages import LESSON_PAGE, lesson_pages

        n = sum(1 for page in lesson_pages() if not LESSON_PAGE.match(page).group(2))
        return count_words(n)[source_language(env.page.file.src_uri)]

    @env.macro
    def method_rows() -> str:
        """The results table's rows from the experiment's method records, in the page's language."""
        return render(method_rows_markdown(env.page.file.src_uri, source_language(env.page.file.src_uri)))
