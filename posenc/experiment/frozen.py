"""The pre-registered claim set: the claims, their checks and margins, frozen in a committed file before
the seeds that test them are run, and judged on those seeds claim by claim.

The 16 seeds of results/full.json were already known when the claims and their margins were
written, so they cannot test them. The replication can: the claim set is frozen in
preregistration/<date>.json (sentences, checks, margins, the constants the checks read, and a
sha256 over all of that), committed, and only then are new seeds run
(``python -m posenc.experiment run --preset full --first-seed 16 --seeds 8 --out
posenc/experiment/results/replication.json``). ``judge`` reads the frozen checks from the file, not
from claims.py, so a claim reworded after the replication is still judged as it was frozen.

Write a new freeze with ``python -c "from posenc.experiment import frozen; frozen.freeze('<date>')"``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..formatting import RANGE_WORD, check_declared
from . import amendments, claims, stats

DIRECTORY = Path(__file__).parent / "preregistration"
ROOT = Path(__file__).resolve().parents[2]  # the frozen record names its results file from the repository root
REPLICATION_FILE = claims.RESULTS_FILE.parent / "replication.json"
# The replication's finished units while it runs (its --cache): committed as they finish, so a run split over several
# sessions or machines resumes from them; replication.json is assembled from them once every unit is there.
REPLICATION_UNITS = claims.RESULTS_FILE.parent / "replication-units"


def claim_set() -> dict:
    """What is frozen: every claim's sentences and checks, the margins and words, the constants the checks read."""
    return {
        "margins": {"CLEARLY": stats.CLEARLY, "SAME": stats.SAME, "DIFFERENT": stats.DIFFERENT, "LEVEL": stats.LEVEL},
        "words": dict(stats.RULES),
        "constants": {"TRAIN_LEN": claims.TRAIN_LEN, "LATE_IN_DISTRIBUTION": list(claims.LATE_IN_DISTRIBUTION),
                      "EARLY": claims.EARLY, "STALL": claims.STALL, "RECOVERED": claims.RECOVERED,
                      "TWO_GROUPS": list(claims.TWO_GROUPS)},
        "claims": {name: c.as_dict() for name, c in claims.CLAIMS.items()},
    }


def digest(frozen_set: dict) -> str:
    """sha256 of the claim set in a canonical form (sorted keys, no spaces, UTF-8)."""
    text = json.dumps(frozen_set, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def freeze(date: str, replication: dict | None = None) -> Path:
    """Write preregistration/<date>.json from the current claims (refuses to overwrite a freeze)."""
    path = DIRECTORY / f"{date}.json"
    if path.exists():
        raise FileExistsError(f"{path} exists: a freeze is never rewritten; freeze under a new date")
    frozen_set = claim_set()
    record = {
        "date": date,
        "note": "Frozen before the replication seeds were run. The claims were written with seeds 0-15 "
                "(results/full.json, sealed as below) already known, so those seeds do not test them; the replication does.",
        "written_from": {"results": "posenc/experiment/results/full.json", "seeds": claims.seeds(),
                         "seal_sha256": claims.results()["seal_sha256"]},
        "replication": replication or {
            "preset": "full", "first_seed": 16, "seeds": 8,
            "command": "python -m posenc.experiment run --preset full --first-seed 16 --seeds 8 "
                       "--out posenc/experiment/results/replication.json",
        },
        "sha256": digest(frozen_set),
        "claim_set": frozen_set,
    }
    DIRECTORY.mkdir(exist_ok=True)
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def latest() -> Path:
    """The newest freeze (file names are ISO dates)."""
    files = sorted(DIRECTORY.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"no pre-registration in {DIRECTORY}; write one with frozen.freeze(date)")
    return files[-1]


def load(path: Path | str | None = None) -> dict:
    """The freeze, after checking that its hash matches the claim set it holds."""
    p = latest() if path is None else Path(path)
    record = json.loads(p.read_text(encoding="utf-8"))
    if digest(record["claim_set"]) != record["sha256"]:
        raise ValueError(f"{p}: the claim set does not match its sha256; a frozen file is never edited")
    return record


@dataclass(frozen=True)
class Replicated:
    name: str
    zh: str  # the frozen sentence (template)
    en: str
    verdict: str  # "holds", "FAILS" or "cannot judge"
    detail: str
    outcomes: tuple = ()  # each frozen check's claims.Outcome, in the sentence's order; none where it cannot be judged


def judge(results_path=None, frozen_path=None) -> list[Replicated]:
    """Each frozen claim judged, with its frozen checks, on ``results_path`` (default the replication file)."""
    record = load(frozen_path)
    margins = record["claim_set"]["margins"]
    current = {"CLEARLY": stats.CLEARLY, "SAME": stats.SAME, "DIFFERENT": stats.DIFFERENT, "LEVEL": stats.LEVEL}
    if margins != current:
        raise ValueError(f"the frozen margins {margins} differ from stats.py's {current}: judge with the code of the freeze")
    path = REPLICATION_FILE if results_path is None else results_path
    out = []
    for name, c in record["claim_set"]["claims"].items():
        checks = [claims.Check.from_dict(d) for d in c["checks"]]
        try:
            outcomes = tuple(claims.judge(ch, path) for ch in checks)
            verdict = "holds" if all(o.ok for o in outcomes) else "FAILS"
            detail = "; ".join(str(o) for o in outcomes)
        except stats.TooFewSeeds as err:
            outcomes, verdict, detail = (), "cannot judge", str(err).split(";")[0]
        out.append(Replicated(name, c["zh"], c["en"], verdict, detail, outcomes))
    return out


def replication_available(path=None) -> bool:
    return Path(REPLICATION_FILE if path is None else path).is_file()


# A claim that fails replication is reworded only after it failed, under a new name: {frozen name: new name}.
# The results page then shows both wordings; the test allows only failed claims here.
REWORDED: dict[str, str] = {
    "rope_a_little_below_alibi": "rope_alibi_close_in_distribution",
    "top_three_close_rope_a_little_lowest": "top_three_close_in_distribution",
}


# The record, as it happened (the results page prints it): when the results the claims were written from,
# the margins and the two-groups rule entered the repository. A test checks each against git where the
# commit is in the history.
RECORD = {
    "results": ("f5c3b3e3b7b7d96020d915a28c219eb27bc113d1", "2026-12-04 18:14 UTC"),  # results/full.json, seeds 0–15
    "margins": ("5d245be36bef11d0f9867a59bed98f9d53eff215", "2026-12-04 18:41 UTC"),  # stats.py and its margins; the halves test
    "two_groups": ("6c2412a5617719b60c396ee16a950ce0d8722fb4", "2026-12-04 22:16 UTC"),  # TWO_GROUPS, after the split was seen
}


_TEXT = {
    "zh": {
        "pending_title": "复现：还没有结果",
        "pending": "这组句子已在 {date} 冻结：`{file}`，共 {n} 句，连同它们的核对条件和门槛，冻结内容（句子、核对条件、门槛和常数，规范化的 JSON）的 sha256 `{short}…`。"
                   "复现用从没用过的种子 {seeds}、按本页开头那套设定（full 预设）在冻结之后重训。结果文件 `{results}` 提交之前，这里没有复现结论："
                   "上面的句子只有写它们时已经看过的那些种子撑着。",
        "done": "种子 {seeds} 的复现结果（句子冻结于 {date}）：{n} 句里 {held} 句照样成立，"
                "{failed} 句不成立，{open} 句无法判断。",
        "not_held_below": "没有成立的句子照冻结时的说法列在下面，句中的个数来自种子 {written_from}。括号里是复现种子上的结果，按句中比较的次序，每项先是句中那个个数在复现种子上重数的结果，再是数；没满足句中那个词的条件（各词的条件见[第 3 课](03-sinusoidal.md#words)）的一项，注明区间落在哪里、这一项不成立。改写过的句子，下一行是复现之后的新说法。\n\n"
                          "「A − B」指 A 的值减 B 的值（loss、loss 的抬升或步数，看句子说的是什么）；先后是冻结的核对条件定的，取正数就是句子说的方向（「几乎不变」「分不出高低」不看正负），可能和上文正文里的先后相反。单位是 nats（步数注明「步」）；数写成均值 ± 95% 区间的半宽，逐种子核对的写各种子里最小的值至最大的值。全部 {n} 句逐句列在后面的折叠里，不论结果如何（成立的句子按复现种子重算个数）。",
        "all_held": "全部 {n} 句逐句列在下面的折叠里，每句后面是它在复现种子上的区间。",
        "all_title": "逐句：冻结的 {n} 句在复现种子上的结果",
        "frozen_file": "冻结的文件：`{file}`，sha256 `{short}…`（句子、核对条件、门槛和常数写成规范 JSON 之后的哈希）。",
        "progress": "复现分几次跑：{total} 个训练单元（一种方法或一种延长做法在一个种子上训一次算一个）里已有 {done} 个跑完并提交（`{units}`），全部跑完后才汇总成结果文件。",
        "holds": "成立", "FAILS": "不成立", "cannot judge": "无法判断",
        "reworded": "复现之后改写为：{sentence}（句中的个数来自种子 {written_from}；这句是看过复现种子之后改写的，它在那里也成立：{spans}，但那批种子已经不能算作对它的检验）",
        "part_fails": "，这一项不成立",
        "on_replication": "复现种子上：",
        "steps": " 步",
        "per_seed": "逐种子 ",
        "where": {"above": "区间整个在零以上", "below": "区间整个在零以下", "across": "区间跨过零"},
    },
    "en": {
        "pending_title": "Replication: no results yet",
        "pending": "This set of sentences was frozen on {date}: `{file}`, {n} sentences with their checks and margins, sha256 of the frozen set (sentences, checks, margins and constants, as canonical JSON) `{short}…`. "
                   "The replication trains the unused seeds {seeds} after the freeze, with the setup at the top of this page (the full preset). Until the results file `{results}` is "
                   "committed there is no replication verdict here: the sentences above rest only on the seeds that were known when they were written.",
        "done": "Replication on seeds {seeds} (sentences frozen on {date}): of {n} sentences, {held} hold, "
                "{failed} fail and {open} cannot be judged.",
        "not_held_below": "Those that did not hold are listed below with their wording at the freeze (in English as amended for terms and idiom only; the amendments are listed after this section), the counts in each sentence from seeds {written_from}. The brackets give the result on the replication seeds, one item per comparison in the sentence's order: the sentence's count, recounted on those seeds, then the number; an item that misses the condition of its word ([lesson 3](03-sinusoidal.md#words) gives each word's condition) says where its interval lies and that this part fails. Where a sentence was reworded, its new wording follows under it.\n\n"
                          "‘A − B’ means A's value minus B's (a loss, a rise of the loss or a number of steps, as the sentence says); the order is the frozen check's, chosen so that a positive value goes the way the sentence says (for the ‘barely changing’ band and ‘cannot be told apart’ the sign says nothing), and it may be the reverse of the order in the prose above. Numbers are in nats, except the few that count steps, which say so; each is the mean ± the half-width of its 95% interval, or, for a check of every seed, the smallest to the largest per-seed value. All {n} are listed one by one in the fold after them, whatever the outcome; in those that hold, the counts are recounted on the replication seeds.",
        "all_held": "All {n} are listed one by one in the fold below, each with its interval on the replication seeds.",
        "all_title": "Sentence by sentence: the {n} frozen sentences on the replication seeds",
        "frozen_file": "The frozen file: `{file}`, sha256 `{short}…` (of the sentences, checks, margins and constants as canonical JSON).",
        "progress": "The replication runs in several sittings; finished and committed so far: {done} of its {total} training units (each one method or extension variant trained on one seed; `{units}`). The results file is assembled once all are there.",
        "holds": "holds", "FAILS": "fails", "cannot judge": "cannot be judged",
        "reworded": "Reworded after the replication as: {sentence} (the counts in the sentence are from seeds {written_from}; it was reworded after the replication seeds were seen and holds there too, {spans}, but those seeds no longer test it)",
        "part_fails": ", this part fails",
        "on_replication": "on the replication seeds: ",
        "steps": " steps",
        "per_seed": "per seed ",
        "where": {"above": "the interval lies above zero", "below": "the interval lies below zero", "across": "the interval contains zero"},
    },
}
check_declared("posenc/experiment/frozen.py _TEXT", _TEXT, same_keys=True)  # the replication section's words


def seed_span(seed_list) -> str:
    """Seeds as the pages name them: "16–23" for a run of consecutive seeds, else the list."""
    s = sorted(seed_list)
    return f"{s[0]}–{s[-1]}" if s == list(range(s[0], s[-1] + 1)) else ", ".join(map(str, s))


def _seed_span(record: dict) -> str:
    r = record["replication"]
    return f"{r['first_seed']}–{r['first_seed'] + r['seeds'] - 1}"


def units_done(record: dict, units_dir: Path | None = None) -> tuple[int, int]:
    """(finished, all) units of the replication the freeze names, counted from the units committed while it runs."""
    from .config import EXTENSIONS, METHODS

    r = record["replication"]
    seeds = range(r["first_seed"], r["first_seed"] + r["seeds"])
    names = {f"{m}-seed{s}.json" for m in METHODS for s in seeds} | {f"extend-{v}-seed{s}.json" for v in EXTENSIONS for s in seeds}
    found = {p.name for p in (REPLICATION_UNITS if units_dir is None else Path(units_dir)).glob(f"{r['preset']}/*/*.json")}
    return len(found & names), len(names)


def page_section(lang: str = "zh", results_path=None, frozen_path=None) -> str:
    """Markdown for the results page: the replication claim by claim, or a plain note that it is pending."""
    from ..formatting import check_language

    t = _TEXT[check_language(lang)]
    path = latest() if frozen_path is None else Path(frozen_path)
    record = load(path)
    results = REPLICATION_FILE if results_path is None else Path(results_path)
    common = {"date": record["date"], "file": f"posenc/experiment/preregistration/{path.name}", "short": record["sha256"][:12],
              "n": len(record["claim_set"]["claims"]), "seeds": _seed_span(record), "results": "posenc/experiment/results/replication.json"}
    if not results.is_file():
        body = t["pending"].format(**common)
        done, total = units_done(record)
        if done:
            body += ("" if lang == "zh" else " ") + t["progress"].format(done=done, total=total, units="posenc/experiment/results/replication-units/")
        return f'!!! note "{t["pending_title"]}"\n    {body}\n'
    used = set(record["written_from"]["seeds"]) & set(claims.seeds(results))
    if used:
        raise ValueError(f"{results} has seeds {sorted(used)} that the frozen claims were written from: not a replication")
    common["seeds"] = seed_span(claims.seeds(results))
    judged = judge(results, path)
    counts = {v: sum(1 for j in judged if j.verdict == v) for v in ("holds", "FAILS", "cannot judge")}
    summary = t["done"].format(**common, held=counts["holds"], failed=counts["FAILS"], open=counts["cannot judge"])
    # The main path: the summary, then each sentence that did not hold, with its rewording; every sentence, whatever
    # the outcome, in a fold after it (forty-odd lines of "holds" would bury the few that matter).
    not_held = [j for j in judged if j.verdict != "holds"]
    intro = t["not_held_below" if not_held else "all_held"].format(n=len(judged), written_from=seed_span(record["written_from"]["seeds"]))
    lines = [summary + ("" if lang == "zh" else " ") + intro, ""]
    lines += [_verdict_line(j, record, results, t, lang, reworded=True) for j in not_held]
    lines += ["", f'??? note "{t["all_title"].format(n=len(judged))}"', "    " + t["frozen_file"].format(**common), ""]
    lines += ["    " + _verdict_line(j, record, results, t, lang, reworded=False) for j in judged]
    return "\n".join(lines) + "\n"


def _verdict_line(j: Replicated, record: dict, results: Path, t: dict, lang: str, reworded: bool) -> str:
    """One frozen sentence as the replication judged it: its verdict, its wording (with the replication's seed counts where
    it holds, as frozen where it fails), its intervals there; with ``reworded``, its new wording under it where it was reworded after failing."""
    outcomes = j.outcomes
    said = j.zh if lang == "zh" else english_wording(j.name, j.en)
    join, comma = ("；", "，") if lang == "zh" else ("; ", ", ")
    if j.verdict == "FAILS":
        # As it was frozen, its counts from the seeds it was written from; the replication's counts go in the brackets
        # beside its numbers. Recounted inside the sentence, "the sign is resolved, on 6 of 8 seeds" read as the page
        # asserting what the replication refuted. A part that missed its word's condition says where its interval lies
        # (the condition is about exactly that) and that this part fails.
        written = tuple(claims.judge(o.check, ROOT / record["written_from"]["results"]) for o in outcomes)
        sentence = _render(said, written, lang)
        missed = lambda o: "" if o.ok else comma + t["where"][_side(o.span)] + t["part_fails"]  # noqa: E731
        spans = t["on_replication"] + join.join(claims.seeds_phrase(o.positive, o.n, lang) + comma + _span_text(o, lang) + missed(o)
                                                for o in outcomes)
    else:  # it holds (every part does) or cannot be judged (no outcomes)
        sentence = _render(said, outcomes, lang) if outcomes else said
        spans = join.join(_span_text(o, lang) for o in outcomes)
    line = f"- **{t[j.verdict]}** — {sentence[:1].upper() + sentence[1:]}" + (f"（{spans}）" if lang == "zh" and spans else f" ({spans})" if spans else "")
    if reworded and j.name in REWORDED:
        new = REWORDED[j.name]
        on_replication = claims.CLAIMS[new].outcomes(results)
        if not all(o.ok for o in on_replication):
            raise ValueError(f"{new}, the rewording of {j.name}, fails on {results.name}: reword it again "
                             "(posenc/experiment/claims.py) so that it says what both sets of seeds support")
        spans = join.join(_span_text(o, lang) for o in on_replication)
        line += "\n    - " + t["reworded"].format(sentence=claims.check(new, lang=lang), spans=spans,
                                                  written_from=seed_span(record["written_from"]["seeds"]))
    return line


_AMENDED = {
    "zh": "冻结之后，英文版改写了其中 {n} 句的英文措辞：只是把译文换成英文里的标准术语、改得更地道，意思不变；"
          "中文句子、核对条件和门槛都和冻结时一样，由测试对照冻结文件（`posenc/experiment/amendments.py`）。"
          "英文页逐句列出改写后的说法，旁边是冻结时的原话。",
    "en": {
        "title": "Optional: English wording amended after the freeze ({n} sentences)",
        "intro": "The English sentences are translations of the frozen Chinese ones. After the freeze, {n} of them were re-worded "
                 "for standard terms and idiom only; their Chinese sentence, checks and thresholds are unchanged, and a test "
                 "holds each to the freeze (`posenc/experiment/amendments.py`). Each is listed as the pages print it (or, for a "
                 "sentence that later failed the replication, as they printed it until then), with its frozen wording beside "
                 "it, so you can judge that the meaning did not change.",
        "now": "Now", "frozen": "Frozen", "why": "Why",
        "until_replication": "Printed until the replication (it failed there; the pages now print its rewording, listed in the replication section)",
    },
}


def amendments_section(lang: str = "zh") -> str:
    """Markdown for the results page: every English amendment, the printed wording beside the frozen one (English);
    on the Chinese page a note that the English wording of so many sentences was amended, the Chinese unchanged."""
    from ..formatting import check_language

    problems = amendment_problems()
    if problems:
        raise ValueError("English wording amendments that do not stand against the freeze:\n" + "\n".join(problems))
    n = len(amendments.ENGLISH)
    if check_language(lang) == "zh":
        return _AMENDED["zh"].format(n=n) + "\n"
    t = _AMENDED["en"]
    lines = [f'??? note "{t["title"].format(n=n)}"', f"    {t['intro'].format(n=n)}", ""]
    for name, a in amendments.ENGLISH.items():
        outcomes = claims.CLAIMS[name].outcomes()
        now, then = (_render(text, outcomes, "en") for text in (a.en, a.frozen))
        cap = lambda text: text[:1].upper() + text[1:]  # noqa: E731
        printed = t["until_replication"] if name in REWORDED else t["now"]
        lines += [f"    - {printed}: “{cap(now)}”  ", f"      {t['frozen']}: “{cap(then)}”  ",
                  f"      {t['why']}: {'; '.join(a.reasons)}."]
    return "\n".join(lines) + "\n"


def _span_text(outcome: "claims.Outcome", lang: str) -> str:
    """One comparison's interval as the page prints its numbers (posenc.formatting): the mean ± the half-width of its
    95% interval, or "per seed" from the smallest to the largest seed's value for a seed-by-seed check; labelled "A − B" where it compares
    two methods (or two RoPE variants) on the same measure, since a check's order is its own, not always the sentence's
    (a sentence about partial RoPE against ALiBi may check ALiBi − partial RoPE)."""
    from ..formatting import format_value

    span = outcome.span
    measure = claims.MEASURES.get(outcome.check.a[0])  # None for a side that is zero or the baseline
    # a number of steps prints whole and with its unit, as lesson 5 prints it; the intro says the rest are nats
    fmt, unit = ("+.0f", _TEXT[lang]["steps"]) if measure is not None and measure.unit == "steps" else ("+.3f", "")
    if isinstance(span, stats.Estimate):
        text = format_value(span, fmt, lang) + unit
    else:  # both ends signed, joined by a word: "−0.030–0.046" would read as a subtraction
        ends = (format_value(v, fmt, lang) + unit for v in (span.smallest, span.largest))
        text = _TEXT[lang]["per_seed"] + RANGE_WORD[lang].join(ends)
    label = _comparison(outcome.check, lang)
    return f"{label}{'：' if lang == 'zh' else ': '}{text}" if label else text


def _side(span: stats._OverSeeds) -> str:
    """Where an interval (or, for a check of every seed, the per-seed values) lies against zero."""
    return "above" if span.above(0.0) else "below" if span.below(0.0) else "across"


def _comparison(check: "claims.Check", lang: str) -> str:
    """ "ALiBi − RoPE" for a check of two methods (or variants) on one measure; "" for any other check."""
    from . import course

    (source, a), (other, b) = (check.a + (None,))[:2], (check.b + (None,))[:2]
    if source not in claims.MEASURES or other != source or a is None or b is None:
        return ""  # against zero or the character-frequency baseline: unlabelled
    kind = claims.MEASURES[source].keyed_by
    name = (lambda k: course.method(k).label(lang)) if kind == "method" else (lambda k: course.variant(k).label(kind, lang))
    return f"{name(a)} − {name(b)}"


def _render(template: str, outcomes, lang: str) -> str:
    return template.format(**claims.fields(outcomes, lang))


def english_wording(name: str, frozen_en: str) -> str:
    """A frozen claim's English as the pages print it: its amendment (amendments.py) if one re-words exactly
    this frozen sentence, else the frozen sentence itself."""
    amendment = amendments.ENGLISH.get(name)
    return amendment.en if amendment is not None and amendment.frozen == frozen_en else frozen_en


def amendment_problems(record: dict | None = None) -> list[str]:
    """Why an English amendment does not stand against the freeze ``record`` (default the latest); empty if all do.

    Each amends a frozen claim whose Chinese sentence and checks the pages still state; its frozen English is the
    freeze's word for word; its new English differs and keeps the frozen seed counts, adding at most the margins."""
    record = load() if record is None else record
    frozen_claims = record["claim_set"]["claims"]
    seeds_field = re.compile(r"\{(seeds\d*)\}")
    problems = []
    for name, a in amendments.ENGLISH.items():
        where = f"posenc/experiment/amendments.py {name!r}"
        if name not in frozen_claims:
            problems.append(f"{where}: no frozen claim of that name in {record['date']}'s freeze")
            continue
        c, now = frozen_claims[name], claims.CLAIMS.get(name)
        if now is None or now.text["zh"] != c["zh"] or [ch.as_dict() for ch in now.checks] != c["checks"]:
            problems.append(f"{where}: the claim's Chinese sentence or checks differ from the freeze; an amendment re-words the English only")
        if a.frozen != c["en"]:
            problems.append(f"{where}: its frozen English is not the freeze's word for word: {c['en']!r}")
        if now is not None and now.text["en"] != c["en"]:
            problems.append(f"{where}: claims.py must keep the frozen English; the new wording lives in the amendment")
        if a.en == a.frozen or not a.reasons:
            problems.append(f"{where}: an amendment changes the wording and says why")
        if set(seeds_field.findall(a.en)) != set(seeds_field.findall(a.frozen)):
            problems.append(f"{where}: the new English must keep the frozen seed counts {sorted(set(seeds_field.findall(a.frozen)))}")
        extra = set(re.findall(r"\{(\w+)\}", a.en)) - set(seeds_field.findall(a.en)) - set(amendments.MARGIN_FIELDS)
        if extra:
            problems.append(f"{where}: unknown field(s) {sorted(extra)}; an amendment may add only {list(amendments.MARGIN_FIELDS)}")
    return problems


def summary(results_path=None, frozen_path=None) -> tuple[str, bool]:
    """Plain text for ``summary --frozen``: each frozen claim's verdict on ``results_path``; and whether all hold."""
    judged = judge(results_path, frozen_path)
    lines = [f"[{j.verdict}] {j.name}: {j.detail}" for j in judged]
    held = sum(j.verdict == "holds" for j in judged)
    lines.append(f"frozen claims ({latest().name if frozen_path is None else Path(frozen_path).name}): {held} of {len(judged)} hold")
    return "\n".join(lines), held == len(judged)
