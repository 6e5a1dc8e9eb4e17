"""Search in Chinese finds the lesson that teaches a term (tools/build/search.py).

The query table runs through the built site's own search: Material's search worker, loaded in
Node by tests/material_search.cjs with the built search_index.json, answers each query as the
search box would (tests/browser/test_search_ui.py checks that the box shows the same first
result). Each query must list the page that teaches the term first.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from site_support import ROOT

# query → the page that teaches it (site path). A reader types the glossary's term.
QUERY_TABLE = {
    "因果掩码": "lessons/01-order-blind/",
    "排列等变": "lessons/01-order-blind/",
    "可学习位置表": "lessons/02-learned-table/",
    "正弦位置编码": "lessons/03-sinusoidal/",
    "相对位置偏置": "lessons/03b-relative-bias/",
    "ALiBi": "lessons/03b-relative-bias/",
    "T5": "lessons/03b-relative-bias/",
    "旋转位置编码": "lessons/04-rope/",
    "位置插值": "lessons/05-long-context/",
    "外推": "lessons/05-long-context/",
    "YaRN": "lessons/05-long-context/",
    "注意力系数": "lessons/05-long-context/",
    "NoPE": "lessons/06-partial-nope/",
    "部分 RoPE": "lessons/06-partial-nope/",
}


def material_search(site_dir, queries: list[str], index: str = "search/search_index.json") -> dict[str, list[dict]]:
    """query → the pages the site's search lists, in order (page, best section, score, title, text), searching
    ``index`` (the Chinese pages' by default; en/search/search_index.json: the English pages')."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node not found: run `make setup` (it links the lock's Node into .venv/bin) and put .venv/bin first on PATH")
    proc = subprocess.run([node, str(ROOT / "tests" / "material_search.cjs"), str(site_dir), index],
                          input=json.dumps(queries), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _index(site_dir) -> dict:
    return json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))


@pytest.mark.build
def test_each_query_finds_the_lesson_that_teaches_it(site_dir):
    results = material_search(site_dir, list(QUERY_TABLE))
    rows, wrong = [], []
    for query, want in QUERY_TABLE.items():
        pages = [r["page"] or "(home)" for r in results[query]]
        got = pages[0] if pages else "(nothing)"
        rows.append(f"  {'ok ' if got == want else 'XX '} {query:<8} → {got:<28} (want {want}; then {', '.join(pages[1:4])})")
        if got != want:
            wrong.append(query)
    print("\nsearch table (Material's search worker on the built index):\n" + "\n".join(rows))
    assert not wrong, (f"{len(wrong)} of {len(QUERY_TABLE)} queries list another page first: {', '.join(wrong)}. "
                       "The lesson that teaches a term should name it as the glossary does, ideally in a heading:\n"
                       + "\n".join(rows))


@pytest.mark.build
def test_course_terms_are_whole_search_terms(site_dir):
    """Each term of tools/build/search_terms.txt that the site uses is indexed whole at least once (jieba read the dictionary)."""
    index = _index(site_dir)
    separator = re.compile(index["config"]["separator"])
    tokens, plain = set(), []
    for doc in index["docs"]:
        for key in ("title", "text"):
            text = re.sub(r"<[^>]+>", " ", doc.get(key, ""))
            tokens.update(t.lower() for t in separator.split(text) if t)
            plain.append(text.replace("\u200b", ""))
    plain = "\n".join(plain)
    terms = [t.strip() for t in (ROOT / "tools" / "build" / "search_terms.txt").read_text(encoding="utf-8").splitlines() if t.strip()]
    used = [t for t in terms if t in plain]
    assert len(used) >= 10, f"only {used} of the dictionary's terms occur on the site"
    split = [t for t in used if t not in tokens]
    assert not split, f"terms jieba still cuts apart in the index (is search.jieba_dict_user set in mkdocs.yml?): {split}"


@pytest.mark.build
def test_teasers_show_no_raw_latex(site_dir):
    raw = []
    for doc in _index(site_dir)["docs"]:
        for key in ("title", "text"):
            prose = re.sub(r"<(pre|code)>.*?</\1>", " ", doc.get(key, ""), flags=re.S)
            for m in re.finditer(r"\\[()\[\]]|\$\$|\\[A-Za-z]{2,}", prose):
                raw.append(f"{doc['location']} ({key}): …{prose[max(0, m.start() - 30):m.end() + 30]}…")
    assert not raw, f"{len(raw)} search teaser(s) show LaTeX source:\n  " + "\n  ".join(raw[:20])


@pytest.mark.build
def test_lessons_outrank_the_pages_that_point_at_them(site_dir):
    """The home page, glossary and references carry a lower search boost, notebooks lower still; lessons the default."""
    from tools.build.search import NOTEBOOK_BOOST, POINTER_BOOST

    assert NOTEBOOK_BOOST < POINTER_BOOST < 1
    wrong = []
    for doc in _index(site_dir)["docs"]:
        page = doc["location"].split("#")[0]
        want = None if page.startswith("lessons/") else NOTEBOOK_BOOST if page.startswith("notebooks/") else POINTER_BOOST
        if doc.get("boost") != want:
            wrong.append(f"{doc['location']}: boost {doc.get('boost')}, want {want}")
    assert not wrong, "\n".join(wrong[:20])


@pytest.mark.build
def test_verification_tags_stay_out_of_the_index(site_dir):
    """A value's tag (已核实 …) is not indexed: teasers read "4.92", not "4.92已核实"."""
    glued = [doc["location"] for doc in _index(site_dir)["docs"]
             if re.search(r"\d\u200b?(?:已\u200b?核实|副本\u200b?核实|未\u200b?核实)", doc.get("text", ""))]
    assert not glued, f"tag labels indexed after a value in: {glued[:10]}"
    page = (site_dir / "lessons" / "03-sinusoidal" / "index.html").read_text(encoding="utf-8")
    assert 'class="pe-tag' in page and "data-search-exclude" not in page, "the search plugin should strip the marker"


@pytest.mark.build
def test_the_served_search_worker_cuts_a_query_to_its_end(site_dir):
    from tools.build.search import WORKER_SEGMENT_BUG, WORKER_SEGMENT_FIX

    (worker,) = (site_dir / "assets" / "javascripts" / "workers").glob("search.*.min.js")
    text = worker.read_text(encoding="utf-8")
    assert WORKER_SEGMENT_FIX in text and WORKER_SEGMENT_BUG not in text


# ---- each language's own index (tools/build/i18n.py) ------------------------------------------------------

# English query → the English page that should come first. Until the English lessons exist the table holds
# the pages that are English now; the translators add each lesson's key terms (CONTRIBUTING.md, "How to change a lesson
# in both languages"). "intervals" and "thresholds" are not the words the page uses ("interval", "threshold"):
# the English index stems, the Chinese one does not.
ENGLISH_QUERY_TABLE = {
    "paired intervals": "en/lessons/results/",
    "thresholds": "en/lessons/results/",
    "verification tags": "en/",
    "permutation equivariance": "en/lessons/01-order-blind/",
    "left padding": "en/lessons/01-order-blind/",
    "causal mask": "en/lessons/01-order-blind/",
    "swap two tokens": "en/lessons/01-order-blind/",
    "sinusoidal positional encoding": "en/lessons/03-sinusoidal/",
    "clock analogy": "en/lessons/03-sinusoidal/",
    "learned position embeddings": "en/lessons/02-learned-table/",
    "naive design": "en/lessons/02-learned-table/",
    "M-RoPE": "en/lessons/06b-mrope/",
    "image tokens": "en/lessons/06b-mrope/",
    "transition band": "en/lessons/05-long-context/",
    "overshoot": "en/lessons/05-long-context/",
    "effective length": "en/lessons/05-long-context/",
    "partial rotary factor": "en/lessons/06-partial-nope/",
    "decoupled RoPE": "en/lessons/06-partial-nope/",
    "NoPE layers": "en/lessons/06-partial-nope/",
    "relative position bias": "en/lessons/03b-relative-bias/",
    "ALiBi slopes": "en/lessons/03b-relative-bias/",
    "T5 buckets": "en/lessons/03b-relative-bias/",
    "RoFormer": "en/lessons/04-rope/",
    "rotate_half": "en/lessons/04-rope/",
    "critical dimension": "en/lessons/04-rope/",
}


@pytest.mark.build
def test_each_language_has_its_own_index(site_dir):
    zh = _index(site_dir)
    en = json.loads((site_dir / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert zh["config"]["lang"] == ["zh"] and en["config"]["lang"] == ["en"]
    assert zh["docs"] and not [d["location"] for d in zh["docs"] if d["location"].startswith("en/")]
    assert en["docs"] and not [d["location"] for d in en["docs"] if not d["location"].startswith("en/")]


# The queries an English reader types for a course term → the lesson that teaches it, first. The glossary says
# which section first teaches each term; these are the terms the English review found misranked or asked about.
ENGLISH_TERM_QUERIES = {
    "rotary": "en/lessons/04-rope/",
    "rotary position embedding": "en/lessons/04-rope/",
    "needle in a haystack": "en/lessons/05-long-context/",  # stop words: "in*" and "a*" prefix most words
    "KV cache": "en/lessons/01-order-blind/",  # taught with padding in lesson 1; lesson 6's MLA caches less
    "ALiBi slope": "en/lessons/03b-relative-bias/",
    "YaRN": "en/lessons/05-long-context/",
    "NTK": "en/lessons/05-long-context/",
    "learned position embedding": "en/lessons/02-learned-table/",
    "NoPE": "en/lessons/06-partial-nope/",
    "M-RoPE": "en/lessons/06b-mrope/",
}


@pytest.mark.build
def test_an_english_search_puts_the_lesson_that_teaches_a_term_first(site_dir):
    results = material_search(site_dir, list(ENGLISH_TERM_QUERIES), "en/search/search_index.json")
    wrong = {q: [r["page"] for r in results[q]][:5] for q, want in ENGLISH_TERM_QUERIES.items()
             if not results[q] or results[q][0]["page"] != want}
    assert not wrong, f"English term queries that list another page first (want {ENGLISH_TERM_QUERIES}): {wrong}"


@pytest.mark.build
def test_an_english_query_ignores_its_stop_words(site_dir):
    # "in" and "a" alone are stop words: nothing to search; with them, "needle" finds what it finds alone
    results = material_search(site_dir, ["in a", "needle", "needle in a"], "en/search/search_index.json")
    assert results["in a"] == []
    assert [r["page"] for r in results["needle in a"]] == [r["page"] for r in results["needle"]]
    index = json.loads((site_dir / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["pipeline"] == ["stemmer", "stopWordFilter", "trimmer"]


@pytest.mark.build
def test_an_english_search_finds_the_english_page(site_dir):
    results = material_search(site_dir, list(ENGLISH_QUERY_TABLE), "en/search/search_index.json")
    wrong = {q: [r["page"] for r in results[q]][:3] for q, want in ENGLISH_QUERY_TABLE.items()
             if not results[q] or results[q][0]["page"] != want}
    assert not wrong, f"English queries that list another page first (want {ENGLISH_QUERY_TABLE}): {wrong}"


# ---- no site needed ----------------------------------------------------------------------------------


def test_glossary_terms_name_the_section_that_first_teaches_them():
    from tools.build.search import glossary_tags

    tags = glossary_tags()
    assert tags["en/lessons/04-rope/#pair"] == ["rotary position embedding", "RoPE"]
    assert tags["en/lessons/03b-relative-bias/#alibi"][:2] == ["Attention with Linear Biases", "ALiBi"]
    assert "needle in a haystack" in tags["en/lessons/05-long-context/#effective-length"]  # "(NIAH)" dropped
    assert tags["en/lessons/06-partial-nope/#partial"] == ["partial RoPE"]  # not the gloss "(partial rotary)"
    assert "KV cache" in tags["en/lessons/01-order-blind/#padding"]
    # a Chinese term's Latin letters count only when they are the whole term or its whole gloss
    assert tags["en/lessons/02-learned-table/#no-relation"] == ["perplexity", "PPL", "BLEU"]
    assert not any(re.search(r"[\u4e00-\u9fff]", name) for names in tags.values() for name in names)


def test_english_index_gets_the_full_pipeline_and_the_terms_field(monkeypatch):
    from tools.build import search

    monkeypatch.setattr(search, "glossary_tags", lambda: {"en/a/#s": ["rotary position embedding", "RoPE"],
                                                          "en/b/#gone": ["NoPE"]})
    data = {"config": {"lang": ["en"], "pipeline": ["stemmer"], "fields": {"title": {"boost": 1000.0}}},
            "docs": [{"location": "en/a/#s", "title": "One pair"}, {"location": "en/b/", "title": "B"}]}
    out = search.english_index(data)
    assert out["config"]["pipeline"] == ["stemmer", "stopWordFilter", "trimmer"]
    assert out["config"]["fields"]["terms"] == {"boost": 1000.0}
    assert out["docs"][0]["terms"] == ["rotary position embedding", "RoPE"]
    assert out["docs"][1]["terms"] == ["NoPE"]  # an anchor that is no section's: its page
    monkeypatch.setattr(search, "glossary_tags", lambda: {"en/c/#s": ["x"]})
    with pytest.raises(SystemExit, match="en/c/"):
        search.english_index(data)


@pytest.mark.parametrize("tex, text", [
    (r"\omega_i", "ωᵢ"),
    (r"\frac{1}{\sqrt{d}}", "1/√d"),
    (r"\theta_i = 10000^{-2i/d}", "θᵢ = 10000^(-2i/d)"),
    (r"PE(p)\cdot PE(p+k) = \sum_{i} \cos(k\,\omega_i)", "PE(p)· PE(p+k) = Σᵢ cos(k ωᵢ)"),
    (r"\mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right)", "softmax(QKᵀ/√d)"),
    (r"\begin{aligned} a &= b \\ c &= d \end{aligned}", "a = b ； c = d"),
    (r"\text{位置}\ p", "位置 p"),
    (r"[0, 1]", "[0, 1]"),
])
def test_plain_math_reads_a_formula_as_text(tex, text):
    from tools.build.search import plain_math

    assert plain_math(tex) == text


# Chinese punctuation in the English index: a full-width mark (；，：（…) in a word (a run without spaces) that
# has no Han character. The English edition shows Chinese on purpose only as Chinese words (the glossary's
# Chinese column "困惑度（PPL）", the citation's original title), whose marks sit in the same word as Han
# characters; a formula's row separator " ； " stood alone between Latin letters.
_CJK_MARK = re.compile(r"[\u3000-\u303f\uff00-\uffef]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


def _stray_chinese_marks(text: str) -> list[str]:
    return [word for word in text.replace("\u200b", "").split() if _CJK_MARK.search(word) and not _HAN.search(word)]


def test_an_aligned_formula_reads_with_the_index_languages_separator():
    from tools.build.search import plain_math, plain_text

    aligned = r"\begin{aligned} PE(p, 2i) &= \sin(p\,\omega_i), \\ PE(p, 2i+1) &= \cos(p\,\omega_i) \end{aligned}"
    assert plain_math(aligned, "en") == "PE(p, 2i) = sin(p ωᵢ); PE(p, 2i+1) = cos(p ωᵢ)"
    assert plain_math(aligned) == "PE(p, 2i) = sin(p ωᵢ), ； PE(p, 2i+1) = cos(p ωᵢ)"
    assert plain_math(r"\frac{a \\ b}{c} \\", "en") == "(a; b)/c"  # a break inside an argument too
    text = plain_text(r"the sum:</p> \[a = 1 \\ b = 2\] <p>and", "en")
    assert text == "the sum:</p> a = 1; b = 2 <p>and" and not _stray_chinese_marks(text)
    assert _stray_chinese_marks(plain_text(r"\[a \\ b\]"))  # the check finds the Chinese separator


def test_clean_index_writes_no_chinese_punctuation_into_the_english_index(tmp_path, monkeypatch):
    from tools.build import search

    monkeypatch.setattr(search, "glossary_tags", lambda: {})
    index = tmp_path / "search_index.json"
    docs = [{"location": "en/a/", "title": "A", "text": r"\[x = 1 \\ y = 2\]"},
            {"location": "en/glossary/", "title": "G", "text": "RoPE（旋转位置编码）"}]
    index.write_text(json.dumps({"config": {"lang": ["en"], "fields": {}}, "docs": docs}), encoding="utf-8")
    search.clean_index(index)
    texts = [d["text"] for d in json.loads(index.read_text(encoding="utf-8"))["docs"]]
    assert texts == ["x = 1; y = 2", "RoPE（旋转位置编码）"]
    assert [_stray_chinese_marks(t) for t in texts] == [[], []]


@pytest.mark.build
def test_the_english_index_shows_chinese_punctuation_only_in_chinese_words(site_dir):
    index = json.loads((site_dir / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    stray = {d["location"]: marks for d in index["docs"]
             if (marks := _stray_chinese_marks(d.get("title", "") + " " + d.get("text", "")))}
    assert not stray, f"Chinese punctuation outside Chinese words in the English search index: {stray}"


def test_plain_text_replaces_each_formula_and_keeps_the_prose():
    from tools.build.search import plain_text

    assert plain_text(r"归一化到 \([0, 1]\)，且 \(a &lt; b\)：\[x^2\]") == "归一化到 [0, 1]，且 a &lt; b：x²"
    assert plain_text(r"notebook: $S = QK^\top/\sqrt{d}$ and $$x_i$$") == "notebook: S = QKᵀ/√d and xᵢ"


def test_worker_patch_fails_loudly_when_the_theme_changes():
    from tools.build.search import (WORKER_SEGMENT_BUG, WORKER_SEGMENT_FIX, WORKER_WILDCARD_QUERY, WORKER_WILDCARD_STEMMED,
                              patch_worker)

    worker = f"a;{WORKER_SEGMENT_BUG};b;{WORKER_WILDCARD_QUERY}c"
    assert patch_worker(worker, "w.js") == f"a;{WORKER_SEGMENT_FIX};b;{WORKER_WILDCARD_STEMMED}c"
    with pytest.raises(SystemExit, match="query cutter"):
        patch_worker("function fe(t,e){}", "w.js")
    with pytest.raises(SystemExit, match="wildcard term"):
        patch_worker(f"a;{WORKER_SEGMENT_BUG};b", "w.js")
