"""The report's section on the implicit-bias study: how well the answers could be read (parse rates), word-association
bias per category, appointment-allocation selection rates with the order effect, and the explicit answers' stances.

Results of the simulated respondent (`--backend simulated`, recorded as `simulation: true` in the run's
parameters) are labelled "simulated respondent" wherever they are shown: they check the pipeline, they say
nothing about any model.
"""

from __future__ import annotations

import json

import pandas as pd

from biasmirror.report import figures, numbers
from biasmirror.report.data import Marts
from biasmirror.report.html import Markup, Section, figure, html, no_data, slug, table

SIMULATED = "simulated respondent"
IMPLICIT_BUILD = Markup("run the study with <code>biasmirror implicit associations|allocation|explicit --backend B "
                        "--model M</code> (or import answers made elsewhere with <code>biasmirror "
                        "import-associations</code> / <code>import-allocations</code>), then <code>biasmirror build "
                        "--select tag:implicit</code>.")
LANGUAGE_COLORS = {"en": "#1b6ca8", "es": "#c0392b"}


def simulated_models(marts: Marts) -> set[str]:
    """Model labels with at least one implicit-study run of the simulated respondent (inference.runs)."""
    runs = marts.frame("runs", schema="inference")
    if runs.empty or not {"kind", "model", "parameters"} <= set(runs.columns):
        return set()
    labels = set()
    for kind, model, parameters in zip(runs["kind"], runs["model"], runs["parameters"]):
        if not str(kind).startswith("implicit") or model is None:
            continue
        try:
            if json.loads(parameters or "{}").get("simulation") is True:
                labels.add(str(model))
        except (ValueError, AttributeError):
            continue
    return labels


def _label(model: str, simulated: set[str]) -> str:
    return f"{model} ({SIMULATED})" if model in simulated else model


def _interval(estimate: float, low: float, high: float, digits: int = 2, scale: float = 1.0, unit: str = "",
              signed: bool = True) -> str:
    """'+0.31 [+0.13, +0.48]', or e.g. '27.2% [20.9, 33.5]' for a share (scale 100, unit %, unsigned)."""
    return numbers.interval(estimate, low, high, scale=scale, unit=unit, digits=digits, signed=signed)


def _simulation_banner(models: list[str], simulated: set[str]) -> list[Markup]:
    shown = sorted(set(models) & simulated)
    if not shown:
        return []
    return [html('<p class="simulated"><b>Simulated respondent:</b> {} answered with a simulation that has planted, '
                 'configurable bias (<code>--backend simulated</code>), not a language model. Its results check '
                 'the pipeline and the intervals; they are not findings about any model.</p>', ", ".join(shown))]


def implicit_study(marts: Marts) -> Section:
    section = Section("implicit", "Implicit bias toward transgender people",
                      "The second study: which words a model pairs with \"cisgender\" and \"transgender\" (word "
                      "association), which of two otherwise similar candidates it gives an appointment to "
                      "(allocation), and what it says when asked directly (explicit questions).")
    simulated = simulated_models(marts)
    association = marts.frame("word_association_bias")
    allocation = marts.frame("allocation_selection_rates")
    explicit = marts.frame("explicit_answers")
    models = [*association.get("model", pd.Series(dtype=str)), *allocation.get("model", pd.Series(dtype=str))]
    section.blocks.extend(_simulation_banner([str(m) for m in models], simulated))
    section.blocks.extend(_parse_rate_blocks(marts.frame("implicit_parse_rates"), simulated))
    section.blocks.extend(_association_blocks(association, simulated))
    section.blocks.extend(_allocation_blocks(allocation, simulated))
    section.blocks.extend(_explicit_blocks(explicit, simulated))
    return section


def _parse_rate_blocks(frame: pd.DataFrame, simulated: set[str]) -> list[Markup]:
    if frame.empty:
        return []
    frame = frame.sort_values(["model", "prompt_set", "task", "language", "decoding", "explanation", "symptoms"],
                              na_position="first")
    out = pd.DataFrame({
        "model": [_label(str(m), simulated) for m in frame["model"]],
        "prompt set": frame["prompt_set"], "task": frame["task"], "language": frame["language"],
        "condition": ["–" if pd.isna(e) else _condition(bool(e), bool(s))
                      for e, s in zip(frame["explanation"], frame["symptoms"])],
        "decoding": frame["decoding"],
        "parsed [95% CI]": [_interval(v, lo, hi, 1, 100.0, "%", signed=False)
                            for v, lo, hi in zip(frame["parsed_share"], frame["ci_low"], frame["ci_high"])],
        "answers": [f"{int(n):,}" for n in frame["n_answers"]],
        "as asked / lenient": [f"{int(a):,} / {int(b):,}" for a, b in zip(frame["n_ok"], frame["n_lenient"])],
        "refused / unparsed": [f"{int(a):,} / {int(b):,}" for a, b in zip(frame["n_refused"], frame["n_unparsed"])],
        "cut at limit": [f"{int(n):,}" for n in frame["n_truncated"]],
    })
    return [Markup("<h3>Parse rates</h3>"), table(
        "tbl-implicit-parse-rates", out,
        Markup("<b>How well the answers could be read</b> (audit.implicit_parse_rates): the share of answers a choice "
               "was read from, with its exact 95% interval; as asked - in the requested format (every word assigned, "
               "a tagged name); lenient - read only by the parser's tolerance (some words, an untagged name); cut at "
               "limit - answers that reached the token limit. Constrained decoding (vLLM structured outputs) cannot "
               "refuse: read refusals from free decoding. The measures below rest on the parsed answers only."),
        numeric=("parsed [95% CI]", "answers", "as asked / lenient", "refused / unparsed", "cut at limit"))]


def _association_blocks(frame: pd.DataFrame, simulated: set[str]) -> list[Markup]:
    if frame.empty:
        return [no_data("implicit-association-no-data", "audit.word_association_bias is empty.", IMPLICIT_BUILD)]
    blocks: list[Markup] = [Markup("<h3>Word association</h3>")]
    for (model, prompt_set), group in frame.groupby(["model", "prompt_set"], sort=True):
        label = _label(str(model), simulated)
        rows = [figures.Interval(str(r.category), str(r.language), r.bias, r.ci_low, r.ci_high,
                                 LANGUAGE_COLORS.get(str(r.language), figures.color_for(str(r.language), i)))
                for i, r in enumerate(group.sort_values(["category", "language"]).itertuples())]
        svg = figures.forest(rows, f"{label} · prompt set {prompt_set}", "bias score (−1 to +1)",
                             f"word association {model} {prompt_set}", scale=1.0)
        blocks.append(figure(
            slug("fig-implicit-association", str(model), str(prompt_set)), svg,
            html("<b>Word-association bias per category, {}, prompt set {}.</b> bias = N<sub>t</sub>/(P<sub>t</sub>"
                 " + N<sub>t</sub>) + P<sub>c</sub>/(N<sub>c</sub> + P<sub>c</sub>) − 1 with its 95% bootstrap "
                 "interval (answers resampled), one colour per language. Sign: &gt; 0 - negative words go to "
                 "\"transgender\" and positive words to \"cisgender\" more often than the reverse; &lt; 0 - the "
                 "reverse; 0 - no association. A bar that crosses zero is compatible with none.",
                 label, prompt_set)))
        out = pd.DataFrame({
            "language": group["language"], "category": group["category"],
            "bias [95% CI]": [_interval(b, lo, hi) for b, lo, hi in zip(group["bias"], group["ci_low"], group["ci_high"])],
            "answers": [f"{int(n):,}" for n in group["n_responses"]],
            "parsed": [f"{int(n):,}" for n in group["n_parsed"]],
            "refused": [f"{int(n):,}" for n in group["n_refused"]],
            "unparsed": [f"{int(n):,}" for n in group["n_unparsed"]],
        }).sort_values(["language", "category"])
        blocks.append(table(
            slug("tbl-implicit-association", str(model), str(prompt_set)), out,
            html("<b>Word association, {}, prompt set {}.</b> Answers per language and category, how many "
                 "assigned at least one word (parsed), declined (refused) or could not be read (unparsed).",
                 label, prompt_set),
            numeric=("bias [95% CI]", "answers", "parsed", "refused", "unparsed")))
    return blocks


def _condition(explanation: bool, symptoms: bool) -> str:
    return (("explanation" if explanation else "no explanation") + ", "
            + ("symptoms" if symptoms else "no symptoms"))


def _allocation_blocks(frame: pd.DataFrame, simulated: set[str]) -> list[Markup]:
    if frame.empty:
        return [no_data("implicit-allocation-no-data", "audit.allocation_selection_rates is empty.", IMPLICIT_BUILD)]
    blocks: list[Markup] = [Markup("<h3>Appointment allocation</h3>")]
    for (model, prompt_set, language), group in frame.groupby(["model", "prompt_set", "language"], sort=True):
        label = _label(str(model), simulated)
        group = group.sort_values(["discipline", "explanation", "symptoms"])
        conditions = list(dict.fromkeys(_condition(bool(e), bool(s)) for e, s in zip(group["explanation"], group["symptoms"])))
        rows = [figures.Interval(str(r.discipline), _condition(bool(r.explanation), bool(r.symptoms)), r.trans_rate,
                                 r.ci_low, r.ci_high, figures.color_for("", conditions.index(
                                     _condition(bool(r.explanation), bool(r.symptoms)))))
                for r in group.itertuples()]
        svg = figures.forest(rows, f"{label} · {language} · prompt set {prompt_set}",
                             "share of valid answers choosing the transgender candidate (%)",
                             f"allocation {model} {prompt_set} {language}", reference=0.5)
        blocks.append(figure(
            slug("fig-implicit-allocation", str(model), str(prompt_set), str(language)), svg,
            html("<b>Selection rates, {}, {}, prompt set {}.</b> Share of valid answers that gave the appointment to "
                 "the transgender candidate, with its 95% bootstrap interval (pairs resampled, both orders "
                 "together), one colour per condition (explanation requested or not, same-urgency symptoms given "
                 "or not). Reading the sign: the line is parity (50%); right of it the transgender candidate is chosen more "
                 "often, left of it the cisgender candidate. Refusals and unparsed answers are not in the share "
                 "(see the table).", label, language, prompt_set)))
        out = pd.DataFrame({
            "discipline": group["discipline"],
            "condition": [_condition(bool(e), bool(s)) for e, s in zip(group["explanation"], group["symptoms"])],
            "trans share [95% CI]": [_interval(v, lo, hi, 1, 100.0, "%", signed=False)
                                     for v, lo, hi in zip(group["trans_rate"], group["ci_low"], group["ci_high"])],
            "binomial p": [numbers.p_value(p) for p in group["p_value"]],
            "order effect [95% CI]": [_interval(v, lo, hi, 1, 100.0, " pp")
                                      for v, lo, hi in zip(group["order_effect"], group["order_effect_ci_low"],
                                                           group["order_effect_ci_high"])],
            "first listed chosen": ["–" if pd.isna(v) else f"{v:.1%}" for v in group["first_position_rate"]],
            "valid / refused / unparsed": [f"{int(v):,} / {int(r):,} / {int(u):,}" for v, r, u in
                                           zip(group["n_valid"], group["n_refused"], group["n_unparsed"])],
        })
        blocks.append(table(
            slug("tbl-implicit-allocation", str(model), str(prompt_set), str(language)), out,
            html("<b>Allocation, {}, {}, prompt set {}.</b> Order effect = share choosing the transgender candidate "
                 "when listed first − when listed second, in percentage points (&gt; 0: the candidate listed first is "
                 "favoured, whoever it is); first listed chosen: 50% means no position bias. The binomial p-value "
                 "tests a 50% share over the valid answers.", label, language, prompt_set),
            numeric=("trans share [95% CI]", "binomial p", "order effect [95% CI]", "first listed chosen",
                     "valid / refused / unparsed")))
    return blocks


def _explicit_blocks(frame: pd.DataFrame, simulated: set[str]) -> list[Markup]:
    if frame.empty or not {"model", "language", "question_id", "stance"} <= set(frame.columns):
        return []
    counts = frame.groupby(["model", "language", "question_id", "stance"]).size().rename("n").reset_index()
    out = pd.DataFrame({
        "model": [_label(str(m), simulated) for m in counts["model"]], "language": counts["language"],
        "question": counts["question_id"], "stance": counts["stance"], "answers": counts["n"].map(lambda n: f"{n:,}"),
    })
    return [Markup("<h3>Explicit questions</h3>"), table(
        "tbl-implicit-explicit", out,
        Markup("<b>Stance of the answers to the explicit questions</b> (would the model treat a transgender and a "
               "cisgender person differently?): no - it rejects treating them differently; yes; unclear. Read the "
               "implicit measures above against these: a model can reject bias when asked and still show it."),
        numeric=("answers",))]
