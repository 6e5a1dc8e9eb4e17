"""`make serve` builds an edited page alone (tools/build/serve_pages.py): which changes take that path, and which
need the whole site. The path itself runs under `properdocs serve` in tests/test_serve.py (a typed number
in an edited lesson is an error with file and line; the fix shows) and in `make bench` (its time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.build import serve_pages as sp


class FakeFiles:
    def __init__(self, *src_uris):
        self.src_uris = set(src_uris)

    def get_file_from_path(self, src_uri):
        return object() if src_uri in self.src_uris else None


@pytest.fixture
def docs(tmp_path):
    docs = tmp_path / "docs"
    for name in ("lessons/03-sinusoidal.md", "lessons/03-sinusoidal.en.md", "lessons/04-rope.md", "index.md",
                 "snippets/lesson3_probe.md", "notebooks/lesson3.py"):
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text("text\n", encoding="utf-8")
    return docs


@pytest.fixture
def built():
    pages = ("lessons/03-sinusoidal.md", "lessons/04-rope.md", "index.md")
    return {"zh": sp.Built(FakeFiles(*pages), nav="nav", env="env"),
            "en": sp.Built(FakeFiles(*pages, "lessons/03-sinusoidal.en.md"), nav="nav", env="env")}


def test_an_edited_page_is_built_again_in_its_own_language(docs, built):
    assert sp.pages_to_rebuild({docs / "lessons/03-sinusoidal.md"}, docs, built) == [("zh", "lessons/03-sinusoidal.md")]
    assert sp.pages_to_rebuild({docs / "lessons/03-sinusoidal.en.md"}, docs, built) == [("en", "lessons/03-sinusoidal.en.md")]


def test_a_chinese_page_not_translated_yet_is_built_again_in_the_english_site_too(docs, built):
    assert sp.pages_to_rebuild({docs / "lessons/04-rope.md"}, docs, built) == [("zh", "lessons/04-rope.md"),
                                                                                ("en", "lessons/04-rope.md")]


def test_several_pages_zh_first(docs, built):
    plan = sp.pages_to_rebuild({docs / "lessons/03-sinusoidal.en.md", docs / "index.md"}, docs, built)
    assert plan == [("zh", "index.md"), ("en", "index.md"), ("en", "lessons/03-sinusoidal.en.md")]


def test_an_editors_temporary_file_that_is_gone_again_is_ignored(docs, built):
    changed = {docs / "lessons/.03-sinusoidal.md.swx", docs / "lessons/03-sinusoidal.md"}
    assert sp.pages_to_rebuild(changed, docs, built) == [("zh", "lessons/03-sinusoidal.md")]


@pytest.mark.parametrize("changed", [
    "posenc/rope.py",  # code: numbers and figures may change on every page
    "figures_src/lesson3.py",
    "mkdocs.yml",
    "docs/snippets/lesson3_probe.md",  # inlined into other pages
    "docs/notebooks/lesson3.py",  # not a Markdown page
    "docs/lessons/07-new.md",  # a new page: the navigation changes
])
def test_any_other_change_is_a_full_build(docs, built, changed):
    path = docs.parent / changed
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x\n", encoding="utf-8")
    assert sp.pages_to_rebuild({path, docs / "lessons/03-sinusoidal.md"}, docs, built) is None


def test_a_removed_page_is_a_full_build(docs, built):
    (docs / "lessons/04-rope.md").unlink()
    assert sp.pages_to_rebuild({docs / "lessons/04-rope.md"}, docs, built) is None


def test_no_full_build_yet_or_a_language_it_did_not_write_is_a_full_build(docs, built):
    page = {docs / "lessons/03-sinusoidal.md"}
    assert sp.pages_to_rebuild(page, docs, {}) is None
    assert sp.pages_to_rebuild({docs / "lessons/03-sinusoidal.en.md"}, docs, {"zh": built["zh"]}) is None
    assert sp.pages_to_rebuild(set(), docs, built) is None


@pytest.fixture
def figures_dir(tmp_path):
    figures = tmp_path / "figures_src"
    for name in ("lesson3.py", "build.py", "_style.py", "labels/en.yaml"):
        (figures / name).parent.mkdir(parents=True, exist_ok=True)
        (figures / name).write_text("x\n", encoding="utf-8")
    return figures


def test_figure_code_and_label_tables_are_a_figure_redraw(figures_dir):
    assert sp.figure_change({figures_dir / "lesson3.py"}, figures_dir)
    assert sp.figure_change({figures_dir / "labels/en.yaml", figures_dir / "_style.py"}, figures_dir)
    assert sp.figure_change({figures_dir / "lesson3.py", figures_dir / ".lesson3.py.swp"}, figures_dir)  # gone again


@pytest.mark.parametrize("changed", ["figures_src/build.py", "posenc/rope.py", "docs/lessons/03-sinusoidal.md",
                                     "figures_src/lesson9.py"])  # the last: a figure module that is gone
def test_anything_else_beside_figure_code_is_not(figures_dir, changed):
    path = figures_dir.parent / changed
    assert not sp.figure_change({figures_dir / "lesson3.py", path}, figures_dir)
    assert not sp.figure_change(set(), figures_dir)


# --- a figure-code edit: which pages are built again --------------------------------------------------------------


class Spec:
    def __init__(self, alt, caption=""):
        self.alt, self.caption = alt, caption

    def alt_text(self, lang):
        if isinstance(self.alt, Exception):
            raise self.alt
        return f"{lang}:{self.alt}"

    def caption_text(self, lang):
        return f"{lang}:{self.caption}"


def test_a_figures_texts_are_its_alt_text_and_caption_or_the_error_in_their_place():
    texts = sp.figure_texts({"a": Spec("A", "cap"), "b": Spec(KeyError("no label"))}, ["zh", "en"])
    assert texts[("en", "a")] == ("en:A", "en:cap")
    assert texts[("zh", "b")] == ("raised", "KeyError", "'no label'")


class Page:
    def __init__(self, site, src_uri, html):
        self.src_uri, self.page = src_uri, object()
        self.abs_dest_path = str(site / src_uri.replace(".md", ".html"))
        Path(self.abs_dest_path).parent.mkdir(parents=True, exist_ok=True)
        Path(self.abs_dest_path).write_text(html, encoding="utf-8")


class PageFiles:
    def __init__(self, pages):
        self.pages = pages

    def documentation_pages(self):
        return self.pages


class DoneWorkers:
    def __init__(self, reports):
        self._reports = reports

    def reports(self):
        return self._reports


@pytest.fixture
def redraw(tmp_path, monkeypatch):
    """A served site (Chinese only) with lesson 3 showing figures a and b, lesson 4 showing c; the worker drew a
    new a and b. Returns run(served texts, registry now) → the plan, and the served site's folder."""
    from figures_src import build

    site, cache = tmp_path / "site", tmp_path / "cache"
    cache.mkdir()
    paths = {}
    for name in "abc":
        paths[name] = {}
        for theme in ("light", "dark"):
            (site / "figures").mkdir(parents=True, exist_ok=True)
            (site / "figures" / f"{name}.{theme}.svg").write_text("old", encoding="utf-8")
            paths[name][theme] = cache / f"{name}.{theme}.key.svg"
            paths[name][theme].write_text("new" if name in "ab" else "old", encoding="utf-8")
    report = build.RenderReport(paths=paths, drawn=["a.light", "a.dark", "b.light", "b.dark"], cached=["c.light", "c.dark"])
    pages = [Page(site, "lessons/03.md", '<img src="../figures/a.light.svg"><img src="../figures/b.dark.svg">'),
             Page(site, "lessons/04.md", '<img src="../figures/c.light.svg">')]
    monkeypatch.setattr(sp, "BUILT", {"zh": sp.Built(PageFiles(pages), nav=None, env=None)})

    class Config:
        site_dir = str(site)

    def run(served, registry):
        monkeypatch.setattr(build, "load_all", lambda: registry)
        return sp.redraw_figures(Config, DoneWorkers({"zh": report}), served)

    return run, site


def test_a_redrawn_figure_is_copied_into_the_site_and_its_pages_kept_when_its_texts_did_not_change(redraw):
    run, site = redraw
    registry = {"a": Spec("A"), "b": Spec("B"), "c": Spec("C")}
    assert run(sp.figure_texts(registry, ["zh"]), registry) == []
    assert (site / "figures" / "a.dark.svg").read_text() == "new" and (site / "figures" / "c.dark.svg").read_text() == "old"


def test_the_pages_showing_a_figure_whose_alt_text_or_caption_changed_are_built_again(redraw):
    run, _ = redraw
    before = {"a": Spec("A"), "b": Spec("B"), "c": Spec("C")}
    assert run(sp.figure_texts(before, ["zh"]), {**before, "b": Spec("B, edited")}) == [("zh", "lessons/03.md")]
    assert run(sp.figure_texts(before, ["zh"]), {**before, "c": Spec("C", "new caption")}) == [("zh", "lessons/04.md")]
    assert run(sp.figure_texts(before, ["zh"]), {**before, "a": Spec(ValueError("a typo"))}) == [("zh", "lessons/03.md")]


def test_without_the_served_texts_every_page_showing_a_redrawn_figure_is_built_again(redraw):
    run, _ = redraw
    assert run(None, {"a": Spec("A"), "b": Spec("B"), "c": Spec("C")}) == [("zh", "lessons/03.md")]


def test_a_figure_new_or_gone_is_a_full_build(redraw):
    run, _ = redraw
    before = {"a": Spec("A"), "b": Spec("B"), "c": Spec("C")}
    assert run(sp.figure_texts(before, ["zh"]), {**before, "d": Spec("D")}) is None
    assert run(sp.figure_texts(before, ["zh"]), {"a": Spec("A"), "b": Spec("B")}) is None


# --- the warm figure worker's requests and answers ----------------------------------------------------------------


def test_a_figure_worker_answers_every_request_a_line_a_failed_drawing_too(monkeypatch, tmp_path):
    import io
    import json

    from figures_src import build
    from tools.build import figure_workers, freshness

    calls = []

    def render_all(cache, lang):
        calls.append((cache, lang))
        if len(calls) == 3:
            raise build.SourcesChanged("figures_src/ changed while figures were drawn")
        return build.RenderReport(drawn=[f"fig{len(calls)}.light"])

    monkeypatch.setattr(build, "render_all", render_all)
    monkeypatch.setattr(freshness, "forget_changed_code", lambda: [])
    replies = io.StringIO()
    figure_workers.serve("en", tmp_path, io.StringIO("draw\ndraw\ndraw\n"), replies)
    answers = [json.loads(line) for line in replies.getvalue().splitlines()]
    assert calls == [(tmp_path, "en")] * 4  # the warm-up, then one per request
    assert build.RenderReport.from_json(answers[0]["report"]).drawn == ["fig2.light"]
    assert "SourcesChanged: figures_src/ changed" in answers[1]["error"]
    assert build.RenderReport.from_json(answers[2]["report"]).drawn == ["fig4.light"]


# --- what an edit makes `make serve` import again (tools/build/freshness.py) ---------------------------------------------


def test_an_edit_drops_the_modules_of_its_folder_and_of_the_folders_after_it(tmp_path, monkeypatch):
    import importlib
    import sys

    from tools.build import freshness

    for folder in ("lower", "upper"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"fake_{folder}_mod.py").write_text("VALUE = 1\n", encoding="utf-8")
        monkeypatch.syspath_prepend(str(tmp_path / folder))
    monkeypatch.setattr(freshness, "ROOT", tmp_path)
    monkeypatch.setattr(freshness, "FOLDERS", ("lower", "upper"))
    monkeypatch.setattr(freshness, "_snapshot", None)
    try:
        for name in ("fake_lower_mod", "fake_upper_mod"):
            importlib.import_module(name)
        freshness.forget_changed_code()
        (tmp_path / "upper" / "fake_upper_mod.py").write_text("VALUE = 2\n", encoding="utf-8")
        assert freshness.forget_changed_code() == [tmp_path / "upper" / "fake_upper_mod.py"]
        assert "fake_lower_mod" in sys.modules and "fake_upper_mod" not in sys.modules
        importlib.import_module("fake_upper_mod")
        (tmp_path / "lower" / "fake_lower_mod.py").write_text("VALUE = 3\n", encoding="utf-8")
        freshness.forget_changed_code()
        assert "fake_lower_mod" not in sys.modules and "fake_upper_mod" not in sys.modules
    finally:
        sys.modules.pop("fake_lower_mod", None)
        sys.modules.pop("fake_upper_mod", None)


def test_figure_workers_read_every_answer_and_draw_in_a_fresh_process_for_a_worker_that_is_gone(monkeypatch, tmp_path):
    from figures_src import build
    from tools.build import figure_workers

    answers = {"zh": [], "en": []}  # what each worker answers next: a report, an error, or gone
    started = []

    class FakeWorker:
        def __init__(self, lang, cache):
            self.lang, self.sent = lang, 0
            started.append(lang)

        def draw(self):
            if answers[self.lang] and answers[self.lang][0] == "gone":
                raise figure_workers.WorkerGone(self.lang)
            self.sent += 1

        def report(self):
            answer = answers[self.lang].pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer

        def stop(self):
            pass

    fresh = []
    monkeypatch.setattr(figure_workers, "Worker", FakeWorker)
    monkeypatch.setattr(build, "render_all", lambda cache, fresh_process, lang: fresh.append(lang) or f"fresh {lang}")
    workers = figure_workers.Workers(["zh", "en"], cache=tmp_path)

    answers.update(zh=["zh 1"], en=["en 1"])
    workers.start()
    assert workers.reports() == {"zh": "zh 1", "en": "en 1"} and fresh == []

    answers.update(zh=[RuntimeError("drawing failed")], en=["en 2"])
    workers.start()
    with pytest.raises(RuntimeError, match="drawing failed"):
        workers.reports()
    assert answers["en"] == []  # the other language's answer was read too, not left for the next request

    answers.update(zh=["zh 3"], en=["en 3"])
    workers.start()
    answers["zh"].append("zh 4")  # the redraw failed before it collected: the next start reads those answers first
    answers["en"].append("en 4")
    workers.start()
    assert workers.reports() == {"zh": "zh 4", "en": "en 4"}

    answers.update(zh=["gone"], en=[figure_workers.WorkerGone("en")])
    workers.start()
    assert workers.reports() == {"zh": "fresh zh", "en": "fresh en"} and fresh == ["zh", "en"]
    assert started == ["zh", "en", "zh", "en"]  # both started again
