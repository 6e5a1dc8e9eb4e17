"""Site search in Chinese: what the build adds to Material's search plugin (mkdocs-material 9.8).

How Material searches Chinese. At build time its search plugin (``search: lang: zh``) cuts every
run of Han characters into words with jieba and joins them with U+200B, which the separator
splits on, so each jieba word is one index term. In the browser, the search worker cuts the
query the same way, greedily, into the longest terms the index holds, and searches each as a
prefix (``位置*``). So a course term is found as a whole only if jieba cut it whole at build time.
What this module adds:

- ``tools/build/search_terms.txt``: the course's terms as a jieba user dictionary (one word a line,
  no comments: jieba would read a comment as a word), loaded by the plugin's own
  ``jieba_dict_user`` option in mkdocs.yml. Without it jieba cuts 位置插值 into 位置 / 插值 and
  外推 into 外 / 推.
- ``patch_worker``: the worker's query cutter never tries a word that ends at the last character
  of the query (``for (j = i + 1; j < query.length; …)``, also in Material's master), so 位置插值
  became a search for 位置* alone and 旋转位置编码 for 旋转* 位置*. The hook serves the worker with
  ``j <= query.length``; if a theme upgrade changes that code, the build fails and says so.
- ``search_boost``: lessons teach, the other pages point at them (the home page and the
  references summarise every lesson; a notebook repeats its lesson's code), so those rank below
  the lesson that teaches a term (Material's per-page ``search.boost``).
- ``clean_index``: result teasers without raw LaTeX: ``\\(\\omega_i\\)`` in the index text reads ωᵢ; and
  notebook headings without the ¶ of nbconvert's anchor link at the end of their titles.
- a reported value's verification tag (已核实 …) stays out of the index (``data-search-exclude``
  in ``tools/build/sources.py`` ``badge``).
- the English index (``clean_index``, ``english_index``): lunr's whole English pipeline (stemmer, stop-word
  filter, trimmer; the build had kept the Chinese ``stemmer`` alone), a query's stop words left out
  (``patch_worker``: "needle in a haystack" searched "in*" and "a*", which prefix most words), and each
  glossary term's English names in a search field of the section that first teaches it (``glossary_tags``),
  so "rotary" finds lesson 4 rather than the pages that mention the word in passing.

tests/test_search.py runs a table of Chinese queries through the built site's own search worker
(tests/material_search.cjs, in Node) and checks the page each one finds first.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
TERMS = ROOT / "tools" / "build" / "search_terms.txt"
GLOSSARY = ROOT / "posenc" / "data" / "glossary.yaml"

# Lessons keep Material's default boost (1); the pages that point at them rank lower. A notebook's
# sections are short headings made of the very terms its lesson teaches ("ALiBi 的斜率"), so at 0.5
# they still outranked the lesson (tests/test_search.py): notebooks get less.
POINTER_BOOST = 0.5
NOTEBOOK_BOOST = 0.2


def search_boost(src_uri: str) -> float | None:
    """Material's per-page search boost for the page whose source is ``src_uri`` (None: the default, 1)."""
    if src_uri.startswith("lessons/"):
        return None
    return NOTEBOOK_BOOST if src_uri.startswith("notebooks/") else POINTER_BOOST


# The worker's query cutter (Material's src/.../search/query/segment/index.ts, minified): the inner
# loop's bound j < query.length leaves out every word that ends at the query's last character.
WORKER_SEGMENT_BUG = "for(let o=s+1;o<t.length;o++)t.slice(s,o)in e&&(n[s]=o-s)"
WORKER_SEGMENT_FIX = "for(let o=s+1;o<=t.length;o++)t.slice(s,o)in e&&(n[s]=o-s)"
WORKER = re.compile(r"^assets/javascripts/workers/search\.[0-9a-f]+\.min\.js$")


# English search (tools/build/i18n.py: the English pages have their own index, stemmed by lunr's English stemmer).
# Stop words: lunr's stop-word filter runs on the index only (its search pipeline is the stemmer alone), and a
# query term with a wildcard skips even that; so "in*" and "a*" of "needle in a haystack" were searched and
# matched most pages. The patch leaves out a wildcard term that lunr.stopWordFilter drops, unless the reader
# marked it required (+in).
# Material appends a wildcard to every query term ("interval" → "interval*"), and lunr runs no pipeline on a
# term with a wildcard, so the query is never stemmed while the index is: "verification*" is no prefix of the
# indexed stem "verif", and a stemmed English index found nothing for "verification", "glossary" or "tags"
# (measured on the built site). The patch searches a trailing-wildcard term of ASCII letters and digits both
# as typed and as the index's own search pipeline makes it ("verification*" → "verif*", "verification*"):
# either matching finds the page. The term as typed stays, because the Chinese index does not stem English
# words ("query*" finds "query" there; "queri*" would not).
WORKER_WILDCARD_QUERY = "c.usePipeline?f=this.pipeline.runString(c.term,{fields:c.fields}):f=[c.term];"
WORKER_WILDCARD_STEMMED = ("c.usePipeline?f=this.pipeline.runString(c.term,{fields:c.fields}):"
                           "f=/^[a-z0-9]+\\*$/.test(c.term)?(b=>t.stopWordFilter(b)===void 0&&c.presence!==t.Query.presence.REQUIRED?[]:"
                           "[...new Set([...this.pipeline.runString(b,{fields:c.fields}).filter(s=>s).map(s=>s+\"*\"),c.term])])"
                           "(c.term.slice(0,-1)):[c.term];")


def patch_worker(source: str, where: str) -> str:
    if source.count(WORKER_SEGMENT_BUG) != 1:
        raise SystemExit(
            f"{where}: Material's search worker no longer contains its query cutter as tools/build/search.py expects "
            f"({WORKER_SEGMENT_BUG!r}); check whether the theme fixed the last-character bug and update patch_worker")
    if source.count(WORKER_WILDCARD_QUERY) != 1:
        raise SystemExit(
            f"{where}: Material's search worker no longer runs a query clause as tools/build/search.py expects "
            f"({WORKER_WILDCARD_QUERY!r}); check how it treats a wildcard term and update patch_worker")
    return source.replace(WORKER_SEGMENT_BUG, WORKER_SEGMENT_FIX).replace(WORKER_WILDCARD_QUERY, WORKER_WILDCARD_STEMMED)


# ---- teasers without raw LaTeX ------------------------------------------------------------------------

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "vartheta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ",
    "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}
_SYMBOLS = {
    "cdot": "·", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "ne": "≠", "neq": "≠", "approx": "≈", "sim": "∼", "equiv": "≡", "propto": "∝", "to": "→", "rightarrow": "→",
    "Rightarrow": "⇒", "leftarrow": "←", "mapsto": "↦", "infty": "∞", "sum": "Σ", "prod": "Π", "in": "∈",
    "notin": "∉", "subset": "⊂", "cup": "∪", "cap": "∩", "forall": "∀", "exists": "∃", "partial": "∂",
    "nabla": "∇", "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮", "langle": "⟨", "rangle": "⟩",
    "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "top": "ᵀ", "circ": "∘", "odot": "⊙",
    "otimes": "⊗", "oplus": "⊕", "mid": "|", "lvert": "|", "rvert": "|", "vert": "|", "|": "‖", "lVert": "‖",
    "rVert": "‖", "prime": "′", "star": "⋆", "ell": "ℓ", "quad": " ", "qquad": " ", ",": " ", ";": " ",
    ":": " ", "!": "", " ": " ", "{": "{", "}": "}", "%": "%", "&": "&", "_": "_", "#": "#", "$": "$",
}
# Commands whose braced argument is kept as plain text; others (\left, \right, \displaystyle …) vanish.
_KEEP_ARG = {"text", "textrm", "textit", "textbf", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "mathcal",
             "mathbb", "boldsymbol", "bm", "operatorname", "hat", "tilde", "bar", "vec", "overline", "underline",
             "widehat", "widetilde", "mbox"}
_SUPERSCRIPT = dict(zip("0123456789+-=()niTᵀ′", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀᵀ′"))
_SUBSCRIPT = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))


def _group(tex: str, i: int) -> tuple[str, int]:
    """The argument starting at tex[i] (a braced group or one character) and the index after it."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        depth = 0
        for j in range(i, len(tex)):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[i + 1:j], j + 1
        return tex[i + 1:], len(tex)
    if tex[i] == "\\":
        m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
        return m.group(0), i + len(m.group(0))
    return tex[i], i + 1


def _script(text: str, table: dict, mark: str) -> str:
    plain = _reading(text)
    if plain and all(c in table for c in plain):
        return "".join(table[c] for c in plain)
    return mark + (plain if re.fullmatch(r"\w+", plain) else f"({plain})")


# A formula's line break (\\ in an aligned block) in a teaser, per index language: the Chinese index separates
# the rows with a full-width semicolon, the English one with an ASCII "; " (a reader of the English edition met
# "；" in its search results); there a row's own trailing comma goes: "sin(p ωᵢ), ；" reads "sin(p ωᵢ); ".
_ROW = "\x00"


def plain_math(tex: str, lang: str = "zh") -> str:
    """A LaTeX formula as plain text for a search teaser: ``\\frac{1}{\\sqrt{d}}`` → ``1/√d``, ``\\omega_i`` → ``ωᵢ``;
    the rows of an aligned block joined by ``；`` (``lang`` "zh") or ``; `` (``lang`` "en")."""
    rows = [row for row in (r.strip() for r in _reading(tex).split(_ROW)) if row]
    if lang == "en":
        return "; ".join(row.rstrip(",;").rstrip() for row in rows)
    return " ； ".join(rows)


def _reading(tex: str) -> str:
    """plain_math's reading with each line break as _ROW."""
    out, i = [], 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            name, i = m.group(1), i + len(m.group(0))
            if name in ("frac", "dfrac", "tfrac"):
                num, i = _group(tex, i)
                den, i = _group(tex, i)
                num, den = _reading(num), _reading(den)
                wrap = lambda s: s if re.fullmatch(r"[\w.√′]+", s) else f"({s})"  # noqa: E731
                out.append(f"{wrap(num)}/{wrap(den)}")
            elif name == "sqrt":
                arg, i = _group(tex, i)
                arg = _reading(arg)
                out.append("√" + (arg if re.fullmatch(r"[\w.]+", arg) else f"({arg})"))
            elif name in ("begin", "end"):
                _, i = _group(tex, i)
            elif name == "\\":
                out.append(_ROW)
            elif name in _KEEP_ARG:
                arg, i = _group(tex, i)
                out.append(_reading(arg))
            elif name in _GREEK:
                out.append(_GREEK[name])
            elif name in _SYMBOLS:
                out.append(_SYMBOLS[name])
            elif name in ("sin", "cos", "tan", "log", "ln", "exp", "max", "min", "arg", "det", "lim", "softmax"):
                out.append(name)
            # any other command (\left, \right, \displaystyle, \big …) only shapes the layout
        elif c in "^_":
            arg, i = _group(tex, i + 1)
            out.append(_script(arg, _SUPERSCRIPT if c == "^" else _SUBSCRIPT, c))
        elif c in "{}":
            i += 1
        elif c == "&":
            i += 1
        elif c == "~":
            out.append(" ")
            i += 1
        else:
            out.append(c)
            i += 1
    return re.sub(r"[ \t\n]+", " ", "".join(out)).strip()


# Formulas as they reach the index: arithmatex's \( … \) and \[ … \] on lesson pages; $$ … $$ and
# $ … $ in the notebooks' Markdown cells (nbconvert leaves them for the page's KaTeX).
_MATH = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$|\$([^$\n]+?)\$", re.S)


def plain_text(text: str, lang: str = "zh") -> str:
    """Index text with every formula replaced by its plain_math reading (in the index's language ``lang``)."""
    def reading(m):  # the index holds HTML-escaped text (&lt; for <): read the formula, escape the reading
        tex = next(g for g in m.groups() if g is not None)
        return html.escape(plain_math(html.unescape(tex), lang), quote=False)

    return _MATH.sub(reading, text)


# nbconvert ends each notebook heading with its anchor link, ¶, which Material's search takes into the title.
_ANCHOR_MARK = re.compile(r"[\s\u200b]*¶$")


# lunr's English pipeline in full (Material's names): Material's search plugin takes its pipeline from the
# theme language of the first build (Chinese: the stemmer alone), and the English build inherits it.
ENGLISH_PIPELINE = ["stemmer", "stopWordFilter", "trimmer"]


def glossary_tags() -> dict[str, list[str]]:
    """English index location → the names of the glossary terms first taught there.

    A term's names: its English name without the gloss in parentheses ("partial RoPE (partial rotary)" →
    "partial RoPE"), and its Chinese term when that is Latin letters, whole or in parentheses ("ALiBi",
    "RoPE（旋转位置编码）" → "RoPE"). The section is the glossary's ``first`` (page and anchor).
    """
    from posenc import _yaml

    # read directly, not through tools.build.course_macros (which imports tools.build.i18n, which imports this module);
    # the glossary page's build checks the file (course_macros.load_glossary)
    glossary = _yaml.load(GLOSSARY.read_text(encoding="utf-8"))["terms"]
    tags: dict[str, list[str]] = {}
    for raw in glossary:
        term = SimpleNamespace(**{k: raw[k] for k in ("first", "english", "term")})
        page, _, anchor = term.first.partition("#")
        location = "en/" + page.removesuffix(".md") + "/" + (f"#{anchor}" if anchor else "")
        names = [re.sub(r"\s*\(.*?\)", "", term.english).strip()]
        head, _, gloss = term.term.partition("（")
        names += [part.strip() for part in (head, gloss.rstrip("）")) if re.fullmatch(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*", part.strip())]
        for name in names:
            if name and name not in tags.setdefault(location, []):
                tags[location].append(name)
    return tags


# The field that holds a section's glossary terms, weighted as Material weighs a title (1000; text: 1). Less was
# not enough (measured on the built site, tests/test_search.py): a notebook's heading "rotary_dim" matches
# "rotary*" in a title field, and even at the notebooks' low page boost it outranked lesson 4 for "rotary".
TERMS_FIELD = "terms"
TERMS_BOOST = 1000.0


def english_index(data: dict) -> dict:
    """The English search index with lunr's full English pipeline and the glossary's terms as a field."""
    data["config"]["pipeline"] = list(ENGLISH_PIPELINE)
    data["config"]["fields"][TERMS_FIELD] = {"boost": TERMS_BOOST}
    locations = {doc["location"]: doc for doc in data["docs"]}
    for location, names in glossary_tags().items():
        if location not in locations:  # an anchor that is not a heading's (a fold's, say) has no entry: its page
            location = location.partition("#")[0]
        if location not in locations:
            raise SystemExit(f"tools/build/search.py: the glossary's first-taught page {location} is not in the English "
                             "search index; check the term's `first` in posenc/data/glossary.yaml")
        doc = locations[location]
        doc[TERMS_FIELD] = [*doc.get(TERMS_FIELD, []), *(n for n in names if n not in doc.get(TERMS_FIELD, []))]
    return data


def clean_index(path: Path) -> None:
    """Rewrite Material's search_index.json so that no title or teaser shows raw LaTeX, and no title ends in ¶;
    the English index also gets its pipeline and the glossary's tags (english_index)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    lang = "en" if data["config"].get("lang") == ["en"] else "zh"
    for doc in data["docs"]:
        for key in ("title", "text"):
            if key in doc:
                doc[key] = plain_text(doc[key], lang)
        if "title" in doc:
            doc["title"] = _ANCHOR_MARK.sub("", doc["title"])
    if lang == "en":
        data = english_index(data)
    path.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=True), encoding="utf-8")
