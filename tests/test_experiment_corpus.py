"""posenc/experiment/corpus.py: reading fortune files, rebuilding and loading the corpus, and their refusals.

The cleaning rules on real records are tested in tests/test_experiment.py (and, where fortunes-zh is
installed, by rebuilding the committed corpus byte for byte); here a small fortune directory written
by the test stands in for the package.
"""

from __future__ import annotations

import locale
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


@pytest.fixture
def ascii_locale():
    """The C locale, whose preferred encoding is ASCII: a file opened without an encoding cannot hold Chinese."""
    saved = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        yield
    finally:
        locale.setlocale(locale.LC_CTYPE, saved)


def test_build_rebuild_and_load_read_and_write_utf8_whatever_the_locale(tmp_path, monkeypatch, ascii_locale):
    target = tmp_path / "corpus.txt"
    monkeypatch.setattr(corpus, "CORPUS_FILE", target)
    (tmp_path / "fortunes").mkdir()
    source = fortune_dir(tmp_path / "fortunes")
    want = f"{POEM}\n\n{ESSAY}\n\n上善若水。\n"
    assert corpus.build(source) == want
    corpus.rebuild(write=True, fortune_dir=source)
    assert target.read_bytes() == want.encode("utf-8")
    monkeypatch.setattr(corpus, "CORPUS_SHA256", corpus.sha256(want))
    assert corpus.load() == want


def test_rebuild_writes_into_missing_and_existing_folders(tmp_path, monkeypatch):
    target = tmp_path / "a" / "b" / "corpus.txt"  # two folders to create
    monkeypatch.setattr(corpus, "CORPUS_FILE", target)
    source = fortune_dir(tmp_path)
    corpus.rebuild(write=True, fortune_dir=source)
    corpus.rebuild(write=True, fortune_dir=source)  # the folder exists now
    assert target.read_text(encoding="utf-8") == f"{POEM}\n\n{ESSAY}\n\n上善若水。\n"


def test_clean_line_turns_nbsp_and_ideographic_spaces_into_plain_ones():
    raw = "\xa0\xa0床前\xa0明月光，\u3000疑是地上霜。\u3000"
    assert corpus.parse_record(raw).lines == ("床前 明月光， 疑是地上霜。",)


# Each range of is_chinese: its first and last code point, and the ones just outside (in no other range).
CHINESE_RANGES = [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0xF900, 0xFAFF), (0x3000, 0x303F), (0xFF00, 0xFFEF)]


@pytest.mark.parametrize("first, last", CHINESE_RANGES)
def test_is_chinese_takes_each_range_to_its_exact_ends(first, last):
    assert corpus.is_chinese(chr(first)) and corpus.is_chinese(chr(last))
    assert not corpus.is_chinese(chr(first - 1)) and not corpus.is_chinese(chr(last + 1))


def test_is_chinese_takes_the_listed_punctuation_and_no_latin():
    assert all(corpus.is_chinese(ch) for ch in "“”‘’…—·‧・")
    assert not any(corpus.is_chinese(ch) for ch in "XAa1.,- ")


def test_chinese_fraction_counts_non_whitespace_and_is_zero_for_none():
    assert corpus.chinese_fraction("明月 X\n光。") == 0.8  # 4 of 5 non-space characters
    assert corpus.chinese_fraction("") == 0.0
    assert corpus.chinese_fraction(" \n\t") == 0.0


def test_a_record_of_exactly_four_characters_is_kept_and_three_are_not():
    assert corpus.clean("上善若水\n%\n上善若\n") == ["上善若水"]


def test_parse_record_reads_the_dynasty_and_the_date_of_an_author_line():
    assert corpus.parse_record(f"[唐] 柳宗元\n{POEM}") == corpus.Record((POEM,), ("柳宗元",), "唐")
    assert corpus.parse_record(f"作者：杜甫\n{POEM}") == corpus.Record((POEM,), ("杜甫",), "")
    assert corpus.parse_record(f"某人 一九六一年二月\n{POEM}") == corpus.Record((POEM,), ("某人 一九六一年二月",), "")
    assert corpus.parse_record(POEM) == corpus.Record((POEM,), (), "")


def test_modern_reason_names_the_modern_author_or_work_it_found():
    assert corpus.modern_reason(corpus.Record((POEM,), ("鲁迅《故乡》",))) == "modern author 鲁迅 in '鲁迅《故乡》'"
    assert corpus.modern_reason(corpus.Record((POEM,), ("行为准则",))) == "modern work 行为准则 in '行为准则'"
    assert corpus.modern_reason(corpus.Record((POEM,), ("某人",), "现代")) == "dynasty label [现代]"


def test_records_strips_only_the_newlines_around_the_text():
    assert corpus.records(" 甲\n\n乙 \n") == [" 甲", "乙 "]
    assert corpus.records("X甲\n\n乙X\n") == ["X甲", "乙X"]
    assert corpus.records("\n\n甲\n\n\n\n乙\n\n") == ["甲", "乙"]
