"""posenc/experiment/corpus.py: reading fortune files, rebuilding and loading the corpus, and their refusals.

The cleaning rules on real records are tested in tests/test_experiment.py (and, where fortunes-zh is
installed, by rebuilding the committed corpus byte for byte); here a small fortune directory written
by the test stands in for the package.
"""

from __future__ import annotations

import re

import pytest

from posenc.experiment import corpus

POEM = "床前明月光，疑是地上霜。"
MODERN = "春风又绿江南岸，明月何时照我还。\n-- 鲁迅"
ESSAY = "学而时习之，不亦说乎。"


def fortune_dir(tmp_path, texts=None):
    texts = texts or {"tang300": f"{POEM}\n%\n{MODERN}\n%\n", "song100": f"%\n{ESSAY}\n", "chinese": "上善若水。\n%\n  \n%\n"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_split_records_on_percent_lines_and_drops_empty_ones():
    assert corpus.split_records("a\nb\n%\nc\n %\t\n\n%\n%\nd\n\ne") == ["a\nb", "c", "d\n\ne"]  # " %" counts, blank records go
    assert corpus.split_records("") == []


def test_build_keeps_the_clean_records_of_the_three_files_in_order(tmp_path):
    text = corpus.build(fortune_dir(tmp_path))
    assert text == f"{POEM}\n\n{ESSAY}\n\n上善若水。\n"
    assert corpus.records(text) == [POEM, ESSAY, "上善若水。"]


def test_build_names_a_missing_file_and_the_package(tmp_path):
    (tmp_path / "tang300").write_text(POEM, encoding="utf-8")
    want = f"{tmp_path / 'song100'} not found; the corpus is rebuilt from Debian's fortunes-zh 2.98: run `apt-get install fortunes-zh`"
    with pytest.raises(FileNotFoundError, match=re.escape(want)):
        corpus.build(tmp_path)


def test_installed_looks_for_every_source_file(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus, "FORTUNE_DIR", fortune_dir(tmp_path))
    assert corpus.installed()
    (tmp_path / "chinese").unlink()
    assert not corpus.installed()


def test_rebuild_refuses_other_text_and_writes_only_when_asked(tmp_path, monkeypatch):
    target = tmp_path / "out" / "corpus.txt"
    monkeypatch.setattr(corpus, "CORPUS_FILE", target)
    source = fortune_dir(tmp_path)
    digest = corpus.sha256(corpus.build(source))
    with pytest.raises(corpus.CorpusMismatch, match=re.escape(
            f"corpus rebuilt from fortunes-zh has sha256 {digest}, but corpus.py records {corpus.CORPUS_SHA256}. "
            f"Either the installed package is not fortunes-zh 2.98 (check `dpkg -s fortunes-zh`) or the cleaning rules "
            f"changed; if on purpose, run `python -m posenc.experiment corpus --rebuild` and update CORPUS_SHA256")):
        corpus.rebuild(fortune_dir=source)
    assert not target.exists()
    assert corpus.rebuild(write=True, fortune_dir=source) == digest
    assert target.read_text(encoding="utf-8") == corpus.build(source)


def test_load_refuses_a_missing_or_changed_file(tmp_path, monkeypatch):
    path = tmp_path / "corpus.txt"
    monkeypatch.setattr(corpus, "CORPUS_FILE", path)
    with pytest.raises(FileNotFoundError, match=re.escape(f"{path} is missing; run `python -m posenc.experiment corpus --rebuild`")):
        corpus.load()
    path.write_text(POEM + "\n", encoding="utf-8")
    with pytest.raises(corpus.CorpusMismatch, match=re.escape(
            f"{path} has sha256 {corpus.sha256(POEM + chr(10))}, expected {corpus.CORPUS_SHA256}; restore it from git or "
            f"rebuild it with `python -m posenc.experiment corpus --rebuild`")):
        corpus.load()


def test_sha256_is_the_hex_digest_of_the_text():
    # FIPS 180-2's test vector for "abc"
    assert corpus.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
