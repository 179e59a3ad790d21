"""The report's sections. Each reads its marts and returns a Section; a mart that is missing or empty gives a
"no data yet" panel that says what fills it, so the report can be written at any stage of the pipeline."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from biasmirror.counterfactuals.base import PLACEBO_SUFFIX
from biasmirror.report import figures, numbers
from biasmirror.report.data import Marts
from biasmirror.report.html import Markup, Section, figure, html, no_data, slug, table
from biasmirror.report.gates import audit_gates
from biasmirror.report.history import audit_history
from biasmirror.report.implicit import implicit_study
from biasmirror.report.triage_checks import triage_checks
from biasmirror.report.wordcloud import Word, word_cloud_svg
from biasmirror.settings import SETTINGS

BUILD = Markup("run <code>biasmirror build</code> (after scoring a model with <code>biasmirror baselines tfidf-rf</code> or importing pairs with <code>biasmirror import-pairs</code>)")
FOREST_METRICS = (("dts_m_to_f", "DTS M→F"), ("dts_f_to_m", "DTS F→M"), ("nats_plus", "NATS(+)"),
                  ("nats_minus", "NATS(−)"), ("pooled_rate", "pooled rate"))
STRATA_METRICS = (("pooled_rate", "pooled rate"), ("dts_m_to_f", "DTS M→F"), ("dts_f_to_m", "DTS F→M"))
PRESENTATION_ORDER = ("chest_pain", "abdominal_pain", "dyspnoea", "neurological", "sepsis_like", "other")
SIGN = Markup("Levels are ordinal, 1 = most urgent, so a <b>higher level is less severe</b>. "
        "A pair is a record and its copy with the other sex; <b>up</b> means the copy got a less severe level. "
        "<b>DTS M→F</b> = share up − share down over male originals (copies are female): &gt; 0 means female copies "
        "get less severe levels. <b>DTS F→M</b> is the same over female originals: &lt; 0 means the male copies get "
        "more severe levels, i.e. the female original was the less severe one. <b>Pooled rate</b> = mean over all pairs "
        "of sign(level of the female presentation − level of the male one): &gt; 0 means the female presentation of "
        "the same record more often gets the less severe level. <b>NATS(+)</b> = P(up | F→M) − P(up | M→F) and "
        "<b>NATS(−)</b> = P(down | F→M) − P(down | M→F). Intervals are 95% percentile bootstrap intervals that "
        "resample pairs. Hollow markers and \"small\" flag strata with fewer pairs than <code>min_stratum_pairs</code>.")

SectionBuilder = Callable[[Marts], Section]


# ------------------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------------------

def _pct(estimate: float, low: float | None = None, high: float | None = None, scale: float = 100.0,
         unit: str = "%") -> str:
    return numbers.interval(estimate, low, high, scale=scale, unit=unit)


def _metric_cell(metric: str, estimate: float, low: float, high: float) -> str:
    if metric == "nmd":
        return _pct(estimate, low, high, scale=1.0, unit="")
    return _pct(estimate, low, high)


def _tested_cell(metric: str, row) -> str:
    """A metric cell with its q-value where the metric is tested, and its minimum detectable effect where the
    interval also covers zero (docs/metrics.md, "p-values, q-values and the minimum detectable effect")."""
    text = _metric_cell(metric, row.estimate, row.ci_low, row.ci_high)
    q_value, mde = getattr(row, "q_value", None), getattr(row, "mde", None)
    if q_value is None or pd.isna(q_value):
        return text
    text += f" q={q_value:.2g}"
    if mde is not None and not pd.isna(mde) and not pd.isna(row.ci_low) and row.ci_low <= 0 <= row.ci_high:
        text += f" (mde {mde * (1.0 if metric == 'nmd' else 100.0):.2f})"
    return text


def _placebo_adjusted(marts: Marts, dataset: str, model: str, generator: str) -> pd.DataFrame:
    """audit.placebo_adjusted_effects of one group on all pairs (estimate: the effect beyond the placebo)."""
    frame = marts.frame("placebo_adjusted_effects", stratum_name="overall", dataset=dataset, model=model,
                        generator=generator)
    return frame.rename(columns={"adjusted_effect": "estimate"}) if not frame.empty else frame


def _is_placebo(generator: str) -> bool:
    return str(generator).endswith(PLACEBO_SUFFIX)


def _placebo_mask(generators: pd.Series) -> pd.Series:
    return generators.astype(str).str.endswith(PLACEBO_SUFFIX).astype(bool)


def _groups(frame: pd.DataFrame) -> list[tuple[str, str, str]]:
    """(data set, model, generator) of the sex-swap pairs; placebo generators are shown beside their generator."""
    keys = frame[["dataset", "model", "generator"]].drop_duplicates().sort_values(["dataset", "model", "generator"])
    return [tuple(row) for row in keys.itertuples(index=False) if not _is_placebo(row[2])]


def _settings_in(frame: pd.DataFrame) -> list[str]:
    present = set(frame["setting"])
    return [s for s in SETTINGS if s in present] + sorted(present - set(SETTINGS))


def _main_setting(frame: pd.DataFrame) -> str:
    return _settings_in(frame)[0]


def _group_title(dataset: str, model: str, generator: str) -> str:
    return f"{dataset} · model {model} · counterfactuals {generator}"


def _paired_metrics(marts: Marts, **equals) -> pd.DataFrame:
    return marts.frame("paired_metrics", **equals)


# ------------------------------------------------------------------------------------------------------------
# sections
# ------------------------------------------------------------------------------------------------------------

def overview(marts: Marts) -> Section:
    section = Section("overview", "Overview and how to read the signs")
    section.blocks.append(html('<p class="sign">{}</p>', SIGN))
    overall = _paired_metrics(marts, stratum_name="overall", metric="pdr")
    if overall.empty:
        section.blocks.append(no_data("overview-no-pairs", "audit.paired_metrics has no pairs.", BUILD, shown=True))
        return section
    summary = overall[["dataset", "model", "generator", "setting", "n_pairs"]].sort_values(
        ["dataset", "model", "generator", "setting"]).rename(columns={"n_pairs": "pairs"})
    summary["pairs"] = summary["pairs"].map(lambda n: f"{int(n):,}")
    section.blocks.append(table("tbl-audited-groups", summary, Markup("<b>What was audited.</b> Pairs per data set, model, "
                                "counterfactual generator and setting."), numeric=("pairs",)))
    return section


def cohort(marts: Marts) -> Section:
    section = Section("cohort", "Cohort", "How many records each filtering step removed (the study's Supplementary "
                      "Figures 1 and 2) and the documented triage levels of the analysis cohort (Table 4 and "
                      "Supplementary Table 7).")
    flow = marts.frame("cohort_flow")
    if flow.empty:
        section.blocks.append(no_data("cohort-flow-no-data", "audit.cohort_flow is empty.",
                                      Markup("point <code>biasmirror build --mimic-root DIR</code> at a MIMIC-IV folder "
                                             "(or <code>biasmirror synth mimic</code>), or add the Bordeaux extract, then "
                                             "build.")))
    else:
        svg = figures.cohort_flow(flow, "cohort flow")
        section.blocks.append(figure(
            "fig-cohort-flow", svg,
            Markup("<b>Cohort flow.</b> Blue boxes: records left after each step, from the source records down to the "
            "train/test split (green); orange boxes: records a step excluded, with the reason. Steps that removed "
            "nothing are not drawn. No sign to read: all numbers are counts.")))
    counts = marts.counts("triage_cohort", ["dataset", "sex", "documented_level"])
    if not counts.empty:
        wide = counts.pivot_table(index=["dataset", "documented_level"], columns="sex", values="n", fill_value=0)
        wide = wide.reset_index()
        for sex in ("F", "M"):
            if sex not in wide:
                wide[sex] = 0
        totals = wide.groupby("dataset")[["F", "M"]].transform("sum")
        out = pd.DataFrame({
            "data set": wide["dataset"], "documented level": wide["documented_level"].astype(int),
            "female": [f"{int(n):,} ({n / t:.1%})" if t else "0" for n, t in zip(wide["F"], totals["F"])],
            "male": [f"{int(n):,} ({n / t:.1%})" if t else "0" for n, t in zip(wide["M"], totals["M"])],
        })
        section.blocks.append(table("tbl-levels", out, Markup("<b>Documented triage levels by patient sex</b> (share of the "
                                    "sex's records in the analysis cohort). Level 1 is the most urgent."),
                                    numeric=("female", "male")))
    return section


def performance(marts: Marts) -> Section:
    section = Section("performance", "Triage models", "How well each model reproduces the documented level on the "
                      "test split (the study's Table 1 and Figure 2). The audit is only as meaningful as this agreement.")
    frame = marts.frame("model_performance")
    if frame.empty:
        section.blocks.append(no_data("performance-no-data", "audit.model_performance is empty.", BUILD))
        return section
    setting = "full" if "full" in set(frame["setting"]) else _main_setting(frame)
    frame = frame[frame["setting"] == setting]
    order = ["accuracy", "kappa_linear", "kappa_quadratic", "macro_precision", "macro_recall", "macro_f1"]
    rows = []
    for (dataset, model), group in frame.groupby(["dataset", "model"]):
        row = {"data set": dataset, "model": model, "test records": f"{int(group['n_records'].max()):,}"}
        parameters = _parameter_count(group)
        row["parameters"] = f"{parameters:,.0f}" if parameters else "–"
        for metric in order:
            hit = group[group["metric"] == metric]
            row[metric] = ("–" if hit.empty else
                           numbers.interval(hit['estimate'].iloc[0], hit['ci_low'].iloc[0], hit['ci_high'].iloc[0],
                                            digits=3, signed=False))
        rows.append(row)
    section.blocks.append(table("tbl-model-performance", pd.DataFrame(rows),
                                html("<b>Model performance</b> against the documented level, setting {}, with 95% "
                                     "bootstrap intervals (test records resampled). Higher is better for every column.",
                                     setting),
                                numeric=tuple(order) + ("test records", "parameters")))
    kappa = frame[frame["metric"] == "kappa_linear"].copy()
    kappa["parameters"] = [_parameter_count(frame[(frame["dataset"] == d) & (frame["model"] == m)]) or np.nan
                           for d, m in zip(kappa["dataset"], kappa["model"])]
    kappa["model"] = [m if kappa["dataset"].nunique() == 1 else f"{m} ({d})" for d, m in zip(kappa["dataset"], kappa["model"])]
    svg = figures.kappa_by_size(kappa.sort_values(["parameters", "model"]), "kappa by model size")
    sized = kappa["parameters"].notna().any()
    section.blocks.append(figure(
        "fig-kappa-size", svg,
        Markup("<b>Agreement with the documented level against model size</b> (the study's Figure 2): linearly "
               "weighted Cohen's kappa with its 95% interval, ")
        + (Markup("over the number of parameters (log scale).") if sized else
           Markup("per model - no parameter counts are recorded yet (the fine-tuned models of "
                  "<code>biasmirror train</code> record theirs)."))
        + Markup(" Higher is better; reported human inter-rater agreement on structured triage scales is "
                 "about 0.61-0.81.")))
    return section


def _parameter_count(group: pd.DataFrame) -> float | None:
    for column in ("n_parameters", "parameter_count", "parameters"):
        if column in group.columns:
            values = pd.to_numeric(group[column], errors="coerce").dropna()
            if len(values):
                return float(values.iloc[0])
    return None


def headline(marts: Marts) -> Section:
    section = Section("table2", "Paired metrics per setting",
                      "Every paired metric with its 95% bootstrap interval, per setting (the study's Table 2). "
                      "full: the sex field is flipped and the text rewritten; text_only: no sex field, text rewritten; "
                      "tabular_only: no free text, sex field flipped.")
    frame = _paired_metrics(marts, stratum_name="overall")
    if frame.empty:
        section.blocks.append(no_data("table2-no-data", "audit.paired_metrics has no pairs.", BUILD))
        return section
    noise = _noise_floor(marts)
    for dataset, model, generator in _groups(frame):
        group = frame[(frame["dataset"] == dataset) & (frame["model"] == model) & (frame["generator"] == generator)]
        settings = _settings_in(group)
        rows = []
        n_row = {"metric": "pairs"}
        for setting in settings:
            n_row[setting] = f"{int(group.loc[group['setting'] == setting, 'n_pairs'].iloc[0]):,}"
        rows.append(n_row)
        for metric, metric_rows in sorted(group.groupby("metric"), key=lambda item: item[1]["metric_order"].iloc[0]):
            row = {"metric": metric}
            for setting in settings:
                hit = metric_rows[metric_rows["setting"] == setting]
                row[setting] = "–" if hit.empty else _tested_cell(metric, hit.iloc[0])
            rows.append(row)
        adjusted = _placebo_adjusted(marts, dataset, model, generator)
        for metric in (("pdr", "pooled_rate", "nmd", "dts_m_to_f", "dts_f_to_m") if not adjusted.empty else ()):
            hits = adjusted[adjusted["metric"] == metric]
            row = {"metric": f"beyond the placebo: {metric}"}
            for setting in settings:
                hit = hits[hits["setting"] == setting]
                row[setting] = "–" if hit.empty else _tested_cell(metric, hit.iloc[0])
            rows.append(row)
        placebo = frame[(frame["dataset"] == dataset) & (frame["model"] == model)
                        & (frame["generator"] == generator + PLACEBO_SUFFIX)]
        for metric in ("pdr", "pooled_rate"):
            hits = placebo[placebo["metric"] == metric]
            if not hits.empty:
                row = {"metric": f"placebo rewrite: {metric}"}
                for setting in settings:
                    hit = hits[hits["setting"] == setting]
                    row[setting] = "–" if hit.empty else _metric_cell(metric, *hit[["estimate", "ci_low", "ci_high"]].iloc[0])
                rows.append(row)
        for label, values in _noise_rows(noise, dataset, model, generator, settings):
            rows.append({"metric": label, **values})
        section.blocks.append(table(
            slug("tbl-table2", dataset, model, generator), pd.DataFrame(rows),
            html("<b>{}.</b> Proportions in percent (percentage points for "
            "differences), nmd in levels. Signs: pooled_rate &gt; 0, nmd &gt; 0 and dts_m_to_f &gt; 0 mean the "
            "female presentation gets the less severe level more often; dts_f_to_m &lt; 0 means the same from the "
            "female originals' side. Placebo and noise-floor rows (when present) give how often predictions "
            "change with no sex change at all (a same-sex rewrite; the same input scored twice) - read pdr against "
            "them. q: the q-value over the tested metrics of all pairs (var p_adjust_method); mde: the effect "
            "detectable with 80% power, where the interval covers zero. Rows 'beyond the placebo' (when a placebo "
            "ran): the swap's effect minus the placebo's on the same records, with a paired interval - the raw "
            "effect also holds what any rewrite does, so a claim of sex bias rests on these rows.",
            _group_title(dataset, model, generator)), numeric=tuple(settings)))
    shifts = marts.frame("probability_shifts", stratum_name="overall")
    if not shifts.empty:
        shifts = shifts[~_placebo_mask(shifts["generator"])]
        out = pd.DataFrame({
            "data set": shifts["dataset"], "model": shifts["model"], "generator": shifts["generator"],
            "setting": shifts["setting"], "metric": shifts["metric"],
            "female − male [95% CI]": [_pct(e, lo, hi, scale=1.0, unit="") for e, lo, hi in
                                       zip(shifts["estimate"], shifts["ci_low"], shifts["ci_high"])],
            "pairs": [f"{int(n):,}" for n in shifts["n_pairs"]],
        })
        section.blocks.append(table("tbl-probability-shifts", out,
                                    Markup("<b>Beyond argmax flips</b> (audit.probability_shifts): mean per-pair shift between "
                                    "the female and the male presentation of the expected level (&gt; 0: the female "
                                    "presentation is scored less severe) and of P(level ≤ 2) (&lt; 0: the female "
                                    "presentation is less likely to get a high-acuity level)."),
                                    numeric=("female − male [95% CI]", "pairs")))
    return section


def _forest_rows(frame: pd.DataFrame, series: Callable[[str], str], color: Callable[[str], str],
                 small_flag: bool = False) -> list[figures.Interval]:
    """The forest plot's rows of one frame of overall metrics (FOREST_METRICS, per setting): `series` names the
    legend entry of a setting, `color` its colour; `small_flag` marks small strata (is_small_stratum)."""
    rows = []
    for setting in (_settings_in(frame) if not frame.empty else []):
        for metric, label in FOREST_METRICS:
            hit = frame[(frame["setting"] == setting) & (frame["metric"] == metric)]
            if hit.empty:
                continue
            r = hit.iloc[0]
            rows.append(figures.Interval(label, series(setting), r.estimate, r.ci_low, r.ci_high, color(setting),
                                         bool(r.is_small_stratum) if small_flag else False))
    return rows


def forest_plot(marts: Marts) -> Section:
    section = Section("figure3", "Directional skews per setting",
                      "DTS per direction, NATS and the pooled rate with their intervals, per setting (the study's "
                      "Figure 3), next to the placebo rewrites and the noise floor that qualify them.")
    frame = _paired_metrics(marts, stratum_name="overall")
    if frame.empty:
        section.blocks.append(no_data("figure3-no-data", "audit.paired_metrics has no pairs.", BUILD))
        return section
    for dataset, model, generator in _groups(frame):
        group = frame[(frame["dataset"] == dataset) & (frame["model"] == model) & (frame["generator"] == generator)]
        extra = frame[(frame["dataset"] == dataset) & (frame["model"] == model)
                      & (frame["generator"] == generator + PLACEBO_SUFFIX)]
        adjusted = _placebo_adjusted(marts, dataset, model, generator)
        rows = (_forest_rows(group, lambda setting: setting, figures.color_for, small_flag=True)
                + _forest_rows(extra, lambda setting: f"placebo rewrite ({setting})", lambda _: "#7f8c8d")
                + _forest_rows(adjusted, lambda setting: f"beyond the placebo ({setting})", lambda _: "#8e44ad"))
        svg = figures.forest(rows, _group_title(dataset, model, generator), "percentage points", f"forest {dataset} {model} {generator}")
        section.blocks.append(figure(
            slug("fig-forest", dataset, model, generator), svg,
            html("<b>Directional skews, {}.</b> Points: estimates; bars: 95% bootstrap intervals; one colour per "
                 "setting", _group_title(dataset, model, generator))
            + (Markup(", grey: placebo rewrites (same-sex rewrites through the same generator: what a rewrite alone "
                      "does; a sex effect should stand clear of them)") if not extra.empty else Markup(""))
            + (Markup(", purple: the effect beyond the placebo (swap minus placebo on the same records, paired "
                      "interval): the one a claim of sex bias rests on") if not adjusted.empty else Markup(""))
            + Markup(". Reading the sign: "
            "DTS M→F &gt; 0 - male records rewritten as female more often move to a less severe level than to a "
            "more severe one; DTS F→M &lt; 0 - female records rewritten as male more often move to a more severe "
            "level; pooled rate &gt; 0 - the female presentation of the same content gets the less severe level "
            "more often. NATS(+) &lt; 0 and NATS(−) &gt; 0 both say the same from the conditional-shift side. "
            "A bar that crosses zero is compatible with no skew.")))
    section.blocks.extend(_quality_blocks(marts, frame))
    return section


# ---- noise floor, placebo and counterfactual quality (marts written by other parts of the pipeline) --------

NOISE_TABLE = "noise_floor"
QUALITY_TABLE = "counterfactual_quality"
QUALITY_COLUMNS = ("dataset", "language", "generator", "n_copies", "flagged_share", "residual_share",
                   "residual_agreement_share", "residual_any_share", "second_opinion_residual_share",
                   "content_change_share", "round_trip_differs_share", "content_preserved_share", "mean_length_ratio", "mean_cosine_similarity", "p05_cosine_similarity")


def _noise_floor(marts: Marts) -> pd.DataFrame:
    return marts.frame(NOISE_TABLE)


def _noise_rows(noise: pd.DataFrame, dataset: str, model: str, generator: str,
                settings: list[str]) -> list[tuple[str, dict]]:
    """The self-flip rate (a share, so comparable with pdr) per setting."""
    if noise.empty or not {"dataset", "model", "setting", "metric", "estimate"} <= set(noise.columns):
        return []
    subset = noise[(noise["dataset"] == dataset) & (noise["model"] == model) & (noise["metric"] == "self_flip_rate")]
    if subset.empty:
        return []
    values = {}
    for setting in settings:
        hit = subset[subset["setting"] == setting]
        if "generator" in hit and (hit["generator"] == generator).any():
            hit = hit[hit["generator"] == generator]
        values[setting] = "–" if hit.empty else _pct(hit["estimate"].iloc[0], hit["ci_low"].iloc[0],
                                                     hit["ci_high"].iloc[0]).lstrip("+")
    return [("noise floor: self_flip_rate", values)]


def _quality_blocks(marts: Marts, metrics: pd.DataFrame) -> list[str]:
    """PDR of the sex swap beside the PDR of placebo rewrites and the self-flip rate, then the quality of the
    counterfactual copies: what a sex effect has to stand out from."""
    blocks: list[Markup] = [Markup("<h3>What qualifies these effects</h3>")]
    noise = _noise_floor(marts)
    noise = noise[noise["metric"] == "self_flip_rate"] if not noise.empty else noise
    has_placebo = _placebo_mask(metrics["generator"]).any()
    for dataset, model, generator in _groups(metrics):
        rows = []
        for setting in _settings_in(metrics[(metrics["dataset"] == dataset) & (metrics["model"] == model)]):
            for series, gen, color in (("PDR, sex swap", generator, "#1b6ca8"),
                                       ("PDR, placebo rewrite", generator + PLACEBO_SUFFIX, "#7f8c8d")):
                hit = metrics[(metrics["dataset"] == dataset) & (metrics["model"] == model) & (metrics["generator"] == gen)
                              & (metrics["setting"] == setting) & (metrics["metric"] == "pdr")]
                if not hit.empty:
                    r = hit.iloc[0]
                    rows.append(figures.Interval(setting, series, r.estimate, r.ci_low, r.ci_high, color,
                                                 bool(r.is_small_stratum)))
            flips = noise[(noise["dataset"] == dataset) & (noise["model"] == model) & (noise["setting"] == setting)] \
                if not noise.empty else noise
            if not flips.empty:
                r = flips.iloc[0]
                rows.append(figures.Interval(setting, "self-flip rate (noise floor)", r.estimate, r.ci_low, r.ci_high,
                                             "#d68910", False))
        if not any(r.series != "PDR, sex swap" for r in rows):
            continue
        svg = figures.forest(rows, _group_title(dataset, model, generator), "percent of pairs / records",
                             f"noise floor {dataset} {model} {generator}")
        blocks.append(figure(
            slug("fig-noise-floor", dataset, model, generator), svg,
            html("<b>How often predictions change without a sex change, {}.</b> "
            "Blue: PDR, the share of pairs whose level changes when the sex is swapped; grey: the same for placebo "
            "rewrites (same-sex rewrites through the same generator); orange: the self-flip rate, the share of test "
            "originals whose level changes when the very same input is scored again in another batch composition. "
            "All are shares (no sign): only the part of the PDR above both can be attributed to the sex swap.",
            _group_title(dataset, model, generator))))
    if noise.empty:
        blocks.append(no_data("noise-floor-no-data", "No noise floor yet (audit.noise_floor): how often a model's "
                              "prediction changes when the very same input is scored again.",
                              Markup("score an LLM triage model with <code>biasmirror score</code> (it re-scores the "
                                     "test originals unless <code>--no-rescore</code>), then <code>biasmirror "
                                     "build</code>.")))
    if not has_placebo:
        blocks.append(no_data("placebo-no-data", "No placebo rewrites yet: same-sex rewrites through the same "
                              "generator measure how much a rewrite alone moves predictions.",
                              Markup("<code>biasmirror counterfactuals --placebo</code>, score the new inputs, "
                                     "then <code>biasmirror build</code>.")))
    quality = marts.frame(QUALITY_TABLE)
    if quality.empty:
        blocks.append(no_data("quality-no-data", "No counterfactual quality diagnostics yet "
                              "(audit.counterfactual_quality: residual references to the original sex, preserved "
                              "numbers, drugs and negations, length ratio, semantic similarity).",
                              Markup("<code>biasmirror counterfactuals</code> (add <code>--similarity</code> for "
                                     "the embedding similarity), then <code>biasmirror build</code>.")))
    else:
        shown = quality[[c for c in QUALITY_COLUMNS if c in quality.columns]].copy()
        for column in shown.columns:
            if pd.api.types.is_float_dtype(shown[column]):
                shown[column] = shown[column].map(lambda v: "–" if pd.isna(v) else f"{v:.3f}")
            elif pd.api.types.is_integer_dtype(shown[column]):
                shown[column] = shown[column].map(lambda v: f"{int(v):,}")
        blocks.append(table("tbl-counterfactual-quality", shown,
                            Markup("<b>Counterfactual quality</b> per data set, language and generator (audit."
                            "counterfactual_quality; placebo generators included). A good rewrite changes sex/gender "
                            "references and nothing else: few copies flagged, few residual words of the wrong sex, "
                            "numbers, drugs and negations preserved (shares near 1), a length ratio near 1 and a "
                            "cosine similarity near 1. Effects measured with a poor generator mix the sex change "
                            "with other edits. <b>residual_agreement_share</b>: copies with a word that agrees with "
                            "the patient and still carries the original sex (French \"il est gênée\"; adjectives, "
                            "participles, role nouns); <b>residual_any_share</b>: either kind of residual. The second opinion "
                            "reads each original apart from the swapper and aligns the copy with it: "
                            "<b>second_opinion_residual_share</b>: copies that leave a word referring to the patient "
                            "in the original sex; <b>content_change_share</b>: copies that change a word not about "
                            "the patient (a relative's or a clinician's word, an adjective agreeing with an organ or "
                            "a disease); <b>round_trip_differs_share</b>: copies that, swapped back, do not give the "
                            "original (equally correct spellings such as Mrs/Ms aside)."),
                            numeric=tuple(c for c in shown.columns if c not in ("dataset", "language", "generator"))))
    blocks.append(_review_block(marts))
    return blocks


REVIEW_TABLE = "counterfactual_review"


def _review_block(marts: Marts) -> Markup:
    """The clinicians' review of sampled copies (audit.counterfactual_review), beside the automatic checks."""
    review = marts.frame(REVIEW_TABLE)
    if review.empty:
        return no_data("review-no-data", "No manual review of counterfactual copies yet (audit.counterfactual_review: "
                       "the share of sampled copies a clinician judged invalid, with an exact interval).",
                       Markup("<code>biasmirror review export --dataset D --n 200 --out review.csv</code>, have a clinician "
                       "fill in the judgement and reason columns, <code>biasmirror review import review.csv</code>, "
                       "then <code>biasmirror build</code>."))
    rows = []
    for r in review.sort_values(["dataset", "language", "generator"]).itertuples(index=False):
        rows.append({"dataset": r.dataset, "language": r.language, "generator": r.generator,
                     "reviewed": f"{int(r.n_reviewed):,}", "invalid": f"{int(r.n_invalid):,}",
                     "invalid share [95% exact CI]": numbers.interval(r.invalid_share, r.ci_low, r.ci_high, digits=3,
                                                                      signed=False),
                     "flagged by the automatic check": f"{int(r.n_auto_flagged):,}",
                     "invalid and flagged": f"{int(r.n_invalid_auto_flagged):,}"})
    frame = pd.DataFrame(rows)
    return table("tbl-counterfactual-review", frame,
                 Markup("<b>Manual review of counterfactual copies</b> (audit.counterfactual_review): a clinician judged a "
                 "stratified random sample of copies valid or invalid; the invalid share has an exact "
                 "(Clopper-Pearson) 95% interval per language and generator. The last two columns set the automatic "
                 "check (a residual word or agreement of the original sex) beside the verdicts on the same copies."),
                 numeric=tuple(c for c in frame.columns if c not in ("dataset", "language", "generator")))


def comparisons(marts: Marts) -> Section:
    section = Section("comparisons", "Comparisons",
                      "Differences of a metric between settings, models (e.g. pretrained vs trained from scratch, "
                      "original vs neutralized) and counterfactual generators, with paired bootstrap intervals: both "
                      "sides are resampled with the same pair weights, so the interval accounts for the pairing.")
    frame = marts.frame("metric_comparisons", stratum_name="overall")
    if frame.empty:
        section.blocks.append(no_data("comparisons-no-data", "audit.metric_comparisons has no comparisons (it needs "
                                      "at least two settings, models or generators over the same pairs).", BUILD))
        section.blocks.extend(_sex_gap_block(marts))
        return section
    metrics = ("pooled_rate", "dts_m_to_f", "dts_f_to_m", "nats_plus", "nats_minus")
    kinds = _model_kinds(marts)
    for kind in ("setting", "model", "generator"):
        subset = frame[(frame["comparison"] == kind) & frame["metric"].isin(metrics)]
        if kind != "generator":  # placebo pairs are compared with their generator's pairs only
            subset = subset[~_placebo_mask(subset["generator_a"]) & ~_placebo_mask(subset["generator_b"])]
        if subset.empty:
            continue
        several_generators = subset["generator_a"].nunique() > 1
        rows = []
        labels = dict(FOREST_METRICS)
        for r in subset.itertuples():
            via = f" · {r.generator_a}" if several_generators else ""
            if kind == "setting":
                label = f"{r.dataset} · {r.model_a}{via}: {r.setting_b} − {r.setting_a}"
            elif kind == "model":
                label = (f"{r.dataset} · {r.setting_a}{via}: {r.model_b} − {r.model_a}"
                         f"{_model_contrast(kinds, r.dataset, r.model_a, r.model_b)}")
            elif r.generator_b == r.generator_a + PLACEBO_SUFFIX:
                label = f"{r.dataset} · {r.model_a} · {r.setting_a}: placebo − swap ({r.generator_a})"
            else:
                label = f"{r.dataset} · {r.model_a} · {r.setting_a}: {r.generator_b} − {r.generator_a}"
            rows.append(figures.Interval(label, labels[r.metric], r.difference, r.ci_low, r.ci_high,
                                         figures.sign_color(r.metric, r.difference), bool(r.is_small_stratum)))
        rows.sort(key=lambda i: i.label)
        svg = figures.panel_forest(rows, [labels[m] for m in metrics if m in set(subset["metric"])],
                                   f"differences between {kind}s (b − a)", f"comparisons {kind}",
                                   xlabel="b − a, percentage points", label_width=3.4)
        section.blocks.append(figure(
            f"fig-comparisons-{kind}", svg,
            html("<b>Differences between {}s</b>, all pairs: metric(b) − metric(a) for each labelled b − a, with 95% "
            "paired bootstrap intervals. Red: side b tilts further toward the female presentation being triaged as "
            "less severe (a larger pooled rate, DTS M→F or NATS(−); a smaller DTS F→M or NATS(+)); blue: further "
            "toward the male presentation. A bar that crosses zero: no detectable difference. Hollow: a side with "
            "fewer pairs than <code>min_stratum_pairs</code>.", kind)))
        shown = subset[subset["metric"] == "pooled_rate"]
        if not shown.empty:
            out = pd.DataFrame({
                "data set": shown["dataset"],
                "a": [f"{m} / {g} / {s}" for m, g, s in zip(shown["model_a"], shown["generator_a"], shown["setting_a"])],
                "b": [f"{m} / {g} / {s}" for m, g, s in zip(shown["model_b"], shown["generator_b"], shown["setting_b"])],
                "pooled rate a": [_pct(v) for v in shown["estimate_a"]],
                "pooled rate b": [_pct(v) for v in shown["estimate_b"]],
                "b − a [95% CI]": [_pct(d, lo, hi) for d, lo, hi in zip(shown["difference"], shown["ci_low"], shown["ci_high"])],
            })
            section.blocks.append(table(f"tbl-comparisons-{kind}", out,
                                        html("<b>Pooled rate, {} comparisons</b> (model / generator / setting of each "
                                             "side).", kind),
                                        numeric=("pooled rate a", "pooled rate b", "b − a [95% CI]")))
    section.blocks.extend(_sex_gap_block(marts))
    return section


def _model_kinds(marts: Marts) -> dict[tuple[str, str], tuple[str | None, str | None]]:
    """(data set, model) -> (kind, input transform), for models trained here (audit.model_performance)."""
    frame = marts.frame("model_performance")
    if frame.empty or "model_kind" not in frame.columns:
        return {}
    transform = frame["input_transform"] if "input_transform" in frame.columns else pd.Series(None, index=frame.index)
    return {(d, m): (k if isinstance(k, str) else None, t if isinstance(t, str) else None)
            for d, m, k, t in zip(frame["dataset"], frame["model"], frame["model_kind"], transform)}


PRETRAINED_KINDS = ("lora", "causal-lm", "encoder-finetuned")
SCRATCH_KINDS = ("roberta-scratch",)


def _model_contrast(kinds: dict, dataset: str, model_a: str, model_b: str) -> str:
    """What a model comparison contrasts, when the models' kinds say it: the study's two comparisons."""
    kind_a, transform_a = kinds.get((dataset, model_a), (None, None))
    kind_b, transform_b = kinds.get((dataset, model_b), (None, None))
    if {transform_a or "none", transform_b or "none"} == {"none", "neutralized"}:
        return " (neutralized vs original)" if transform_b == "neutralized" else " (original vs neutralized)"
    if kind_a in PRETRAINED_KINDS and kind_b in SCRATCH_KINDS:
        return " (from scratch vs pretrained)"
    if kind_a in SCRATCH_KINDS and kind_b in PRETRAINED_KINDS:
        return " (pretrained vs from scratch)"
    return ""


def _sex_gap_block(marts: Marts) -> list[Markup]:
    gap = marts.frame("sex_gap")
    if gap.empty:
        return [no_data("sex-gap-no-data", "No neutralization baseline yet (audit.sex_gap: the M−F difference of "
                        "mean predicted level for a model and its twin trained on inputs with every sex/gender "
                        "marker removed).", Markup("train and score a neutralized model (the triage-model commands' "
                        "neutralization option), then <code>biasmirror build</code>."))]
    gap = gap.sort_values(["dataset", "setting", "model"])
    out = pd.DataFrame({
        "data set": gap["dataset"], "model": gap["model"], "setting": gap["setting"],
        "inputs": gap["input_transform"].fillna("none") if "input_transform" in gap else "none",
        "female / male records": [f"{int(f):,} / {int(m):,}" for f, m in zip(gap["n_female"], gap["n_male"])],
        "M − F mean level [95% CI]": [_pct(e, lo, hi, scale=1.0, unit="") for e, lo, hi in
                                      zip(gap["m_minus_f"], gap["m_minus_f_ci_low"], gap["m_minus_f_ci_high"])],
        "Mann–Whitney p": [numbers.p_value(p) for p in gap["mann_whitney_p"]],
    })
    return [table("tbl-sex-gap", out,
                  Markup("<b>Neutralization baseline</b> (audit.sex_gap): on the test originals, mean predicted level of male "
                  "patients minus that of female patients, with its 95% bootstrap interval and the two-sided "
                  "Mann–Whitney p-value. &lt; 0: men are scored more severe (lower levels) on average. A gap that "
                  "vanishes for the model trained on neutralized inputs was carried by the sex/gender markers."),
                  numeric=("female / male records", "M − F mean level [95% CI]", "Mann–Whitney p"))]


def _strata_section(marts: Marts, section: Section, stratum_name: str, order: tuple[str, ...], what: str,
                    how: Markup) -> Section:
    frame = _paired_metrics(marts, stratum_name=stratum_name)
    if frame.empty:
        section.blocks.append(no_data(f"strata-{stratum_name}-no-data", f"audit.paired_metrics has no {what} stratum.", how))
        return section
    for dataset, model, generator in _groups(frame):
        group = frame[(frame["dataset"] == dataset) & (frame["model"] == model) & (frame["generator"] == generator)]
        setting = _main_setting(group)
        group = group[group["setting"] == setting]
        svg = figures.strata_forest(group, STRATA_METRICS, order, f"{_group_title(dataset, model, generator)} · setting {setting}",
                                    f"strata {stratum_name} {dataset} {model} {generator}")
        section.blocks.append(figure(
            slug("fig-strata", stratum_name, dataset, model, generator), svg,
            html("<b>By {}, {}, setting {}.</b> Pooled rate and DTS per "
            "direction with 95% intervals in each stratum (n = pairs). Red: the female presentation is the one "
            "more often triaged as less severe (pooled rate &gt; 0, DTS M→F &gt; 0, DTS F→M &lt; 0); blue: the "
            "male one. Hollow markers and \"small\": strata too small for a stable estimate.",
            what, _group_title(dataset, model, generator), setting)))
    return section


def acuity_strata(marts: Marts) -> Section:
    section = Section("acuity", "By documented acuity",
                      "The study found the largest divergence at intermediate acuity; the paired metrics and the "
                      "acuity odds ratio per documented level (the study's Supplementary Tables 3-6).")
    _strata_section(marts, section, "documented_level", ("1", "2", "3", "4", "5"), "documented level", BUILD)
    section.blocks.extend(_odds_ratio_blocks(marts))
    return section


def _odds_ratio_blocks(marts: Marts) -> list[Markup]:
    """The acuity odds ratio per documented level (audit.acuity_odds_ratios), main setting of each group."""
    frame = marts.frame("acuity_odds_ratios", stratum_name="documented_level")
    if frame.empty:
        return []
    blocks = []
    for dataset, model, generator in _groups(frame):
        group = frame[(frame["dataset"] == dataset) & (frame["model"] == model) & (frame["generator"] == generator)]
        setting = _main_setting(group)
        group = group[group["setting"] == setting].sort_values("stratum_value")
        out = pd.DataFrame({
            "documented level": group["stratum_value"],
            "pairs": [f"{int(n):,}" for n in group["n_pairs"]],
            "F→M up / down": [f"{int(a):,} / {int(b):,}" for a, b in zip(group["n_up_f_to_m"], group["n_down_f_to_m"])],
            "M→F up / down": [f"{int(c):,} / {int(d):,}" for c, d in zip(group["n_up_m_to_f"], group["n_down_m_to_f"])],
            "odds ratio [95% CI]": [_odds_ratio_cell(r) for r in group.itertuples()],
            "flags": [_odds_ratio_flags(r) for r in group.itertuples()],
        })
        blocks.append(table(
            slug("tbl-odds-ratios", dataset, model, generator), out,
            html("<b>Acuity odds ratio, {}, setting {}.</b> Among changed pairs, the odds of an up move (the copy "
                 "less severe) rather than a down move for female records presented as male, over the same odds for "
                 "male records presented as female: (F→M up / down) / (M→F up / down). &lt; 1: the male presentation "
                 "of a female record is judged more severe more often than the female presentation of a male record "
                 "(the study: 0.81 at MIMIC-IV level 3). \"corrected\": a zero cell, 0.5 added to every cell; "
                 "\"n/a\": no contrast (the reason is given); \"sparse\": too few changes in a cell, or replicates "
                 "that needed the correction or had no value - describe, do not infer.",
                 _group_title(dataset, model, generator), setting),
            numeric=("pairs", "F→M up / down", "M→F up / down", "odds ratio [95% CI]")))
    return blocks


def _odds_ratio_cell(row) -> str:
    if row.odds_ratio is None or pd.isna(row.odds_ratio):
        return f"n/a ({row.undefined_reason})" if isinstance(row.undefined_reason, str) else "n/a"
    return numbers.interval(row.odds_ratio, row.ci_low, row.ci_high, signed=False)


def _odds_ratio_flags(row) -> str:
    flags = []
    if bool(row.zero_cell_corrected):
        flags.append("corrected")
    if int(row.n_boot_zero_cell) or int(row.n_boot_undefined):
        flags.append(f"{int(row.n_boot_zero_cell)} corrected / {int(row.n_boot_undefined)} empty replicates")
    if bool(row.is_sparse):
        flags.append("sparse")
    if bool(row.is_small_stratum):
        flags.append("small")
    return ", ".join(flags)


def presentation_strata(marts: Marts) -> Section:
    section = Section("presentation", "By presentation and age",
                      "Presentations where a one-level shift matters most (chest pain, abdominal pain, dyspnoea, "
                      "neurological, sepsis-like: keyword patterns of seeds/presentation_groups.csv on the chief "
                      "complaint, then the history), and age bands.")
    _strata_section(marts, section, "presentation_group", PRESENTATION_ORDER, "presentation group", BUILD)
    return _strata_section(marts, section, "age_band", (), "age band", BUILD)


def dyads(marts: Marts) -> Section:
    section = Section("dyads", "Nurse × patient sex",
                      "The study's Figure 6: the skew for each combination of the triage nurse's sex and the "
                      "patient's documented sex (data sets that record the nurse's sex, such as Bordeaux).")
    frame = _paired_metrics(marts, stratum_name="nurse_patient_dyad")
    if frame.empty:
        section.blocks.append(no_data("dyads-no-data", "No nurse × patient sex stratum (only data sets that record "
                                      "the triage nurse's sex have one).",
                                      Markup("build the Bordeaux cohort (<code>biasmirror synth bordeaux</code> gives "
                                             "a synthetic one), score it, then <code>biasmirror build</code>.")))
        return section
    parsed = frame["stratum_value"].str.extract(r"^(?P<nurse_sex>[FM])_nurse_(?P<patient_sex>[FM])_patient$")
    frame = pd.concat([frame, parsed], axis=1).dropna(subset=["nurse_sex"])
    for dataset, model, generator in _groups(frame):
        group = frame[(frame["dataset"] == dataset) & (frame["model"] == model) & (frame["generator"] == generator)]
        setting = _main_setting(group)
        group = group[group["setting"] == setting]
        cells = []
        for (nurse, patient), cell in group.groupby(["nurse_sex", "patient_sex"]):
            metric = "dts_m_to_f" if patient == "M" else "dts_f_to_m"
            hit = cell[cell["metric"] == metric]
            if hit.empty:
                continue
            r = hit.iloc[0]
            cells.append({"nurse_sex": nurse, "patient_sex": patient, "estimate": r.estimate, "ci_low": r.ci_low,
                          "ci_high": r.ci_high, "n_pairs": r.n_pairs, "small": bool(r.is_small_stratum)})
        svg = figures.dyad_heatmap(pd.DataFrame(cells), f"dyads {dataset} {model} {generator}")
        section.blocks.append(figure(
            slug("fig-dyad", dataset, model, generator), svg,
            html("<b>Nurse × patient sex, {}, setting {}.</b> Each cell: "
            "the DTS of the direction that starts from the patient's documented sex (male patients: DTS M→F; female "
            "patients: DTS F→M), 95% interval and pairs. Colour: red when that DTS says the female presentation is "
            "triaged as less severe - DTS M→F &gt; 0 for a male patient (rewritten as female, the record moves to "
            "less severe levels) or DTS F→M &lt; 0 for a female patient (rewritten as male, it moves to more severe "
            "levels); blue for the opposite; the colour scale gives |DTS|. Associations only: the design does not "
            "establish a mechanism.", _group_title(dataset, model, generator), setting)))
    return section


# The generator name of imported pairs (models/intermediate/pairs/int_pairs_unioned.sql), and the strata that do not
# come from a stratum_<name> column of the import.
IMPORTED_GENERATOR = "imported"
DERIVED_STRATA = ("overall", "documented_level")
IMPORTED_STRATA_METRICS = (("pooled_rate", "pooled rate"), ("dts_m_to_f", "DTS M→F"), ("dts_f_to_m", "DTS F→M"),
                           ("pdr", "PDR"), ("nmd", "NMD"))


def imported_strata(marts: Marts) -> Section:
    """A forest plot and a table for every stratum variable of imported pairs (their stratum_<name> columns)."""
    section = Section("imported-strata", "By the imported strata",
                      "Every stratum_<name> column of imported pairs: the paired metrics in each of its values, "
                      "for every data set, model and setting imported.")
    frame = _paired_metrics(marts, generator=IMPORTED_GENERATOR)
    if not frame.empty:
        frame = frame[~frame["stratum_name"].isin(DERIVED_STRATA)]
    if frame.empty:
        section.blocks.append(no_data("imported-strata-no-data", "No imported pairs with stratum_<name> columns.",
                                      Markup("<code>biasmirror import-pairs</code> a file with stratum columns, then "
                                             "<code>biasmirror build</code>.")))
        return section
    for dataset, model, generator in _groups(frame):
        group = frame[(frame["dataset"] == dataset) & (frame["model"] == model) & (frame["generator"] == generator)]
        for setting in _settings_in(group):
            for stratum_name in sorted(group["stratum_name"].unique()):
                rows = group[(group["setting"] == setting) & (group["stratum_name"] == stratum_name)]
                if rows.empty:
                    continue
                title = f"{dataset} · model {model} · setting {setting} · {stratum_name}"
                svg = figures.strata_forest(rows, STRATA_METRICS, (), title,
                                            f"imported {stratum_name} {dataset} {model} {setting}")
                section.blocks.append(figure(
                    slug("fig-imported", stratum_name, dataset, model, setting), svg,
                    html("<b>By {}, {} · model {}, setting {}.</b> Pooled rate and DTS per direction with 95% "
                         "intervals in each value of the imported column stratum_{} (n = pairs). Red: the female "
                         "presentation is the one more often triaged as less severe (pooled rate &gt; 0, DTS M→F "
                         "&gt; 0, DTS F→M &lt; 0); blue: the male one. Hollow markers and \"small\": values with "
                         "too few pairs for a stable estimate.", stratum_name, dataset, model, setting, stratum_name)))
                section.blocks.append(table(
                    slug("tbl-imported", stratum_name, dataset, model, setting), _stratum_table(rows),
                    html("<b>By {}, {} · model {}, setting {}</b>: every paired metric in the figure above, with "
                         "PDR (share of pairs whose level changed) and NMD (mean level of the female minus the male "
                         "presentation; &gt; 0: the female one less severe). \"small\": fewer pairs than "
                         "<code>min_stratum_pairs</code>; \"sparse\": too few changed pairs behind the metric "
                         "for its interval to be trusted.", stratum_name, dataset, model, setting),
                    numeric=("pairs",) + tuple(label for _, label in IMPORTED_STRATA_METRICS)))
    return section


def _stratum_table(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per stratum value: pairs, the metrics with their intervals, flags."""
    out = []
    for value, stratum in sorted(rows.groupby("stratum_value"), key=lambda item: str(item[0])):
        by_metric = stratum.set_index("metric")
        line = {"value": str(value), "pairs": f"{int(stratum['n_pairs'].iloc[0]):,}"}
        sparse = []
        for metric, label in IMPORTED_STRATA_METRICS:
            if metric not in by_metric.index:
                line[label] = "–"
                continue
            r = by_metric.loc[metric]
            line[label] = _metric_cell(metric, r["estimate"], r["ci_low"], r["ci_high"])
            if bool(r.get("is_sparse", False)):
                sparse.append(label)
        flags = (["small"] if bool(stratum["is_small_stratum"].any()) else []) + \
            ([f"sparse: {', '.join(sparse)}"] if sparse else [])
        line["flags"] = "; ".join(flags)
        out.append(line)
    return pd.DataFrame(out)


def terms(marts: Marts, top: int = 40, table_rows: int = 20) -> Section:
    section = Section("terms", "Terms of the notes",
                      "Exploratory, as in the study: terms of the original notes (chief complaint, history, past "
                      "history) with their pair-level skews. Terms are not clinical categories and many are tested, "
                      "so some intervals exclude zero by chance: read these as hypotheses.")
    frame = marts.frame("term_associations")
    frequencies = marts.frame("term_frequencies")
    if frame.empty:
        section.blocks.append(no_data("terms-no-data", Markup("audit.term_associations is empty (it needs pairs of "
                                      "the warehouse's own records, with terms in at least <code>min_term_pairs</code> "
                                      "pairs)."),
                                      BUILD))
        return section
    for dataset, model, generator in _groups(frame)[:4]:
        group = frame[(frame["dataset"] == dataset) & (frame["model"] == model) & (frame["generator"] == generator)]
        setting = "full" if "full" in set(group["setting"]) else _main_setting(group)
        group = group[group["setting"] == setting]
        for metric, label, sign_text in (
                ("dts_m_to_f", "DTS M→F", Markup("red (DTS &gt; 0): male records rewritten as female move to less severe "
                 "levels more often than to more severe ones; blue: the opposite")),
                ("dts_f_to_m", "DTS F→M", Markup("red (DTS &lt; 0): female records rewritten as male move to more severe "
                 "levels more often, i.e. the female original was the less severe one; blue: the opposite"))):
            subset = group[(group["metric"] == metric) & group["estimate"].notna()]
            subset = subset.reindex(subset["estimate"].abs().sort_values(ascending=False).index).head(top)
            words = [Word(r.term, abs(r.estimate), figures.sign_color(metric, r.estimate),
                          1.0 if (r.ci_low > 0 or r.ci_high < 0) else 0.45,
                          f"{r.term}: {label} {_pct(r.estimate, r.ci_low, r.ci_high)}, "
                          f"{int(r.n_m_to_f if metric == 'dts_m_to_f' else r.n_f_to_m):,} pairs")
                     for r in subset.itertuples() if r.estimate != 0]
            if not words:
                continue
            svg = word_cloud_svg(words, f"word cloud {metric} {dataset} {model} {generator}")
            section.blocks.append(figure(
                slug("fig-wordcloud", metric, dataset, model, generator), svg,
                html("<b>Terms by {label}, {group}, setting {setting}.</b> The {n} terms with the largest |{label}| "
                     "among pairs whose original notes contain them; size: |{label}|; {sign}; faint: the 95% interval "
                     "includes zero. Hover a word for its estimate.", label=label,
                     group=_group_title(dataset, model, generator), setting=setting, n=len(words), sign=sign_text)))
        pooled = group[(group["metric"] == "pooled_rate") & group["estimate"].notna()]
        ranked = pooled.reindex(pooled["estimate"].abs().sort_values(ascending=False).index).head(table_rows)
        if ranked.empty:
            continue
        dts = group.pivot_table(index="term", columns="metric", values="estimate", aggfunc="first")
        out = pd.DataFrame({
            "term": ranked["term"],
            "pairs": [f"{int(n):,}" for n in ranked["n_pairs"]],
            "pooled rate [95% CI]": [_pct(e, lo, hi) for e, lo, hi in zip(ranked["estimate"], ranked["ci_low"], ranked["ci_high"])],
            "DTS M→F": [_pct(dts.at[t, "dts_m_to_f"]) if "dts_m_to_f" in dts else "–" for t in ranked["term"]],
            "DTS F→M": [_pct(dts.at[t, "dts_f_to_m"]) if "dts_f_to_m" in dts else "–" for t in ranked["term"]],
            "PDR": [_pct(dts.at[t, "pdr"]).lstrip("+") if "pdr" in dts else "–" for t in ranked["term"]],
        })
        shares = frequencies[frequencies["dataset"] == dataset].set_index("term") if not frequencies.empty else None
        if shares is not None:
            out["female notes"] = [f"{shares.at[t, 'share_female']:.1%}" if t in shares.index else "–" for t in ranked["term"]]
            out["male notes"] = [f"{shares.at[t, 'share_male']:.1%}" if t in shares.index else "–" for t in ranked["term"]]
        section.blocks.append(table(
            slug("tbl-terms", dataset, model, generator), out,
            html("<b>Terms ranked by |pooled rate|, {}, setting {}.</b> Pooled rate &gt; 0: for pairs whose notes "
                 "contain the term, the female presentation more often gets the less severe level. Female / male "
                 "notes (when present): share of female and of male patients' test records whose notes contain the "
                 "term (audit.term_frequencies).",
                 _group_title(dataset, model, generator), setting),
            numeric=("pairs", "pooled rate [95% CI]", "DTS M→F", "DTS F→M", "PDR", "female notes", "male notes")))
    section.blocks.extend(_term_frequency_blocks(frequencies, top))
    return section


FEMALE_MORE, MALE_MORE = "#c0392b", "#2471a3"


def _term_frequency_blocks(frequencies: pd.DataFrame, top: int) -> list[Markup]:
    """A word cloud per data set of the most frequent terms, coloured by the sex whose notes hold them more often."""
    blocks = []
    if frequencies.empty:
        return blocks
    for dataset in sorted(set(frequencies["dataset"]))[:4]:
        subset = frequencies[frequencies["dataset"] == dataset].sort_values(["n_notes", "term"], ascending=[False, True]).head(top)
        words = [Word(r.term, float(r.n_notes), FEMALE_MORE if r.share_difference > 0 else MALE_MORE,
                      1.0 if abs(r.share_difference) >= 0.01 else 0.45,
                      f"{r.term}: {r.share_female:.1%} of female and {r.share_male:.1%} of male patients' notes")
                 for r in subset.itertuples()]
        if not words:
            continue
        svg = word_cloud_svg(words, f"word cloud term frequencies {dataset}")
        blocks.append(figure(
            slug("fig-wordcloud-frequency", dataset), svg,
            html("<b>Term frequencies by sex, {}.</b> The {} terms found in the most test records' original notes "
                 "(audit.term_frequencies); size: the number of records; red: more frequent in female patients' "
                 "notes (share among female records &gt; share among male records), blue: more frequent in male "
                 "patients' notes; faint: the two shares differ by less than one point. Frequencies describe who the "
                 "notes are about, not how the model reacts - read them beside the skews above. Hover a word for "
                 "both shares.", dataset, len(words))))
    return blocks


SECTIONS: tuple[SectionBuilder, ...] = (overview, cohort, performance, triage_checks, headline, audit_gates, forest_plot,
                                        comparisons, acuity_strata, presentation_strata, imported_strata, dyads, terms,
                                        audit_history, implicit_study)
