"""Printing the headline audit results from the warehouse."""

from __future__ import annotations

import pandas as pd
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from biasmirror.display import shown
from biasmirror.settings import SETTINGS
from biasmirror.warehouse import connect
from biasmirror.warehouse.catalog import has_table

HEADLINE = ("pooled_rate", "dts_m_to_f", "dts_f_to_m", "nats_plus", "nats_minus", "pdr", "nmd")


class UnknownSelection(LookupError):
    """`summary --dataset/--model` named something the published warehouse does not hold."""


def _check_selection(con, dataset: str | None, model: str | None) -> None:
    """Refuse a data set or model the published warehouse has no paired metrics for, listing those it has."""
    if not has_table(con, "audit", "paired_metrics"):
        raise UnknownSelection("The published warehouse has no audit.paired_metrics yet: run `biasmirror build`.")
    for column, value in (("dataset", dataset), ("model", model)):
        if value is None:
            continue
        known = [row[0] for row in con.execute(
            f"select distinct {column} from audit.paired_metrics order by 1").fetchall()]
        if value not in known:
            listed = (", ".join(shown(name) for name in known) if known
                      else "none yet (import pairs or build a cohort, then `biasmirror build`)")
            raise UnknownSelection(f"No {column} {shown(value)!r} in the published warehouse's audit.paired_metrics; "
                                   f"{column}s there: {listed}.")


def overall_metrics(dataset: str | None = None, model: str | None = None) -> pd.DataFrame:
    with connect(read_only=True) as con:
        _check_selection(con, dataset, model)
        return con.execute(
            "select dataset, model, generator, setting, metric, estimate, ci_low, ci_high, n_pairs, n_boot, "
            "n_changed, is_sparse, q_value, mde "
            "from audit.paired_metrics where stratum_name = 'overall' "
            "and (? is null or dataset = ?) and (? is null or model = ?) "
            "order by dataset, model, generator, metric_order", [dataset, dataset, model, model]).df()


def placebo_adjusted(dataset: str | None = None, model: str | None = None) -> pd.DataFrame:
    """audit.placebo_adjusted_effects on all pairs (empty when no placebo ran, or the mart is not built yet),
    with the columns format_interval reads (estimate: the adjusted effect)."""
    with connect(read_only=True) as con:
        if not has_table(con, "audit", "placebo_adjusted_effects"):
            return pd.DataFrame()
        return con.execute(
            "select dataset, model, generator, placebo_generator, setting, metric, adjusted_effect as estimate, "
            "ci_low, ci_high, n_changed, is_sparse, q_value, mde, n_pairs_swap as n_pairs "
            "from audit.placebo_adjusted_effects where stratum_name = 'overall' "
            "and (? is null or dataset = ?) and (? is null or model = ?) "
            "order by dataset, model, generator, metric_order", [dataset, dataset, model, model]).df()


def flagged_copies(dataset: str | None = None) -> pd.DataFrame:
    """Per data set and generator (placebo copies left out): copies written and copies the check flagged, which
    never enter the pairs (audit.counterfactual_quality; empty when that mart is not built)."""
    with connect(read_only=True) as con:
        if not has_table(con, "audit", "counterfactual_quality"):
            return pd.DataFrame(columns=["dataset", "generator", "n_copies", "n_flagged"])
        return con.execute(
            "select dataset, generator, sum(n_copies)::bigint as n_copies, sum(n_flagged)::bigint as n_flagged "
            "from audit.counterfactual_quality where not is_placebo and (? is null or dataset = ?) "
            "group by dataset, generator", [dataset, dataset]).df()


def flagged_line(flagged: pd.DataFrame, dataset: str, generator: str) -> str | None:
    """'n counts pairs whose copy passed the check: 1,225 of 8,632 copies (14.2%) were flagged and left out ...',
    or None when the mart has no row for these copies (imported pairs) or nothing was flagged."""
    rows = flagged[(flagged["dataset"] == dataset) & (flagged["generator"] == generator)]
    if rows.empty or int(rows["n_flagged"].iloc[0]) == 0:
        return None
    copies, flagged_count = int(rows["n_copies"].iloc[0]), int(rows["n_flagged"].iloc[0])
    return (f"n counts the pairs whose copy passed the check: {flagged_count:,} of {copies:,} copies "
            f"({flagged_count / copies:.1%}) were flagged and left out (audit.counterfactual_quality, "
            "docs/counterfactuals.md).")


def format_interval(row, metric: str) -> str:
    """'+1.23% [+0.45, +2.01]' (nmd in levels, the others in percent), with ' *' and the number of changed pairs
    when the interval is sparse (audit.paired_metrics.is_sparse), and 'n/a' when there is no estimate. Where the
    row has a q-value, ' q=0.003' follows; where its interval also covers zero, the minimum detectable effect
    (' mde 4.40'): the effect the stratum could have shown."""
    if pd.isna(row.estimate):
        return "n/a"
    scale, unit = (1, "") if metric == "nmd" else (100, "%")
    if pd.isna(row.ci_low) or pd.isna(row.ci_high):
        text = f"{row.estimate * scale:+.2f}{unit} [no interval]"
    else:
        text = f"{row.estimate * scale:+.2f}{unit} [{row.ci_low * scale:+.2f}, {row.ci_high * scale:+.2f}]"
    q_value, mde = getattr(row, "q_value", None), getattr(row, "mde", None)
    if q_value is not None and not pd.isna(q_value):
        text += f" q={q_value:.2g}"
        if mde is not None and not pd.isna(mde) and not pd.isna(row.ci_low) and row.ci_low <= 0 <= row.ci_high:
            text += f" mde {mde * scale:.2f}"
    if bool(row.is_sparse):
        changed = 0 if pd.isna(row.n_changed) else int(row.n_changed)
        text += f" * ({changed} changed)"
    return escape(text)


def print_overall(console: Console, dataset: str | None = None, model: str | None = None) -> None:
    frame = overall_metrics(dataset, model)
    if frame.empty:
        console.print("[yellow]audit.paired_metrics has no pairs yet.[/yellow]")
        return
    any_sparse = False
    flagged = flagged_copies(dataset)
    for (ds, mdl, gen), group in frame.groupby(["dataset", "model", "generator"], sort=False):
        # names come from data: shown (no escape sequence, no forged line) and never read as markup
        table = Table(title=escape(f"{shown(ds)} / model {shown(mdl)} / counterfactuals {shown(gen)}: overall paired "
                                   "metrics, 95% bootstrap CI"))
        table.add_column("metric")
        settings = [s for s in SETTINGS if s in set(group["setting"])]
        for setting in settings:
            n_pairs = int(group.loc[group["setting"] == setting, "n_pairs"].iloc[0])
            table.add_column(escape(f"{shown(setting)} (n={n_pairs:,})"), justify="right")
        for metric in HEADLINE:
            cells = []
            for setting in settings:
                row = group[(group["setting"] == setting) & (group["metric"] == metric)].iloc[0]
                cells.append(format_interval(row, metric))
                any_sparse = any_sparse or bool(row.is_sparse)
            table.add_row(metric, *cells)
        console.print(table)
        line = flagged_line(flagged, ds, gen)
        if line:
            console.print(line, markup=False, highlight=False)
    adjusted = placebo_adjusted(dataset, model)
    for (ds, mdl, gen, placebo), group in adjusted.groupby(["dataset", "model", "generator", "placebo_generator"], sort=False):
        table = Table(title=escape(f"{ds} / model {mdl} / counterfactuals {gen}: beyond the placebo ({gen} - {placebo}), "
                                   "paired 95% bootstrap CI"))
        table.add_column("metric")
        settings = [s for s in SETTINGS if s in set(group["setting"])]
        for setting in settings:
            table.add_column(escape(setting), justify="right")
        for metric in HEADLINE:
            cells = []
            for setting in settings:
                rows = group[(group["setting"] == setting) & (group["metric"] == metric)]
                cells.append(format_interval(rows.iloc[0], metric) if len(rows) else "n/a")
                any_sparse = any_sparse or (len(rows) > 0 and bool(rows.iloc[0].is_sparse))
            table.add_row(metric, *cells)
        console.print(table)
    if not adjusted.empty:
        console.print(
            "Beyond the placebo: the swap's effect minus that of a same-sex rewrite of the same records (the same "
            "pairs resampled on both sides). The raw effect also holds what any rewrite does to the model; a claim "
            "of sex bias rests on the effect beyond the placebo.")
    console.print(
        "q: the q-value over the stratum's tested metrics (var p_adjust_method, docs/metrics.md); mde: the "
        "effect detectable with 80% power, shown where the interval covers zero.")
    if any_sparse:
        console.print(
            "* sparse: fewer changed pairs stand behind the metric than var min_changed_pairs (or there is no "
            "interval, or it has zero width); the interval would cover the true value less often than 95% "
            "(docs/intervals.md). Read the estimate as a description of these pairs.")
    console.print(
        "Sign: pooled_rate > 0 and nmd > 0 mean the female presentation of the same record gets a less severe "
        "(higher) level more often than the male one; dts_m_to_f > 0 means male-to-female copies move toward "
        "less severe levels.")
