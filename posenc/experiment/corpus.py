"""The training text: classical Chinese from Debian's ``fortunes-zh`` (GPL-3.0+).

Why this corpus: it is real Chinese text, redistributable (GPL-3.0+, notice in
``data/COPYING``), installable offline with ``apt-get install fortunes-zh``, and
small enough (≈270k characters) for a 400-step model on two CPU cores.

The package's big ``chinese`` file is not all classical text: more than half of
its bytes are terminal colour escapes and chapters of the Debian reference
manual, and it mixes in modern, still-copyrighted quotations (钱钟书, 赫拉利 …)
and the Debian Code of Conduct. The rules below keep Tang and Song poetry,
论语, 道德经, 菜根谭, 增广贤文 and proverbs:

1. strip ANSI escapes;
2. drop a record whose *author line* names a modern or foreign source. The rule
   looks at the author line only, never the poem: 王昌龄's "一片冰心在玉壶" must
   survive the rule against the modern writer 冰心;
3. keep a record only when its text is mostly Chinese characters and punctuation
   (this drops the manual chapters, tables and code).

``data/corpus.txt`` is the committed result. ``rebuild()`` recreates it from the
installed package and checks it against ``CORPUS_SHA256``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "fortunes-zh"
PACKAGE_VERSION = "2.98"
FORTUNE_DIR = Path("/usr/share/games/fortunes")
# Order in the corpus. tang300 and song100 are 唐诗三百首 and 宋诗一百首 excerpts;
# "chinese" holds everything else.
SOURCE_FILES = ("tang300", "song100", "chinese")

DATA_DIR = Path(__file__).parent / "data"
CORPUS_FILE = DATA_DIR / "corpus.txt"
# sha256 of data/corpus.txt. Recomputed by `python -m posenc.experiment corpus --rebuild`;
# a change here changes every trained number, so results record it too.
CORPUS_SHA256 = "1a1b2ca6bb3b2f828d0e4d357c70af786ff73893b1cb9e7fcd79be94c4a090eb"

RECORD_SEPARATOR = "\n\n"  # records are separated by one blank line in corpus.txt

# A record must be at least this share Chinese characters + CJK punctuation
# (whitespace not counted). Classical records are ~100%; manual chapters with
# commands and tables are far below; 0.9 leaves room for a stray "·".
MIN_CHINESE_FRACTION = 0.9
MIN_RECORD_CHARS = 4  # shorter fragments carry no sentence to learn from

# Authors and sources judged modern (20th century onwards, still in copyright
# somewhere, or not classical text). Matched against whole names on the author
# line, never against the poem text. Built by reading the list of every author
# line that survives the other rules (≈470 names, fortunes-zh 2.98); Qing-era
# writers such as 林则徐, 秋瑾 and 王国维 stay (classical language, public domain).
MODERN_AUTHORS = frozenset(
    {
        "毛泽东", "鲁迅", "冰心", "钱钟书", "老舍", "巴金", "朱自清", "陈毅", "吴军",
        "尤瓦尔·赫拉利", "尤瓦尔赫拉利", "赫拉利", "理查德·马修·斯托曼", "余光中", "李彦宏", "胡志明",
        "王健林", "显卡吧", "某网吧对联",
    }
)
# An anime; the Debian Code of Conduct; the FSF's four freedoms; 2010s internet slang.
MODERN_WORKS = frozenset({"钢之炼金术师", "行为准则", "自由软件的四项自由原则", "喜大普奔"})
MODERN_DYNASTY_LABELS = frozenset({"现代", "近代", "当代"})

_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_LATIN = re.compile(r"[A-Za-z]")
# A 20th/21st-century date written either way: 一九二五年, 1987
_MODERN_YEAR = re.compile(r"[一二][九〇零][〇零一二三四五六七八九]{2}年|(?<!\d)(19|20)\d\d(?!\d)")
_NAME_SPLIT = re.compile(r"[\s,，、。()（）《》〔〕\[\]:：]+")

# Header lines: the attribution "-- 李白《…》", "作者：杜甫", "[唐] 柳宗元",
# "毛泽东 一九六一年二月", and a title "《…》" / "题目:《…》" at the top.
_ATTRIBUTION = re.compile(r"^--\s*(?P<author>.*)$")
_INLINE_ATTRIBUTION = re.compile(r"^(?P<text>.*\S)\s+--\s*(?P<author>\S.*)$")  # "喜闻乐见 … -- 喜大普奔。"
_AUTHOR_FIELD = re.compile(r"^作者\s*[:：]\s*(?P<author>.*)$")
_DYNASTY_AUTHOR = re.compile(r"^\[(?P<dynasty>[^\]]{1,4})\]\s*(?P<author>\S+)$")
_AUTHOR_DATE = re.compile(r"^(?P<author>\S{2,5})\s+(?P<date>[一二三四五六七八九〇零十]+年.*)$")
_TITLE = re.compile(r"^(题目\s*[:：]\s*)?\S{0,4}《[^》]*》.{0,12}$")
HEADER_LINES = 3  # titles and author lines sit within a record's first three lines


@dataclass(frozen=True)
class Record:
    """One fortune: its text lines and the author line(s) found in its header."""

    lines: tuple[str, ...]
    authors: tuple[str, ...]  # raw author-line texts, e.g. "罗隐《西施》", "柳开（９４６－９９９）"
    dynasty: str = ""

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def strip_escapes(text: str) -> str:
    """Remove ANSI colour escapes such as ESC[32m … ESC[m."""
    return _ESCAPE.sub("", text)


def split_records(text: str) -> list[str]:
    """fortune(6) files separate records with a line holding a single "%"."""
    records, current = [], []
    for line in text.split("\n"):
        if line.strip() == "%":
            records.append("\n".join(current))
            current = []
        else:
            current.append(line)
    records.append("\n".join(current))
    return [r for r in records if r.strip()]


def _clean_line(line: str) -> str:
    # NBSP and the ideographic space indent many poems; they carry no text.
    return line.replace("\xa0", " ").replace("\u3000", " ").strip()


def parse_record(raw: str) -> Record:
    """Separate a record's header (title, author, attribution) from its text."""
    lines = [_clean_line(ln) for ln in strip_escapes(raw).split("\n")]
    lines = [ln for ln in lines if ln]
    authors: list[str] = []
    dynasty = ""
    body: list[str] = []
    for i, line in enumerate(lines):
        m = _ATTRIBUTION.match(line)
        if m:  # "-- author《title》" can sit anywhere (normally last)
            authors.append(m["author"])
            continue
        m = _INLINE_ATTRIBUTION.match(line)
        if m:
            authors.append(m["author"])
            line = m["text"]
        if i < HEADER_LINES:
            m = _AUTHOR_FIELD.match(line) or _DYNASTY_AUTHOR.match(line) or _AUTHOR_DATE.match(line)
            if m:
                authors.append(m["author"] + (" " + m["date"] if "date" in m.groupdict() else ""))
                dynasty = m.groupdict().get("dynasty") or dynasty
                continue
            if _TITLE.match(line) and not body:
                continue
        body.append(line)
    return Record(tuple(body), tuple(authors), dynasty)


def author_names(author_line: str) -> set[str]:
    """Whole names and work titles on an author line: "一九二五年，鲁迅" → {"一九二五年", "鲁迅"}."""
    return {part for part in _NAME_SPLIT.split(author_line) if part}


def modern_reason(record: Record) -> str | None:
    """Why the record's author line marks it as a modern or foreign source, or None."""
    if record.dynasty in MODERN_DYNASTY_LABELS:
        return f"dynasty label [{record.dynasty}]"
    for line in record.authors:
        if _LATIN.search(line):
            return f"Latin letters in author line {line!r} (Debian manual, foreign quotation)"
        if _MODERN_YEAR.search(line):
            return f"20th/21st-century date in author line {line!r}"
        names = author_names(line)
        if names & MODERN_AUTHORS:
            return f"modern author {sorted(names & MODERN_AUTHORS)[0]} in {line!r}"
        if names & MODERN_WORKS:
            return f"modern work {sorted(names & MODERN_WORKS)[0]} in {line!r}"
    return None


def is_chinese(ch: str) -> bool:
    """CJK ideographs (incl. extension A and compatibility), CJK and full-width punctuation."""
    o = ord(ch)
    return (
        0x4E00 <= o <= 0x9FFF  # CJK unified ideographs
        or 0x3400 <= o <= 0x4DBF  # extension A
        or 0xF900 <= o <= 0xFAFF  # compatibility ideographs
        or 0x3000 <= o <= 0x303F  # CJK punctuation: 。、《》「」
        or 0xFF00 <= o <= 0xFFEF  # full-width forms: ，！？：；（）
        or ch in "“”‘’…—·‧・"
    )


def chinese_fraction(text: str) -> float:
    """Share of non-whitespace characters that are Chinese characters or punctuation."""
    chars = [ch for ch in text if not ch.isspace()]
    return sum(map(is_chinese, chars)) / len(chars) if chars else 0.0


def keep(record: Record) -> bool:
    text = record.text
    return (
        modern_reason(record) is None
        and len(text) >= MIN_RECORD_CHARS
        and chinese_fraction(text) >= MIN_CHINESE_FRACTION
    )


def clean(raw_text: str) -> list[str]:
    """The kept records of one fortune file, each as its text lines joined by newlines."""
    return [r.text for r in map(parse_record, split_records(raw_text)) if keep(r)]


def build(fortune_dir: Path = FORTUNE_DIR) -> str:
    """The corpus text from an installed fortunes-zh: kept records, blank-line separated."""
    records: list[str] = []
    for name in SOURCE_FILES:
        path = Path(fortune_dir) / name
        if not path.is_file():
            raise FileNotFoundError(
                f"{path} not found; the corpus is rebuilt from Debian's {PACKAGE} "
                f"{PACKAGE_VERSION}: run `apt-get install {PACKAGE}`"
            )
        records.extend(clean(path.read_text(encoding="utf-8")))
    return RECORD_SEPARATOR.join(records) + "\n"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def installed() -> bool:
    """Whether fortunes-zh's files are where `build()` reads them."""
    return all((FORTUNE_DIR / name).is_file() for name in SOURCE_FILES)


class CorpusMismatch(Exception):
    pass


def rebuild(write: bool = False, fortune_dir: Path = FORTUNE_DIR) -> str:
    """Rebuild the corpus from the installed package and check it against CORPUS_SHA256.

    Returns the checksum. With ``write=True`` the committed file is replaced
    (then update CORPUS_SHA256 if the cleaning rules changed on purpose).
    """
    text = build(fortune_dir)
    digest = sha256(text)
    if write:
        CORPUS_FILE.parent.mkdir(parents=True, exist_ok=True)
        CORPUS_FILE.write_text(text, encoding="utf-8")
    elif digest != CORPUS_SHA256:
        raise CorpusMismatch(
            f"corpus rebuilt from {PACKAGE} has sha256 {digest}, but corpus.py records {CORPUS_SHA256}. "
            f"Either the installed package is not {PACKAGE} {PACKAGE_VERSION} "
            f"(check `dpkg -s {PACKAGE}`) or the cleaning rules changed; if on purpose, run "
            f"`python -m posenc.experiment corpus --rebuild` and update CORPUS_SHA256"
        )
    return digest


def load() -> str:
    """The committed corpus text, checked against CORPUS_SHA256."""
    if not CORPUS_FILE.is_file():
        raise FileNotFoundError(f"{CORPUS_FILE} is missing; run `python -m posenc.experiment corpus --rebuild`")
    text = CORPUS_FILE.read_text(encoding="utf-8")
    digest = sha256(text)
    if digest != CORPUS_SHA256:
        raise CorpusMismatch(
            f"{CORPUS_FILE} has sha256 {digest}, expected {CORPUS_SHA256}; restore it from git or "
            f"rebuild it with `python -m posenc.experiment corpus --rebuild`"
        )
    return text


def records(text: str) -> list[str]:
    return [r for r in text.strip("\n").split(RECORD_SEPARATOR) if r]
