"""The report section beside model performance that says how far to trust each triage model's scores: scoring
parity with the study's generate-and-parse (audit.scoring_parity), which model scored which setting
(audit.model_settings) and the spread of metrics across training seeds (audit.training_seed_summary).

Built with the report's own helpers (`table`, `no_data`: cell text is escaped there); model, data set and
setting names come from the warehouse and are never written into HTML here."""

from __future__ import annotations

import pandas as pd

from biasmirror.report.data import Marts
from biasmirror.report.html import Markup, Section, no_data, note, table

PARITY_THRESHOLD_NOTE = Markup("<code>biasmirror check</code> fails a run whose agreement is below "
                         "<code>--min-parity-agreement</code> (default 95%).")
SEED_METRICS = ("pooled_rate", "pdr", "dts_m_to_f", "dts_f_to_m", "nmd", "kappa_linear", "accuracy")


def _share(value: object, digits: int = 1) -> Markup:
    return "–" if value is None or pd.isna(value) else f"{float(value):.{digits}%}"


def _number(value: object, digits: int = 3) -> Markup:
    return "–" if value is None or pd.isna(value) else f"{float(value):.{digits}f}"


def _count(value: object) -> Markup:
    return "–" if value is None or pd.isna(value) else f"{int(value):,}"


def parity_block(marts: Marts) -> Markup:
    frame = marts.frame("scoring_parity")
    if frame.empty and marts.exists("scoring_parity"):
        return note(Markup("Scoring parity: no causal LM has been scored here (it applies to models scored with "
                    "<code>biasmirror score</code>, whose label probabilities are compared with generate-and-parse)."))
    if frame.empty:
        return no_data("scoring-parity-no-data", "No scoring parity yet (audit.scoring_parity: agreement of "
                       "label-probability scoring with the study's generate-and-parse, unparseable share, "
                       "probability mass on the label tokens).",
                       Markup("score a causal LM with <code>biasmirror score</code> (transformers backend, "
                              "<code>--parity-sample N</code>), then <code>biasmirror build</code>."))
    frame = frame.sort_values(["dataset", "model", "run_id"])
    out = pd.DataFrame({
        "data set": frame["dataset"], "model": frame["model"], "run": frame["run_id"],
        "scored": [_count(v) for v in frame["n_scored"]],
        "parity sample": [_count(v) for v in frame["n_checked"]],
        "agreement [95% CI]": [("–" if not n else f"{_share(a)} [{_share(lo)}, {_share(hi)}]")
                               for n, a, lo, hi in zip(frame["n_checked"], frame["agreement"],
                                                       frame["agreement_ci_low"], frame["agreement_ci_high"])],
        "unparseable": [_share(v) for v in frame["unparseable_share"]],
        "label mass: mean": [_number(v) for v in frame["mean_label_mass"]],
        "label mass: min": [_number(v) for v in frame["min_label_mass"]],
        "mass < 0.5": [_share(v) for v in frame["low_label_mass_share"]],
    })
    return table("tbl-scoring-parity", out,
                 Markup("<b>Scoring parity</b> (audit.scoring_parity), per model and scoring run. <b>Agreement</b>: share of "
                 "the run's parity sample where the label-probability argmax (one forward pass, what the marts use) "
                 "equals the level parsed from greedy generation (the study's inference), with a 95% Wilson "
                 "interval. <b>Unparseable</b>: generations that gave no level. <b>Label mass</b>: share of the "
                 "model's next-token probability on the level tokens before renormalisation over the levels; near 1 "
                 "for a model that learned the answer format, low when the levels are answers it would rarely give. ")
                 + PARITY_THRESHOLD_NOTE,
                 numeric=("scored", "parity sample", "agreement [95% CI]", "unparseable", "label mass: mean",
                          "label mass: min", "mass < 0.5"))


def settings_block(marts: Marts) -> Markup:
    frame = marts.frame("model_settings")
    if frame.empty:
        return no_data("model-settings-no-data", "No model has scored the warehouse's own inputs yet "
                       "(audit.model_settings: which model scored which setting).",
                       Markup("train and score a model (<code>biasmirror baselines ...</code>, or "
                              "<code>biasmirror train</code> and <code>biasmirror score</code>), then "
                              "<code>biasmirror build</code>."))
    order = {"full": 0, "text_only": 1, "tabular_only": 2}
    frame = frame.assign(_order=frame["setting"].map(order).fillna(9)).sort_values(["dataset", "model", "_order"])
    out = pd.DataFrame({
        "data set": frame["dataset"], "model": frame["model"], "scored setting": frame["setting"],
        "trained on": frame["training_setting"].fillna("unknown"),
        "reading": frame["reading"],
        "originals": [_count(v) for v in frame["n_originals"]],
        "copies": [_count(v) for v in frame["n_counterfactuals"]],
    })
    return table("tbl-model-settings", out,
                 Markup("<b>Which model scored which setting</b> (audit.model_settings). A model trained on full inputs "
                 "scores every setting: its text_only and tabular_only results probe that model with part of its "
                 "input removed, inputs unlike any it was trained on. A model trained on an isolated setting "
                 "(<code>--setting text_only</code>, stored as <i>name</i>-text_only) scores its own setting: the "
                 "modality-isolated reading with a model fitted to that input. Compare the two readings side by "
                 "side in the paired metrics."), numeric=("originals", "copies"))


def seeds_block(marts: Marts) -> Markup:
    frame = marts.frame("training_seed_summary")
    if frame.empty and marts.exists("training_seed_summary"):
        return note(Markup("Stability across training seeds: no model was trained with several seeds (<code>--seeds 0,1,2</code> "
                    "on <code>biasmirror train</code> or <code>biasmirror baselines ...</code>)."))
    if frame.empty:
        return no_data("seed-summary-no-data", "No multi-seed training yet (audit.training_seed_summary: mean, SD "
                       "and range of every metric across training seeds).",
                       Markup("train with <code>--seeds 0,1,2</code> (<code>biasmirror train</code> or "
                              "<code>biasmirror baselines ...</code>), score every seed's model, then "
                              "<code>biasmirror build</code>."))
    frame = frame[(frame["stratum_name"] == "overall") & frame["metric"].isin(SEED_METRICS)]
    frame = frame.sort_values(["dataset", "seed_group", "setting", "metric_source", "metric"])
    percent = ~frame["metric"].isin(["nmd", "kappa_linear"])
    scale = percent.map({True: 100.0, False: 1.0})
    unit = percent.map({True: " pp", False: ""})

    def cell(values: pd.Series) -> list[str]:
        return ["–" if pd.isna(v) else f"{v * s:.2f}{u}" for v, s, u in zip(values, scale, unit)]

    out = pd.DataFrame({
        "data set": frame["dataset"], "seed group": frame["seed_group"], "setting": frame["setting"],
        "generator": frame["generator"].fillna("–"), "metric": frame["metric"],
        "seeds": [_count(v) for v in frame["n_defined"]],
        "mean": cell(frame["mean_estimate"]), "SD": cell(frame["sd_estimate"]),
        "min": cell(frame["min_estimate"]), "max": cell(frame["max_estimate"]),
    })
    return table("tbl-seed-summary", out,
                 Markup("<b>Stability across training seeds</b> (audit.training_seed_summary, overall stratum): mean, sample "
                 "SD and range of each metric over the models of one multi-seed training. Shares and "
                 "differences of shares (pdr, DTS, pooled rate, accuracy) in percentage points (pp); nmd (levels) "
                 "and kappa as they are. A spread comparable to a "
                 "metric's bootstrap interval means the training run matters as much as the data."),
                 numeric=("seeds", "mean", "SD", "min", "max"))


def triage_checks(marts: Marts) -> Section:
    section = Section("scoring", "How far to trust the scores",
                      "Beside model performance: whether label-probability scoring reproduces the study's "
                      "generate-and-parse inference, which model scored which setting, and how much metrics move "
                      "between training seeds.")
    section.blocks.extend([parity_block(marts), settings_block(marts), seeds_block(marts)])
    return section
