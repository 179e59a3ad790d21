"""The demo's French data through the counterfactual pipeline: rule-based copies of synthetic Bordeaux notes,
their agreement check in audit.counterfactual_quality (against the generator's own other-sex rendering and the
benchmark's measure), the manual review (export, strict import, the Clopper-Pearson interval against scipy) and
the report's counterfactual-quality tables."""

from __future__ import annotations

import csv
import io
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import beta

from warehouse_workspace import Workspace

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import swap_bordeaux  # noqa: E402  (benchmarks/swap_bordeaux.py)
import swap_demo_notes  # noqa: E402  (benchmarks/swap_demo_notes.py)

VISITS = 300
SEED = 7
MODELS = ["stg_inference__counterfactuals", "stg_inference__counterfactual_checks",
          "stg_inference__counterfactual_similarity", "stg_inference__counterfactual_reviews",
          "int_counterfactual_diagnostics", "counterfactual_quality", "counterfactual_review"]


def build(workspace: Workspace, select: list[str], variables: dict | None = None) -> None:
    from biasmirror.dbt_runner import run_dbt

    with workspace.active():
        run_dbt("build", select=select, variables=variables, extra=["--indirect-selection", "cautious"])


@pytest.fixture(scope="module")
def bordeaux(module_workspace: Workspace, tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    from biasmirror.counterfactuals.generate import generate_counterfactuals
    from biasmirror.synth.bordeaux import write_bordeaux

    root = tmp_path_factory.mktemp("bordeaux")
    write_bordeaux(root, visits=VISITS, seed=SEED)
    build(module_workspace, ["+triage_cohort"], {"bordeaux_root": str(root)})
    with module_workspace.active():
        run = generate_counterfactuals("bordeaux", "rules")
    assert run.written > 100 and run.checks_written == run.written  # flagged copies are checked too
    build(module_workspace, MODELS)
    return module_workspace


def test_quality_mart_reports_the_agreement_check_of_the_french_copies(bordeaux: Workspace) -> None:
    from biasmirror.counterfactuals.checks import residual_words_many

    quality = bordeaux.query("select * from audit.counterfactual_quality where dataset = 'bordeaux'")
    assert list(quality.generator) == ["rules"] and list(quality.language) == ["fr"]
    row = quality.iloc[0]
    copies = bordeaux.query("select c.record_id, c.original_sex, c.hpi, c.pmh, c.status, t.hpi as o_hpi, "
                            "t.pmh as o_pmh from inference.counterfactuals c join audit.triage_cohort t "
                            "on t.dataset = c.dataset and t.record_id = c.record_id "
                            "where c.dataset = 'bordeaux' order by c.record_id")
    # every copy is checked, flagged ones included; the stored shares are what the check gives on the copies,
    # judged against their originals
    texts = ["\n".join(t for t in (h, p) if t) for h, p in zip(copies.hpi, copies.pmh)]
    originals = ["\n".join(t for t in (h, p) if t) for h, p in zip(copies.o_hpi, copies.o_pmh)]
    residual = residual_words_many(texts, list(copies.original_sex), "fr", originals=originals)
    agreeing = [sum(w.reason != "lexicon term" for w in words) for words in residual]
    assert row.n_agreement_checked == len(copies)
    assert row.residual_agreement_share == pytest.approx(np.mean([a > 0 for a in agreeing]))
    assert row.mean_wrong_sex_agreement == pytest.approx(np.mean(agreeing))
    assert row.residual_any_share == pytest.approx(np.mean([bool(w) for w in residual]))
    # the rule generator flags exactly the copies with a residual, so they stay out of the pairs
    assert row.flagged_share == pytest.approx(row.residual_any_share)
    assert list(copies.status == "flagged") == [bool(w) for w in residual]
    # ... and the benchmark reports the same share on the same records (the generator's draws, replayed)
    pairs = _all_pairs()
    records = [pairs[int(r[1:]) - 1] for r in copies.record_id]
    measured = swap_bordeaux.run(records, morphology=True)
    assert measured["records"] == len(copies)
    assert measured["residual_share"] == pytest.approx(row.residual_any_share, abs=1e-12)
    # against the gold (the same draws rendered in the other sex): the share of exact copies is what
    # benchmarks/swap_demo_notes.py reports on the same records (benchmarks/README.md records it; the notes hold
    # relatives, staff, lists and anatomy the swapper still gets wrong); before (the lexicon's word windows)
    # fewer copies were exact and most kept an agreement of the original sex
    exact = np.mean([(h or "", p or "") == other for h, p, (_, _, other) in zip(copies.hpi, copies.pmh, records)])
    demo = {r.record_id: r for r in swap_demo_notes.french_records(VISITS, SEED)}
    assert set(copies.record_id) <= set(demo)
    scored = swap_demo_notes.measure([demo[i] for i in copies.record_id], "fr", by_family=False)
    assert measured["exact_share"] == pytest.approx(exact) and scored["exact_share"] == pytest.approx(exact)
    assert scored["flagged_share"] == pytest.approx(row.flagged_share)
    assert row.residual_agreement_share <= 0.05
    before = swap_bordeaux.run(records, morphology=False)
    assert before["residual_share"] >= 0.3 and before["exact_share"] < exact
    # the second opinion: the stored shares are what it gives on the stored copies; against the generator's own
    # other-sex rendering (the independent reference) its reading flags the wrong and the exact copies at the rates
    # benchmarks/swap_demo_notes.py reports (on these notes it flags about a fifth of the exact copies - relatives'
    # and staff's pronouns, lists - far from issue 22's 5%: benchmarks/README.md)
    from biasmirror.counterfactuals.second_opinion import CONTENT_CHANGE, RESIDUAL, judge_many

    originals = bordeaux.query("select c.record_id, t.hpi, t.pmh from inference.counterfactuals c join "
                               "audit.triage_cohort t using (dataset, record_id) where c.dataset = 'bordeaux' "
                               "order by c.record_id")
    original_texts = ["\n".join(t for t in (h, p) if t) for h, p in zip(originals.hpi, originals.pmh)]
    flags = judge_many(original_texts, texts, list(copies.original_sex), "fr")
    assert row.n_second_opinion_checked == len(copies)
    assert row.content_change_share == pytest.approx(np.mean([any(f.kind == CONTENT_CHANGE for f in x) for x in flags]))
    assert row.second_opinion_residual_share == pytest.approx(np.mean([any(f.kind == RESIDUAL for f in x)
                                                                        for x in flags]))
    is_exact = [(h or "", p or "") == other for h, p, (_, _, other) in zip(copies.hpi, copies.pmh, records)]
    reading = [any(f.method == "reading" for f in x) for x in flags]
    flags_exact = np.mean([r for r, e in zip(reading, is_exact) if e])
    flags_wrong = np.mean([r for r, e in zip(reading, is_exact) if not e])
    assert flags_exact == pytest.approx(scored["reading_flags_exact_share"])
    assert flags_wrong == pytest.approx(scored["reading_flags_wrong_share"])
    # nearly every copy is exact now (a handful are wrong: too few to compare rates), so the reading is also judged
    # on planted wrong copies: each note left unswapped, every word of the patient still in the original sex
    unswapped = judge_many(original_texts, original_texts, list(copies.original_sex), "fr")
    flags_unswapped = np.mean([any(f.method == "reading" for f in x) for x in unswapped])
    assert flags_unswapped >= 0.9 and flags_unswapped >= 3 * flags_exact


def _all_pairs():
    """(sex, texts, other-sex texts) of every visit, from the generator's draws (None for non-cohort visits)."""
    from biasmirror.synth import bordeaux as b
    from biasmirror.synth.draws import Draws

    rng = np.random.default_rng(SEED)
    v = b._draw_visits(rng, VISITS, b.DEFAULT_FF_EFFECT)
    out = []
    for start in range(0, VISITS, b._CHUNK):
        stop = min(start + b._CHUNK, VISITS)
        block = rng.random((stop - start, b._TEXT_DRAWS)).tolist()
        for i in range(start, stop):
            sex = "F" if v.female[i] else "M"
            args = (int(v.age[i]), b.GROUPS[v.group[i]], "none", "history", int(v.vitals["pain_score"][i]),
                    float(v.vitals["temperature_c"][i]))
            texts = b._texts(Draws(list(block[i - start])), sex, *args)[:2]
            other = b._texts(Draws(list(block[i - start])), "M" if sex == "F" else "F", *args)[:2]
            out.append((sex, texts, other))
    return out


def _read(path: Path) -> list[dict[str, str]]:
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM: Excel reads the accents
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def test_review_export_is_stratified_reproducible_and_has_record_ids_only(bordeaux: Workspace, tmp_path: Path) -> None:
    from biasmirror.counterfactuals.review import EXPORT_COLUMNS, allocate, export_sample

    with bordeaux.active():
        first = export_sample("bordeaux", tmp_path / "a.csv", n=40, seed=3)
        export_sample("bordeaux", tmp_path / "b.csv", n=40, seed=3)
        other = export_sample("bordeaux", tmp_path / "c.csv", n=40, seed=4)
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert (tmp_path / "a.csv").read_bytes() != (tmp_path / "c.csv").read_bytes()
    rows = _read(tmp_path / "a.csv")
    assert first.rows == len(rows) == 40 and tuple(rows[0]) == EXPORT_COLUMNS
    assert len({r["record_id"] for r in rows}) == 40 and {r["generator"] for r in rows} == {"rules"}
    # no identifier other than the record id (no patient, nurse or visit columns)
    assert not {"patient_id", "nurse_id", "visit_id", "subject_id", "stay_id"} & set(rows[0])
    stored = bordeaux.query("select record_id, hpi from inference.counterfactuals where generator = 'rules'")
    copy_of = dict(zip(stored.record_id, stored.hpi))
    assert all(r["copy_hpi"] == copy_of[r["record_id"]] for r in rows)
    assert other.rows == 40
    # equal allocation, capped by the strata sizes, the remainder to the others
    assert allocate({("fr", "a"): 100, ("fr", "b"): 100}, 41) == {("fr", "a"): 21, ("fr", "b"): 20}
    assert allocate({("en", "a"): 5, ("fr", "a"): 100, ("fr", "b"): 100}, 45) == {("en", "a"): 5, ("fr", "a"): 20,
                                                                                   ("fr", "b"): 20}
    assert allocate({("fr", "a"): 3}, 10) == {("fr", "a"): 3}


def _write(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows([header, *rows])
    path.write_text(buffer.getvalue(), encoding="utf-8-sig", newline="")
    return path


def test_review_import_is_strict_and_the_interval_is_exact(bordeaux: Workspace, tmp_path: Path) -> None:
    from biasmirror.counterfactuals.review import ReviewError, export_sample, import_reviews

    with bordeaux.active():
        export_sample("bordeaux", tmp_path / "sheet.csv", n=30, seed=1)
    rows = _read(tmp_path / "sheet.csv")
    header = list(rows[0])
    secret = "Mme Dupont était vraiment confuse"  # free text that must never appear in a message
    filled = []
    for i, r in enumerate(rows):
        r = dict(r)
        r["judgement"] = "Invalid" if i % 5 == 0 else "valid"
        r["reason"] = secret if i % 5 == 0 else ""
        filled.append([r[c] for c in header])
    n_invalid = sum(1 for i in range(len(rows)) if i % 5 == 0)

    bad = [list(row) for row in filled]
    bad[1][header.index("judgement")] = "peut-être " + secret
    bad[2][header.index("judgement")] = "invalid"
    bad[2][header.index("reason")] = ""
    bad[3][header.index("record_id")] = "V99999999"
    bad[4] = list(bad[6])
    bad[7][header.index("judgement")] = ""
    with bordeaux.active():
        with pytest.raises(ReviewError) as error:
            import_reviews(_write(tmp_path / "bad.csv", header, bad))
        message = str(error.value)
        for line, what in ((3, "judgement must be valid or invalid"), (4, "an invalid copy needs a reason"), (5, "no such copy"),
                           (8, "the same copy as line 6"), (9, "judgement is empty")):
            assert f"line {line}: {what}" in message
        assert secret not in message and "Dupont" not in message and "peut-être" not in message
        with pytest.raises(ReviewError, match="missing column"):
            import_reviews(_write(tmp_path / "cols.csv", ["dataset", "record_id", "judgement"], [["bordeaux", "x", "valid"]]))
        assert bordeaux.query("select count(*) as n from inference.counterfactual_reviews").n[0] == 0

        result = import_reviews(_write(tmp_path / "good.csv", header, filled), reviewer="dr-a")
        assert (result.rows, result.invalid, result.replaced) == (30, n_invalid, 0)
        again = import_reviews(_write(tmp_path / "good.csv", header, filled), reviewer="dr-a")
        assert again.replaced == 30
    build(bordeaux, ["stg_inference__counterfactual_reviews", "counterfactual_review"])
    review = bordeaux.query("select * from audit.counterfactual_review where dataset = 'bordeaux'")
    assert len(review) == 1
    r = review.iloc[0]
    assert (r.language, r.generator, r.n_reviewed, r.n_invalid) == ("fr", "rules", 30, n_invalid)
    assert r.ci_low == pytest.approx(beta.ppf(0.025, n_invalid, 30 - n_invalid + 1), abs=2e-9)
    assert r.ci_high == pytest.approx(beta.ppf(0.975, n_invalid + 1, 30 - n_invalid), abs=2e-9)
    stored = bordeaux.query("select judgement, reason, reviewer from inference.counterfactual_reviews")
    assert set(stored.judgement) == {"valid", "invalid"} and set(stored.reviewer) == {"dr-a"}


CP_CASES = [(1, 0), (1, 1), (7, 0), (7, 7), (20, 3), (200, 17), (200, 199), (523, 260)]


def test_clopper_pearson_macro_against_scipy(bordeaux: Workspace) -> None:
    """The interval of audit.counterfactual_review against scipy's beta quantiles, for planted counts (each case
    its own data set, all in one build)."""
    from biasmirror.warehouse import connect
    from biasmirror.warehouse.writes import append_rows, utc_now

    rows = [{"dataset": f"cp-{n}-{k}", "record_id": f"r{i}", "generator": "g", "language": "xx",
             "judgement": "invalid" if i < k else "valid", "reason": "x" if i < k else None, "reviewer": None,
             "source_file": "f.csv", "run_id": "t", "imported_at": utc_now()} for n, k in CP_CASES for i in range(n)]
    with bordeaux.active(), connect() as con:
        con.begin()
        append_rows(con, "counterfactual_reviews", pd.DataFrame(rows))
        con.commit()
    build(bordeaux, ["stg_inference__counterfactual_reviews", "counterfactual_review"])
    review = bordeaux.query("select * from audit.counterfactual_review where dataset like 'cp-%'").set_index("dataset")
    assert len(review) == len(CP_CASES)
    for n, k in CP_CASES:
        r = review.loc[f"cp-{n}-{k}"]
        low = 0.0 if k == 0 else beta.ppf(0.025, k, n - k + 1)
        high = 1.0 if k == n else beta.ppf(0.975, k + 1, n - k)
        assert (r.n_reviewed, r.n_invalid) == (n, k)
        assert r.ci_low == pytest.approx(low, abs=2e-9) and r.ci_high == pytest.approx(high, abs=2e-9), (n, k)


def test_report_shows_the_agreement_check_and_the_review(bordeaux: Workspace, tmp_path: Path) -> None:
    from biasmirror.report.data import open_marts
    from biasmirror.report.sections import _quality_blocks

    with open_marts(bordeaux.warehouse) as marts:
        blocks = "".join(_quality_blocks(marts, pd.DataFrame(columns=["dataset", "model", "generator"])))
    assert 'id="tbl-counterfactual-quality"' in blocks and "residual_agreement_share" in blocks
    share = bordeaux.query("select residual_agreement_share from audit.counterfactual_quality "
                           "where dataset = 'bordeaux'").residual_agreement_share[0]
    assert f"{share:.3f}" in blocks
    review = bordeaux.query("select * from audit.counterfactual_review where dataset = 'bordeaux'")
    if review.empty:
        assert 'id="review-no-data"' in blocks
    else:
        r = review.iloc[0]
        assert 'id="tbl-counterfactual-review"' in blocks
        assert f"{r.invalid_share:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]" in blocks
    stored = bordeaux.query("select reason from inference.counterfactual_reviews where reason is not null "
                            "and dataset = 'bordeaux'")
    assert all(reason not in blocks for reason in stored.reason)
