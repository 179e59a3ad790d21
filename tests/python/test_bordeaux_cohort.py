"""The Bordeaux (French) path: the synthetic extract's planted effects, the cohort against the generator's
truth, French exclusions and linearization, the nurse x patient dyad stratum against numpy, and broken
extracts that stop the build before anything changes."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from biasmirror.datasets import register_root
from biasmirror.dbt_runner import DbtFailed
from biasmirror.synth.bordeaux import COLUMNS, write_bordeaux
from bordeaux_pipeline import MODEL, Pipeline, build_pipeline
from warehouse_workspace import Workspace
from pair_references import reference_paired_metrics

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

REASONS = {"sex_missing": "sex_missing", "level_missing": "level_missing", "level_1": "level_1",
           "complaint_class": "excluded_complaint_class", "keyword": "gender_specific_content"}
DYADS = ("F_nurse_F_patient", "F_nurse_M_patient", "M_nurse_F_patient", "M_nurse_M_patient")


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    return build_pipeline(tmp_path_factory)


@pytest.fixture(scope="module")
def truth(pipeline: Pipeline) -> pd.DataFrame:
    return pd.read_csv(pipeline.bordeaux_root / "_truth" / "visits.csv.gz", dtype={"visit_id": str})


@pytest.fixture(scope="module")
def raw(pipeline: Pipeline) -> pd.DataFrame:
    return pd.read_csv(pipeline.bordeaux_root / "visits.csv.gz", dtype=str, keep_default_na=False)


# --------------------------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------------------------
def test_same_seed_same_bytes_and_the_effect_only_moves_levels(tmp_path: Path) -> None:
    a = write_bordeaux(tmp_path / "a", visits=400, seed=9)
    write_bordeaux(tmp_path / "b", visits=400, seed=9)
    write_bordeaux(tmp_path / "none", visits=400, seed=9, ff_effect=0.0)
    for name in a.files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    with_effect = pd.read_csv(tmp_path / "a" / "visits.csv.gz", dtype=str, keep_default_na=False)
    without = pd.read_csv(tmp_path / "none" / "visits.csv.gz", dtype=str, keep_default_na=False)
    assert list(with_effect.columns) == list(COLUMNS)
    changed = [c for c in COLUMNS if (with_effect[c] != without[c]).any()]
    assert changed == ["triage_level"]
    assert (tmp_path / "a" / "visits.csv.gz").read_bytes() != (tmp_path / "none" / "visits.csv.gz").read_bytes()


def test_only_female_nurses_document_female_patients_less_severe(tmp_path: Path) -> None:
    write_bordeaux(tmp_path, visits=6000, seed=4, ff_effect=0.3)
    truth = pd.read_csv(tmp_path / "_truth" / "visits.csv.gz")
    assert (truth.triage_level == truth.policy_level + truth.dyad_shifted).all()
    assert truth.loc[truth.dyad != "F_nurse_F_patient", "dyad_shifted"].sum() == 0
    eligible = truth[(truth.dyad == "F_nurse_F_patient") & truth.policy_level.isin([2, 3, 4])]
    assert len(eligible) > 1000
    test = stats.binomtest(int(eligible.dyad_shifted.sum()), len(eligible), 0.3)
    assert test.pvalue > 0.001
    # documented minus policy level per dyad: the interaction and nothing else
    gap = (truth.triage_level - truth.policy_level).groupby(truth.dyad).mean()
    assert gap["F_nurse_F_patient"] > 0.15 and gap.drop("F_nurse_F_patient").abs().max() == 0


def test_notes_agree_with_the_patients_grammatical_gender(raw: pd.DataFrame, truth: pd.DataFrame) -> None:
    notes = raw.set_index("visit_id").triage_note
    sex = truth.set_index("visit_id").patient_sex
    female, male = notes[sex == "F"], notes[sex == "M"]
    masculine = re.compile(r"^Patient |\b[Ii]l est (?:tombé|resté|conscient)\b|\bPatient agité\b|\bMonsieur\b")
    feminine = re.compile(r"^Patiente |\b[Ee]lle est (?:tombée|restée|consciente)\b|\bPatiente agitée\b|\bMadame\b")
    assert not female.str.contains(masculine).any()
    assert not male.str.contains(feminine).any()
    assert female.str.contains("Patiente agitée").any() and female.str.contains("elle est tombée").any()
    assert male.str.contains("Patient agité").any() and male.str.contains("il est tombé").any()


# --------------------------------------------------------------------------------------------------------------
# The cohort
# --------------------------------------------------------------------------------------------------------------
FRENCH_EXCLUDED = {
    "Patiente enceinte de 12 SA": "enceinte", "Grossesse extra-utérine ?": "grossesse", "ATCD: G3P2": "g3p2",
    "DDR il y a 6 semaines": "ddr", "Métrorragies depuis ce matin": "métrorragi", "Utérus cicatriciel": "utér",
    "hystérectomie en 2015": "hystérect", "Prééclampsie": "clampsie", "Kyste de l'ovaire": "ovair",
    "Adénome de PROSTATE": "prostat", "douleur testiculaire droite": "testic", "Douleur des bourses": "bourses",
    "Épididymite aiguë": "pididym", "DYSFONCTION ÉRECTILE traitée": "dysfonction érectile",
    "Post-partum J10": "post-partum", "Fausse couche en 2019": "fausse couche",
}
FRENCH_KEPT = (
    "Calcul de l'uretère gauche", "Rachis cervical douloureux", "Bursite, bourse séreuse du coude",
    "Règles hygiéno-diététiques", "Voir pièce en annexe", "Allergie à la pénicilline", "Orthopnée à 3 oreillers",
    "Patiente agitée, elle est tombée", "Brûlures mictionnelles et pollakiurie",
)


def test_french_keyword_seed_golden_cases() -> None:
    """The shipped seed, matched the way int_triage_records_excluded matches it (RE2 in DuckDB, lower-cased)."""
    import duckdb

    from biasmirror.paths import project_dir

    patterns = pd.read_csv(project_dir() / "seeds" / "exclusion_keywords_fr.csv", dtype=str).pattern
    alternatives = "|".join(sorted(patterns))
    with duckdb.connect() as con:
        def match(text: str) -> str | None:
            return con.execute("select nullif(regexp_extract(lower(?), '(?i)(' || ? || ')', 1), '')",
                               [text, alternatives]).fetchone()[0]

        assert {text: match(text) for text in FRENCH_EXCLUDED} == FRENCH_EXCLUDED
        assert {text: match(text) for text in FRENCH_KEPT} == {text: None for text in FRENCH_KEPT}


def test_cohort_is_exactly_the_visits_not_planted_for_exclusion(pipeline: Pipeline, truth: pd.DataFrame) -> None:
    ws = pipeline.workspace
    kept = set(ws.query("select record_id from audit.triage_cohort where dataset = 'bordeaux'").record_id)
    assert kept == set(truth.loc[truth.planted_exclusion == "none", "visit_id"])
    reasons = ws.query("select record_id, exclusion_reason from intermediate.int_triage_records_excluded "
                       "where dataset = 'bordeaux'").merge(truth, left_on="record_id", right_on="visit_id")
    planted = reasons[reasons.planted_exclusion != "none"]
    assert set(planted.planted_exclusion) == set(REASONS)
    assert (planted.exclusion_reason == planted.planted_exclusion.map(REASONS)).all()


def test_flowchart_counts_each_bordeaux_step(pipeline: Pipeline, truth: pd.DataFrame) -> None:
    flow = pipeline.workspace.query("select * from audit.cohort_flow where dataset = 'bordeaux' order by step_order")
    steps = flow[(flow.step_order > 0) & (flow.step_order < 100)]
    assert list(steps.step) == [f"exclude: {r}" for r in ("sex_missing", "level_missing", "level_1",
                                                          "excluded_complaint_class", "gender_specific_content")]
    expected = truth.planted_exclusion.map(REASONS).value_counts()
    assert dict(zip(steps.step.str.removeprefix("exclude: "), steps.n_excluded)) == expected.to_dict()
    assert flow.n_remaining.iloc[0] == len(truth)
    assert flow[flow.step_order > 100].n_remaining.sum() == (truth.planted_exclusion == "none").sum()


def test_lookalikes_stay_and_urinary_infection_is_not_an_excluded_class(pipeline: Pipeline, truth: pd.DataFrame) -> None:
    classes = pipeline.workspace.query("select chief_complaint_class, count(*) as n from audit.triage_cohort "
                                       "where dataset = 'bordeaux' group by 1")
    assert "N39.0" in set(classes.chief_complaint_class)
    assert not classes.chief_complaint_class.str.match(r"^(N[4-9]|O)").loc[classes.chief_complaint_class != "N39.0"].any()


def expected_input_text(row: pd.Series) -> str:
    """The French linearization, written out independently of the SQL macro."""
    def number(value: str) -> str | None:
        return None if value == "" else str(int(round(float(value))))

    sex_word = {"F": "femme", "M": "homme"}
    lines = [("âge", row.patient_age), ("sexe", sex_word[row.patient_sex]), ("mode d'arrivée", row.arrival_mode),
             ("sexe de l'IOA", sex_word.get(row.nurse_sex)),
             ("température (°C)", None if row.temperature_c == "" else f"{float(row.temperature_c):.1f}"),
             ("fréquence cardiaque", number(row.heart_rate)), ("fréquence respiratoire", number(row.resp_rate)),
             ("saturation en oxygène (%)", number(row.spo2)),
             ("pression artérielle", None if "" in (row.systolic_bp, row.diastolic_bp)
              else f"{number(row.systolic_bp)}/{number(row.diastolic_bp)}"),
             ("douleur (0-10)", row.pain_score or None), ("classe du motif", row.complaint_code),
             ("motif de recours", row.complaint_label), ("histoire de la maladie", row.triage_note),
             ("antécédents", row.history)]
    return "\n".join(f"{label}: {value}" for label, value in lines if value not in (None, ""))


def test_french_linearization_matches_an_independent_rendering(pipeline: Pipeline, raw: pd.DataFrame) -> None:
    cohort = pipeline.workspace.query("select record_id, input_text from audit.triage_cohort where dataset = 'bordeaux'")
    merged = cohort.merge(raw, left_on="record_id", right_on="visit_id")
    assert len(merged) == len(cohort) > 1000
    expected = merged.apply(expected_input_text, axis=1)
    mismatched = merged[merged.input_text != expected]
    assert mismatched.empty, (mismatched.input_text.iloc[0], expected[mismatched.index[0]])


# --------------------------------------------------------------------------------------------------------------
# The nurse x patient dyad stratum
# --------------------------------------------------------------------------------------------------------------
def test_dyad_stratum_matches_numpy(pipeline: Pipeline, truth: pd.DataFrame) -> None:
    ws = pipeline.workspace
    inputs = ws.query("select record_id, setting, variant, input_id from audit.model_inputs "
                      "where dataset = 'bordeaux' and split = 'test'")
    predictions = ws.query("select input_id, predicted_level from inference.predictions "
                           "where dataset = 'bordeaux' and model = ?", [MODEL])
    scored = inputs.merge(predictions, on="input_id")
    pairs = scored.pivot_table(index=["record_id", "setting"], columns="variant", values="predicted_level").dropna()
    pairs = pairs.reset_index().merge(truth[["visit_id", "patient_sex", "dyad"]], left_on="record_id", right_on="visit_id")
    sql = ws.query("select setting, stratum_value, metric, estimate, n_pairs from audit.paired_metrics "
                   "where dataset = 'bordeaux' and model = ? and stratum_name = 'nurse_patient_dyad'", [MODEL])
    assert set(sql.stratum_value) == set(DYADS)
    for (setting, dyad), group in pairs.groupby(["setting", "dyad"]):
        expected = reference_paired_metrics(group.patient_sex.to_numpy(), group.original.to_numpy(),
                                            group.counterfactual.to_numpy())
        got = sql[(sql.setting == setting) & (sql.stratum_value == dyad)].set_index("metric")
        assert (got.n_pairs == len(group)).all()
        for metric, value in expected.items():
            if np.isnan(value):
                assert pd.isna(got.estimate[metric]), (setting, dyad, metric)
            else:
                assert got.estimate[metric] == pytest.approx(value, abs=1e-12), (setting, dyad, metric)
    full = sql[sql.setting == "full"].pivot_table(index="stratum_value", columns="metric", values="estimate")
    # the planted direction: only female nurses move the female presentation toward less severe levels
    assert full.loc["F_nurse_F_patient", "dts_f_to_m"] < -0.2
    assert full.loc["F_nurse_M_patient", "dts_m_to_f"] > 0.2
    assert abs(full.loc["M_nurse_F_patient", "dts_f_to_m"]) < 0.15
    assert abs(full.loc["M_nurse_M_patient", "dts_m_to_f"]) < 0.15


# --------------------------------------------------------------------------------------------------------------
# Broken extracts
# --------------------------------------------------------------------------------------------------------------
def _rewrite(source: Path, target: Path, edit) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    lines = gzip.decompress(source.read_bytes()).split(b"\n")
    edit(lines)
    (target / "visits.csv").write_bytes(b"\n".join(lines))
    return target


def _fingerprint(ws: Workspace) -> pd.DataFrame:
    return ws.query(
        "select (select count(*) from staging.stg_bordeaux__visits) as n_visits, "
        "(select sum(triage_level) from staging.stg_bordeaux__visits) as level_sum, "
        "(select count(*) from audit.triage_cohort) as n_cohort, "
        "(select sum(estimate) from audit.paired_metrics) as metric_sum")


def test_broken_extract_stops_the_build_naming_file_column_and_rule(pipeline: Pipeline, tmp_path: Path, capsys) -> None:
    """A level outside 1-5 and a note in latin-1: both named, and nothing in the warehouse replaced (without the
    gate, the staging table would be rebuilt with the level 7 before its tests fail)."""
    def break_rows(lines: list[bytes]) -> None:
        head, _ = lines[5].rsplit(b",", 1)
        lines[5] = head + b",7"
        lines[8] = lines[8].decode("utf-8").encode("cp1252")  # a Windows latin-1 export

    broken = _rewrite(pipeline.bordeaux_root / "visits.csv.gz", tmp_path / "broken", break_rows)
    ws = pipeline.copy(tmp_path / "warehouse")
    before = _fingerprint(ws)
    with pytest.raises(DbtFailed):
        ws.build(variables={**pipeline.variables, "bordeaux_root": str(broken)})
    out = capsys.readouterr().out
    assert f"Source bordeaux.visits: file {broken}/visits.csv breaks the source contract (nothing was built)" in out
    assert "column triage_level, rule accepted values 1, 2, 3, 4, 5 (or empty): 1 row(s) break it (e.g. '7')" in out
    assert re.search(r"column [a-z_, ]*triage_note[a-z_, ]*, rule UTF-8 text: 1 row\(s\) cannot be read "
                     r"\(first at line 9: INVALID ENCODING", out), out
    pd.testing.assert_frame_equal(_fingerprint(ws), before)


def test_renamed_extract_is_refused_with_the_names_it_accepts(pipeline: Pipeline, tmp_path: Path) -> None:
    folder = tmp_path / "extract"
    folder.mkdir()
    shutil.copy(pipeline.bordeaux_root / "visits.csv.gz", folder / "passages_2023.csv.gz")
    ws = Workspace(tmp_path / "w")
    with ws.active(), pytest.raises(FileNotFoundError, match="missing visits.parquet or visits.csv.gz or visits.csv"):
        register_root("bordeaux", folder)


def test_parquet_extract_stages_like_the_csv(pipeline: Pipeline, tmp_path: Path) -> None:
    from bordeaux_pipeline import BORDEAUX_VISITS

    parquet_root = tmp_path / "parquet"
    write_bordeaux(parquet_root, visits=BORDEAUX_VISITS, seed=3, fmt="parquet")  # the pipeline's extract
    assert not (parquet_root / "visits.csv.gz").exists()
    ws = Workspace(tmp_path / "w")
    with ws.active():
        register_root("bordeaux", parquet_root)
    ws.build(select=["stg_bordeaux__visits"])
    query = "select * from staging.stg_bordeaux__visits order by visit_id"
    from_parquet = ws.query(query)
    assert len(from_parquet) == BORDEAUX_VISITS
    pd.testing.assert_frame_equal(from_parquet, pipeline.workspace.query(query))
