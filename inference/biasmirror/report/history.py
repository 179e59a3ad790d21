"""The report section on the audit across builds (history.audit_trend): a model's pooled rate and PDR at every
build that recorded them, so a scheduled audit shows its trend and what changed between builds.

Names from the warehouse (data sets, models, generators) reach the page only through `figure`, `html` and
`table`, which escape them, and figures.to_svg."""

from __future__ import annotations

from biasmirror.report import figures
from biasmirror.report.data import Marts
from biasmirror.report.html import Markup, Section, figure, html, no_data, slug

HISTORY = "history"
TREND = "audit_trend"
TREND_METRICS = (("pooled_rate", "pooled rate"), ("pdr", "PDR"))


def audit_history(marts: Marts) -> Section:
    section = Section("history", "Audit history",
                      Markup("The headline metrics at every build that recorded them (history.audit_trend): each "
                             "successful build that rebuilds the paired metrics appends them, so a scheduled "
                             "build shows the audit's trend. A hollow marker is a build whose pairs or model runs "
                             "changed since the previous one (data_changed, model_changed); a move without one is "
                             "resampling or a changed var."))
    frame = marts.frame(TREND, schema=HISTORY, metric=[metric for metric, _ in TREND_METRICS])
    groups = [] if frame.empty else [
        (key, group) for key, group in frame.groupby(["dataset", "model", "generator"], sort=True)
        if group["build_number"].nunique() >= 2]
    if not groups:
        section.blocks.append(no_data("history-no-data", "Fewer than two builds have recorded an audit "
                                      "(history.audit_trend).", Markup("<code>biasmirror build</code> again after "
                                                                       "new predictions or a data refresh.")))
        return section
    for (dataset, model, generator), group in groups:
        n_builds = int(group["build_number"].max())
        changed = group[group["model_changed"].fillna(False) | group["data_changed"].fillna(False)]
        title = f"{dataset} · {model} · {generator}"
        svg = figures.trend(group, TREND_METRICS, title, f"history {title}")
        caption = html("<b>{}</b>, {}, {}: pooled rate and PDR (%, with their intervals) at each of {} builds, a "
                       "line per setting. {} build(s) with changed pairs or model runs.", dataset, model, generator,
                       n_builds, int(changed["build_number"].nunique()))
        section.blocks.append(figure(slug("fig-history", dataset, model, generator), svg, caption))
    return section

