"""The pre-registered claim set (posenc/experiment/preregistration/): frozen, hashed, and earlier than the seeds it judges."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from posenc.experiment import claims, frozen
from posenc.experiment.config import EXTENSIONS, METHODS

ROOT = Path(__file__).resolve().parent.parent
FREEZES = sorted(frozen.DIRECTORY.glob("*.json"))


def test_a_freeze_exists():
    assert FREEZES, f"no pre-registration in {frozen.DIRECTORY}"


@pytest.mark.parametrize("path", FREEZES, ids=lambda p: p.name)
def test_frozen_hash_matches_the_claims_it_names(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    assert frozen.digest(record["claim_set"]) == record["sha256"]
    assert record["date"] == path.stem
    assert record["replication"]["seeds"] >= 8 and record["replication"]["first_seed"] >= 16


def test_an_edited_freeze_is_refused(tmp_path):
    record = json.loads(FREEZES[-1].read_text(encoding="utf-8"))
    name = next(iter(record["claim_set"]["claims"]))
    record["claim_set"]["claims"][name]["checks"][0]["word"] = "within"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(record, ensure_ascii=False))
    with pytest.raises(ValueError, match="does not match its sha256"):
        frozen.load(edited)


def test_the_pages_state_the_latest_frozen_claims():
    # The claims the pages print are the ones frozen, with the same checks and margins; the only exception
    # is a claim that failed the replication and was reworded after it, under a new name (frozen.REWORDED).
    record = frozen.load()
    current = frozen.claim_set()
    for part in ("margins", "words", "constants"):
        assert record["claim_set"][part] == current[part], f"{part} differ from the latest freeze"
    frozen_claims = record["claim_set"]["claims"]
    failed = {j.name for j in frozen.judge() if j.verdict == "FAILS"} if frozen.REWORDED else set()
    for name, c in frozen_claims.items():
        if name in frozen.REWORDED:
            assert name in failed, f"{name} is reworded but did not fail the replication"
            assert frozen.REWORDED[name] in claims.CLAIMS and frozen.REWORDED[name] not in frozen_claims
        else:
            assert current["claims"].get(name) == c, f"claim {name!r} differs from its frozen form; freeze anew only before new seeds"
    unfrozen = set(current["claims"]) - set(frozen_claims) - set(frozen.REWORDED.values())
    assert not unfrozen, f"claims added after the freeze: {sorted(unfrozen)}"


def test_the_freeze_is_committed_before_any_replication_results():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")

    def first_commit_time(path: Path) -> int | None:
        out = subprocess.run(["git", "log", "--diff-filter=A", "--format=%ct", "--", str(path.relative_to(ROOT))],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
        return int(out[-1]) if out else None

    frozen_at = first_commit_time(frozen.latest())
    replication_at = first_commit_time(frozen.REPLICATION_FILE) if frozen.REPLICATION_FILE.exists() else None
    if replication_at is not None:
        assert frozen_at is not None and frozen_at < replication_at, "the replication results were committed before the claims were frozen"


@pytest.mark.parametrize("event", list(frozen.RECORD))
def test_the_record_matches_git(event):
    # The results page prints these times; where the commit is in this checkout's history, git must agree.
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    commit, when = frozen.RECORD[event]
    shown = subprocess.run(["git", "show", "-s", "--format=%cd", "--date=format-local:%Y-%m-%d %H:%M UTC", commit],
                           cwd=ROOT, capture_output=True, text=True, env={"TZ": "UTC", "PATH": "/usr/bin:/bin"})
    if shown.returncode != 0:
        pytest.skip(f"{commit[:7]} is not in this checkout's history (a shallow clone)")
    assert shown.stdout.strip() == when


def test_the_margins_came_after_the_results_they_were_set_on():
    # What the page says happened, in order: results, then margins, then the two-groups rule, then the freeze.
    times = [frozen.RECORD[k][1] for k in ("results", "margins", "two_groups")]
    assert times == sorted(times) and times[-1][:10] <= frozen.load()["date"]


def test_the_results_page_says_the_replication_is_pending_until_it_is_committed(tmp_path):
    text = frozen.page_section("zh", results_path=tmp_path / "absent.json")
    assert "还没有结果" in text and "没有复现结论" in text
    assert "no results yet" in frozen.page_section("en", results_path=tmp_path / "absent.json")


def test_while_the_replication_runs_the_page_counts_its_committed_units(tmp_path, monkeypatch):
    record = frozen.load()
    key = tmp_path / record["replication"]["preset"] / "0123456789abcdef"
    key.mkdir(parents=True)
    monkeypatch.setattr(frozen, "REPLICATION_UNITS", tmp_path)
    total = record["replication"]["seeds"] * (len(METHODS) + len(EXTENSIONS))
    assert frozen.units_done(record) == (0, total)
    assert "replication-units" not in frozen.page_section("en", results_path=tmp_path / "absent.json")
    first = record["replication"]["first_seed"]
    for name in (f"rope-seed{first}.json", f"extend-abf-seed{first + 7}.json",  # two of the replication's units
                 f"rope-seed{first - 1}.json", f"extend-abf-seed{first + 8}.json", f"bogus-seed{first}.json"):  # none
        (key / name).write_text("{}")
    assert frozen.units_done(record) == (2, total)
    assert f"so far: 2 of its {total} training units" in frozen.page_section("en", results_path=tmp_path / "absent.json")
    assert "已有 2 个跑完并提交" in frozen.page_section("zh", results_path=tmp_path / "absent.json")


def test_a_replication_that_reuses_the_written_from_seeds_is_refused():
    with pytest.raises(ValueError, match="not a replication"):
        frozen.page_section("en", results_path=claims.RESULTS_FILE)


def test_the_replication_is_shown_claim_by_claim_whatever_the_outcome(tmp_path):
    # A stand-in replication: eight committed seeds relabelled 16-23, with ALiBi made as good as RoPE, so the
    # frozen "RoPE is a little lower than ALiBi" fails there. Every frozen claim is listed, the failed one too.
    from posenc.experiment import provenance

    results = json.loads(claims.RESULTS_FILE.read_text())
    keep = range(8)
    results["seeds"] = [16 + i for i in keep]
    for group in ("runs", "extension"):
        results[group] = {k: [units[i] for i in keep] for k, units in results[group].items()}
    for a, r in zip(results["runs"]["alibi"], results["runs"]["rope"]):
        a["position_loss"][:128] = list(r["position_loss"][:128])
    results["seal_sha256"] = provenance.seal(results)
    path = tmp_path / "replication.json"
    path.write_text(json.dumps(results))
    judged = {j.name: j.verdict for j in frozen.judge(path)}
    assert set(judged) == set(frozen.load()["claim_set"]["claims"])
    assert judged["rope_a_little_below_alibi"] == "FAILS" and judged["rope_rises"] == "holds"
    page = frozen.page_section("en", results_path=path)
    assert "seeds 16–23" in page and f"of {len(judged)} sentences" in page
    main_path, fold = page.split("\n??? note ")
    # every sentence in the fold, whatever the outcome; those that did not hold on the main path too
    assert sum(line.startswith("    - **") for line in fold.splitlines()) == len(judged)
    assert sum(line.startswith("- **") for line in main_path.splitlines()) == sum(v != "holds" for v in judged.values())
    assert "- **fails** — Within the training length, RoPE is a little lower than ALiBi" in main_path
    # a failed sentence that makes several comparisons says which of them failed
    three = next(line for line in main_path.splitlines() if line.startswith("- **fails** — Within the training length, the three"))
    assert three.count("this part fails") == 1 and re.search(r"\(on the replication seeds: 0 of 8 seeds, ALiBi − RoPE: 0\.000 ± [^;]*, "
                                                             r"this part fails; \d of 8 seeds, ", three), three
    # the failing part says where its interval lies (its word's condition is about exactly that): ALiBi − RoPE is 0 on
    # every seed here, an interval of zero width at zero, which "a little lower" (entirely above zero) misses
    assert "ALiBi − RoPE: 0.000 ± 0.000, the interval contains zero, this part fails;" in three, three
    # ... and reads as it was frozen: its own counts are those of the seeds it was written from (here 0–15, the committed
    # results), the replication's stand in the brackets beside its numbers, never inside the sentence it refutes
    sentence = three.split(" (on the replication seeds: ")[0]
    assert "of 16 seeds" in sentence and "of 8 seeds" not in sentence, sentence
    assert "    - **holds** — Past the training length, the loss of unscaled RoPE rises clearly" in fold
    # each failed sentence that was reworded shows its new wording under it, judged on these seeds too
    for name, new in frozen.REWORDED.items():
        if judged[name] == "FAILS":
            assert f"Reworded after the replication as: {claims.check(new, lang='en')} (the counts in the sentence are from seeds 0–15;" in page


def test_each_replication_interval_names_its_difference_and_prints_as_the_pages_numbers():
    # A check's order is its own: the frozen "partial RoPE and ALiBi cannot be told apart" checks ALiBi − partial RoPE,
    # while the results page prints partial RoPE − ALiBi (a newcomer read the two signs as a contradiction). So each
    # interval of two methods says which is subtracted from which, and prints as the pages print a difference
    # (posenc.formatting: mean ± half-width, U+2212 minus); read here against the page's own guarded numbers.
    from posenc import quantities

    for lang, partial in (("en", "partial RoPE"), ("zh", "部分 RoPE")):
        section = frozen.page_section(lang)
        colon = ": " if lang == "en" else "："
        alibi_rope = quantities.text("exp_rep_diff_alibi_rope_in", lang)
        partial_alibi = quantities.text("exp_rep_diff_partial_alibi_in", lang)
        assert partial_alibi.startswith("−"), partial_alibi  # the page's number: partial RoPE lower
        assert f"ALiBi − RoPE{colon}{alibi_rope}" in section
        assert f"ALiBi − {partial}{colon}+{partial_alibi[1:]}" in section  # the same difference, the other way round
        assert not re.search(r"(?<![\w])-\d", section), "an ASCII hyphen for a minus sign"
        assert not re.search(r"\[[+−-]?\d", section), "an interval written [low, high]: the pages write mean ± half-width"


def test_summary_judges_the_frozen_claims(tmp_path, capsys):
    from posenc.experiment.__main__ import main

    assert main(["summary", "--frozen", "--results", str(claims.RESULTS_FILE)]) == 0
    n = len(frozen.load()["claim_set"]["claims"])  # the frozen claims, not claims.py's (which adds the reworded ones)
    assert f"{n} of {n} hold" in capsys.readouterr().out
    assert main(["summary", "--frozen", "--results", str(tmp_path / "absent.json")]) == 1
    assert "does not exist" in capsys.readouterr().err


# --- English wording amendments (posenc/experiment/amendments.py) -------------------------------------------


def test_every_english_amendment_stands_against_the_freeze():
    # Each re-words only the English of a frozen claim: the Chinese, checks, margins and words are the freeze's,
    # and the English it replaces is the freeze's word for word.
    from posenc.experiment import amendments

    record = frozen.load()
    assert frozen.amendment_problems(record) == []
    for name, a in amendments.ENGLISH.items():
        c = record["claim_set"]["claims"][name]
        assert a.frozen == c["en"] == claims.CLAIMS[name].text["en"]
        assert claims.CLAIMS[name].text["zh"] == c["zh"]
        assert [ch.as_dict() for ch in claims.CLAIMS[name].checks] == c["checks"]
        assert a.en != a.frozen and a.reasons


def test_an_amendment_that_misquotes_the_frozen_english_or_drops_a_count_is_refused(monkeypatch):
    from posenc.experiment import amendments

    name = next(iter(amendments.ENGLISH))
    a = amendments.ENGLISH[name]
    for bad, why in [(amendments.EnglishAmendment(a.frozen + " (edited)", a.en, a.reasons), "word for word"),
                     (amendments.EnglishAmendment(a.frozen, a.en.replace("{seeds}", "many seeds"), a.reasons), "seed counts"),
                     (amendments.EnglishAmendment(a.frozen, a.en + " {best}", a.reasons), "unknown field"),
                     (amendments.EnglishAmendment(a.frozen, a.frozen, a.reasons), "changes the wording")]:
        monkeypatch.setitem(amendments.ENGLISH, name, bad)
        assert any(why in p for p in frozen.amendment_problems()), why
    monkeypatch.setitem(amendments.ENGLISH, name, a)
    record = json.loads(json.dumps(frozen.load()))
    record["claim_set"]["claims"][name]["zh"] += "。"
    assert any("Chinese sentence or checks" in p for p in frozen.amendment_problems(record))


def test_the_english_pages_print_the_amended_wording_and_the_chinese_is_unchanged():
    from posenc.experiment import amendments

    record = frozen.load()
    for name, a in amendments.ENGLISH.items():
        en = claims.check(name, lang="en")
        frozen_words = re.sub(r"\{\w+\}", "\0", a.frozen).split("\0")
        new_words = re.sub(r"\{\w+\}", "\0", a.en).split("\0")
        assert all(part in en for part in new_words) and not all(part in en for part in frozen_words), name
        zh = claims.check(name, lang="zh")
        assert all(part in zh for part in re.sub(r"\{\w+\}", "\0", record["claim_set"]["claims"][name]["zh"]).split("\0"))


def test_a_margin_an_amendment_names_is_the_frozen_margin():
    # "the ‘clearly’ threshold (0.1 nats)": the number printed is the frozen margin, not a typed one
    record = frozen.load()
    text = claims.check("rope_a_little_below_alibi", lang="en")
    assert f"({record['claim_set']['margins']['CLEARLY']:g} nats)" in text
    assert f"±{record['claim_set']['margins']['SAME']:g} nats" in claims.check("partial_within_same_band_of_rope", lang="en")


def test_the_results_page_lists_each_amendment_beside_its_frozen_wording():
    from posenc.experiment import amendments

    page = frozen.amendments_section("en")
    items = page.split("\n    - ")[1:]
    assert len(items) == len(amendments.ENGLISH)
    for item, (name, a) in zip(items, amendments.ENGLISH.items()):
        now, then = item.split("\n      Frozen: ")
        stem = lambda t: re.sub(r"\{\w+\}", "\0", t).split("\0")[0][1:]  # noqa: E731  (the capital may differ)
        assert stem(a.en) in now and stem(a.frozen) in then and "Why: " in item, name
    assert str(len(amendments.ENGLISH)) in frozen.amendments_section("zh")


def test_a_reworded_claim_holds_on_the_seeds_it_was_written_from_and_on_the_replication():
    # A sentence reworded after failing the replication says what both sets of seeds support; it cannot be tested
    # by new seeds of its own until a next freeze, so it must at least not contradict the seeds already run.
    for old, new in frozen.REWORDED.items():
        for path in (claims.RESULTS_FILE, frozen.REPLICATION_FILE):
            ok, detail = claims.CLAIMS[new].test(path)
            assert ok, f"{new} (the rewording of {old}) fails on {path.name}: {detail}"


def test_a_replication_number_whose_interval_moves_across_zero_fails_naming_the_pages(monkeypatch):
    # Lesson 4 and the results page say on which side of 0 each quoted replication interval lies; a replication file
    # that moved one would leave the words wrong, so the number refuses to print.
    import numpy as np

    from posenc.quantities import experiment as qe

    per_seed = {"alibi": np.linspace(0.1, 0.2, 8), "rope": np.zeros(8)}  # ALiBi − RoPE clearly above 0
    monkeypatch.setattr(qe, "_replication_per_seed", lambda source, key: per_seed[key])
    for side in ("contains 0", "below 0"):
        with pytest.raises(ValueError, match=r"reword those sentences \(docs/lessons/04-rope\*\.md, results\*\.md\)"):
            qe._replication_difference(("in", "alibi"), ("in", "rope"), side)
    assert qe._replication_difference(("in", "rope"), ("in", "alibi"), "below 0").high < 0
    assert set(side for _, _, side in qe.REPLICATION_DIFFERENCES.values()) <= set(qe._SIDES)


def test_a_difference_whose_side_the_results_table_states_fails_naming_the_page_when_it_moves(monkeypatch):
    # The results page's table of the three lowest says that partial RoPE − ALiBi crosses zero on seeds 0–15; a results
    # file that moved the interval off zero would leave the cell wrong, so the number refuses to print. The other
    # differences print whatever their side.
    import numpy as np

    from posenc.quantities import experiment as qe

    per_seed = {"rope_partial": np.linspace(-0.2, -0.1, 16), "alibi": np.zeros(16)}  # entirely below 0
    monkeypatch.setattr(qe, "_per_seed", lambda source, key, path=None: per_seed[key])
    with pytest.raises(ValueError, match=r"contains 0; reword those sentences \(docs/lessons/results\*\.md\)"):
        qe._difference("exp_diff_partial_alibi_in", ("in", "rope_partial"), ("in", "alibi"))
    assert qe._difference("exp_diff_sin_learned_in", ("in", "rope_partial"), ("in", "alibi")).high < 0
    per_seed["rope_partial"] = np.linspace(-0.2, 0.2, 16)  # crosses 0
    est = qe._difference("exp_diff_partial_alibi_in", ("in", "rope_partial"), ("in", "alibi"))
    assert est.low < 0 < est.high
    assert {side for side, _ in qe.DIFFERENCE_SIDES.values()} <= set(qe._SIDES) and set(qe.DIFFERENCE_SIDES) <= set(qe.DIFFERENCES)


def test_a_replication_number_that_counts_steps_says_so_and_is_whole():
    # Every other number of the list is a loss in nats (the intro says so); the recovery checks count training steps, which
    # lesson 5 prints whole: "+41.250 ± 15.760" with no unit read as a loss of forty nats.
    judged = {j.name: j for j in frozen.judge()}
    steps = [(j, o) for j in judged.values() for o in j.outcomes if o.check.a[0] == "recovery"]
    assert steps, "no frozen check counts steps"
    for lang, unit in (("zh", " 步"), ("en", " steps")):
        for j, o in steps:
            text = frozen._span_text(o, lang)
            assert text.endswith(unit) and re.search(r"[−+]?\d+ ± \d+" + unit + "$", text), (j.name, text)
        loss = next(o for j in judged.values() for o in j.outcomes if o.check.a[0] == "in")
        assert not frozen._span_text(loss, lang).endswith(unit)


def test_the_interval_factors_are_students_t_as_a_printed_table_gives_them():
    # The two-sided 95 % factor of Student's t, as any printed t-table gives it: 2.131 for 15 degrees of freedom (the
    # site's 16 seeds), 2.365 for 7 (the replication's 8). The results page quotes both.
    from posenc import quantities

    assert (quantities.value("exp_seeds"), quantities.value("exp_rep_seed_count")) == (16, 8), "the table's rows below"
    assert quantities.value("exp_t_quantile") == pytest.approx(2.131, abs=5e-4)
    assert quantities.value("exp_rep_t_quantile") == pytest.approx(2.365, abs=5e-4)


def test_the_reproduce_lists_times_are_the_results_files_own_and_from_the_device_it_names():
    # The results page says what a seed costs on a CPU (the replication's record) and what the site's seeds took on one
    # GPU (full.json's): each from the file that ran on that device, and a file made on another device is refused.
    from posenc import quantities
    from posenc.quantities import experiment as qe

    full, rep = (json.loads(p.read_text(encoding="utf-8")) for p in (claims.RESULTS_FILE, frozen.REPLICATION_FILE))
    assert full["environment"]["device"] == "cuda" and rep["environment"]["device"] == "cpu"
    assert quantities.value("exp_gpu_minutes") * 60 == pytest.approx(full["wall_seconds"])
    assert quantities.value("exp_gpu_jobs") == full["environment"]["jobs"] and f"--jobs {full['environment']['jobs']}" in full["command"]
    assert quantities.value("exp_cpu_minutes_per_seed") * 60 * len(rep["seeds"]) == pytest.approx(rep["cpu_seconds"])
    with pytest.raises(ValueError, match=r"replication\.json was made on 'cpu'.*docs/lessons/results"):
        qe._recorded_on(frozen.REPLICATION_FILE, "cuda")
