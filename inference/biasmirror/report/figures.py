"""The report's figures, drawn with matplotlib and returned as SVG text to inline in the page.

Figures are built on `matplotlib.figure.Figure` objects (no pyplot global state). Text stays text in the SVG
(svg.fonttype none) so it is crisp and searchable, and each figure gets its own hash salt so the ids of two
inlined figures never collide.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd
from markupsafe import Markup, escape

from biasmirror.display import shown

SETTING_COLORS = {"full": "#1b6ca8", "text_only": "#c0392b", "tabular_only": "#d68910"}
EXTRA_COLORS = ("#117a65", "#6c3483", "#5d6d7e", "#a04000", "#1e8449")
POSITIVE = "#c0392b"   # female presentation less severe / copy less severe
NEGATIVE = "#1f618d"   # the opposite
NEUTRAL = "#566573"
# Labels come from the warehouse (model, data set and stratum names): never read `$...$` in them as mathtext.
FONT = {"font.family": "DejaVu Sans", "font.size": 9, "text.parse_math": False}


def color_for(setting: str, index: int = 0) -> str:
    return SETTING_COLORS.get(setting, EXTRA_COLORS[index % len(EXTRA_COLORS)])


def _figure(width: float, height: float):
    import matplotlib
    from matplotlib.figure import Figure

    matplotlib.rcParams.update(FONT)
    return Figure(figsize=(width, height), layout="constrained")


def to_svg(figure, name: str) -> Markup:
    """The figure as an <svg> element (no XML prologue), scalable to the page width. Matplotlib escapes the
    text it draws (labels, titles, tick labels); `name` (which may hold data names) is escaped here."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": name}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    # names drawn as text: no control or bidirectional-formatting character reaches the page (the SVG's own
    # line breaks stay)
    text = shown(text[text.index("<svg"):], keep="\n\r\t")
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, count=1, flags=re.S)  # creator RDF: not needed inline
    # matplotlib writes width/height in pt; keep the viewBox, let CSS size the element.
    text = re.sub(r'<svg([^>]*?) width="[^"]+" height="[^"]+"', r'<svg\1', text, count=1)
    width = round(figure.get_figwidth() * 100)
    opening = f'<svg class="bm-svg" style="max-width: {width}px" role="img" aria-label="{escape(shown(name))}"'
    return Markup(text.replace("<svg", opening, 1))


# ------------------------------------------------------------------------------------------------------------
# Forest plots
# ------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Interval:
    label: str           # the y-axis row
    series: str          # the legend entry
    estimate: float
    low: float
    high: float
    color: str
    small: bool = False  # drawn hollow, labelled "small"


def forest(rows: Sequence[Interval], title: str, xlabel: str, name: str, scale: float = 100.0,
           reference_bands: Sequence[tuple[str, float, float]] = (), width: float = 7.5,
           reference: float = 0.0) -> Markup:
    """Points with horizontal interval bars, one row per label, one offset per series; a line at `reference`
    (zero, or e.g. 0.5 for parity of a share)."""
    labels = list(dict.fromkeys(r.label for r in rows))
    series = list(dict.fromkeys(r.series for r in rows))
    height = 0.9 + 0.32 * len(labels) * max(1, min(len(series), 3)) ** 0.5
    figure = _figure(width, height)
    ax = figure.add_subplot()
    step = 0.7 / max(len(series), 1)
    for band_label, low, high in reference_bands:
        ax.axvspan(low * scale, high * scale, color="#d5d8dc", alpha=0.6, lw=0, label=band_label)
    for s_index, name_s in enumerate(series):
        points = [r for r in rows if r.series == name_s]
        for r in points:
            y = len(labels) - 1 - labels.index(r.label) + (len(series) - 1) / 2 * step - s_index * step
            if any(map(_missing, (r.estimate,))):
                continue
            if not (_missing(r.low) or _missing(r.high)):
                ax.plot([r.low * scale, r.high * scale], [y, y], color=r.color, lw=1.6, solid_capstyle="butt")
            ax.plot([r.estimate * scale], [y], marker="o", ms=5.5, color=r.color,
                    markerfacecolor="white" if r.small else r.color, markeredgewidth=1.4,
                    label=name_s if r is points[0] else None)
    ax.axvline(reference * scale, color="#212f3d", lw=0.8)
    ax.set_yticks(range(len(labels)), labels[::-1])
    ax.set_xlabel(xlabel)
    ax.set_title(title, loc="left", fontsize=10)
    ax.grid(axis="x", color="#eaeded", lw=0.6)
    ax.set_axisbelow(True)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    handles, legend_labels = ax.get_legend_handles_labels()
    if legend_labels:
        ax.legend(handles, legend_labels, loc="upper left", fontsize=8, frameon=False, bbox_to_anchor=(1.01, 1.0))
    return to_svg(figure, name)


def _missing(value: float | None) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or pd.isna(value)


# Sign of each metric when the female presentation is the one triaged as less severe (docs/metrics.md, "Reading the signs"):
# pooled_rate, nmd, dts_m_to_f and nats_minus are then > 0; dts_f_to_m and nats_plus < 0.
FEMALE_LESS_SEVERE_SIGN = {"pooled_rate": 1, "nmd": 1, "dts_m_to_f": 1, "nats_minus": 1, "dts_f_to_m": -1,
                           "nats_plus": -1}


def sign_color(metric: str, value: float) -> str:
    """Red when the value says the female presentation gets the less severe level, blue for the opposite."""
    orientation = FEMALE_LESS_SEVERE_SIGN.get(metric, 0)
    if orientation == 0 or _missing(value) or value == 0:
        return NEUTRAL
    return POSITIVE if orientation * value > 0 else NEGATIVE


def panel_forest(rows: Sequence[Interval], panels: Sequence[str], title: str, name: str,
                 xlabel: str = "percentage points", scale: float = 100.0, label_width: float = 2.2) -> Markup:
    """One panel per `series` (e.g. metric), rows = labels shared by all panels; each point in its own colour,
    hollow when small. Rows with no estimate in a panel say so."""
    labels = list(dict.fromkeys(r.label for r in rows))
    figure = _figure(label_width + 2.4 * len(panels), 0.95 + 0.3 * len(labels))
    axes = np.atleast_1d(figure.subplots(1, len(panels), sharey=True))
    for ax, panel in zip(axes, panels):
        by_label = {r.label: r for r in rows if r.series == panel}
        for i, label in enumerate(labels):
            y = len(labels) - 1 - i
            r = by_label.get(label)
            if r is None or _missing(r.estimate):
                ax.text(0.5, y, "no pairs", fontsize=7, color=NEUTRAL, va="center", ha="center",
                        transform=ax.get_yaxis_transform())
                continue
            if not (_missing(r.low) or _missing(r.high)):
                ax.plot([r.low * scale, r.high * scale], [y, y], color=r.color, lw=1.5)
            ax.plot([r.estimate * scale], [y], "o", ms=5, color=r.color,
                    markerfacecolor="white" if r.small else r.color, markeredgewidth=1.3)
        ax.axvline(0, color="#212f3d", lw=0.8)
        ax.set_title(panel, fontsize=9)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.grid(axis="x", color="#eaeded", lw=0.6)
        ax.set_axisbelow(True)
        ax.set_ylim(-0.6, len(labels) - 0.4)
        for spine in ("top", "right"):
            ax.spines[spine].set_visible(False)
    axes[0].set_yticks(range(len(labels)), labels[::-1])
    figure.suptitle(title, x=0.01, ha="left", fontsize=10)
    return to_svg(figure, name)


def strata_forest(frame: pd.DataFrame, metrics: Sequence[tuple[str, str]], order: Sequence[str], title: str,
                  name: str) -> Markup:
    """Paired metrics per stratum value, one panel per metric, coloured by which presentation is the less
    severe one; hollow points for small strata. `frame` has stratum_value, metric, estimate, ci_low, ci_high,
    n_pairs, is_small_stratum."""
    values = [v for v in order if v in set(frame["stratum_value"])]
    values += sorted(set(frame["stratum_value"]) - set(values))
    rows = []
    for value in values:
        stratum = frame[frame["stratum_value"] == value]
        count = int(stratum["n_pairs"].iloc[0]) if len(stratum) else 0
        small = bool(stratum["is_small_stratum"].any())
        label = f"{value} (n={count:,}{', small' if small else ''})"
        for metric, metric_label in metrics:
            hit = stratum[stratum["metric"] == metric]
            if hit.empty:
                continue
            r = hit.iloc[0]
            rows.append(Interval(label, metric_label, r["estimate"], r["ci_low"], r["ci_high"],
                                 sign_color(metric, r["estimate"]), small))
    return panel_forest(rows, [label for _, label in metrics], title, name)


# ------------------------------------------------------------------------------------------------------------
# Cohort flow
# ------------------------------------------------------------------------------------------------------------

def cohort_flow(flow: pd.DataFrame, name: str) -> Markup:
    """One column per data set: the records left after each step, the records each step removed beside it,
    and the train/test split at the bottom."""
    datasets = sorted(flow["dataset"].unique())
    steps_per = [flow[(flow["dataset"] == d) & (flow["step_order"] < 100)
                      & ((flow["step_order"] == 0) | (flow["n_excluded"] > 0))] for d in datasets]
    n_rows = max(len(s) for s in steps_per) + 1
    figure = _figure(6.4 * len(datasets), 0.62 * n_rows + 0.5)
    axes = np.atleast_1d(figure.subplots(1, len(datasets)))
    for ax, dataset, steps in zip(axes, datasets, steps_per):
        steps = steps.sort_values("step_order")
        split = flow[(flow["dataset"] == dataset) & (flow["step_order"] >= 100)].sort_values("step_order")
        ax.set_xlim(0, 10)
        ax.set_ylim(-n_rows + 0.5, 0.6)
        ax.axis("off")
        ax.set_title(dataset, fontsize=10, loc="left")
        y = 0.0
        previous = None
        for row in steps.itertuples():
            if row.step_order == 0:
                text = f"source records\n{int(row.n_remaining):,}"
            else:
                text = f"{int(row.n_remaining):,} remaining"
                if int(row.n_excluded) > 0:
                    reason = str(row.step).replace("exclude: ", "").replace("_", " ")
                    ax.annotate("", xy=(4.9, y + 0.5), xytext=(2.05, y + 0.5),
                                arrowprops=dict(arrowstyle="->", color="#e59866", lw=0.7))
                    ax.text(5.0, y + 0.5, f"excluded: {reason}\n{int(row.n_excluded):,}", fontsize=8.5, va="center",
                            ha="left", color="#6e2c00", bbox=dict(boxstyle="round,pad=0.25", fc="#fdebd0", ec="#e59866", lw=0.6))
                else:
                    continue
            ax.text(2.0, y, text, ha="center", va="center", fontsize=9.5,
                    bbox=dict(boxstyle="round,pad=0.3", fc="#eaf2f8", ec="#5dade2", lw=0.7))
            if previous is not None:
                ax.annotate("", xy=(2.0, y + 0.28), xytext=(2.0, previous - 0.28),
                            arrowprops=dict(arrowstyle="->", color="#5d6d7e", lw=0.8))
            previous = y
            y -= 1.0
        if len(split):
            xs = np.linspace(1.0, 3.0, len(split)) if len(split) > 1 else [2.0]
            for x, row in zip(xs, split.itertuples()):
                ax.text(x, y, f"{str(row.step).replace('split: ', '')}\n{int(row.n_remaining):,}", ha="center",
                        va="center", fontsize=9.5, bbox=dict(boxstyle="round,pad=0.3", fc="#e9f7ef", ec="#52be80", lw=0.7))
                if previous is not None:
                    ax.annotate("", xy=(x, y + 0.28), xytext=(2.0, previous - 0.28),
                                arrowprops=dict(arrowstyle="->", color="#5d6d7e", lw=0.8))
    return to_svg(figure, name)


# ------------------------------------------------------------------------------------------------------------
# Model size and performance
# ------------------------------------------------------------------------------------------------------------

def kappa_by_size(frame: pd.DataFrame, name: str) -> Markup:
    """Weighted kappa (with CI) against the parameter count (log scale) when known, else per model.
    `frame` has model, estimate, ci_low, ci_high and parameters (NaN when unknown)."""
    figure = _figure(7.0, 3.6)
    ax = figure.add_subplot()
    known = frame[frame["parameters"].notna() & (frame["parameters"] > 0)]
    if len(known):
        x = known["parameters"].astype(float).to_numpy()
        ax.errorbar(x, known["estimate"], yerr=[known["estimate"] - known["ci_low"], known["ci_high"] - known["estimate"]],
                    fmt="o", color="#1b6ca8", ecolor="#85c1e9", capsize=3, ms=6)
        for xi, row in zip(x, known.itertuples()):
            ax.annotate(row.model, (xi, row.estimate), textcoords="offset points", xytext=(6, 4), fontsize=8)
        ax.set_xscale("log")
        # plain tick labels: mathtext is off for the whole figure (labels hold data), so no $10^{6}$ here
        from matplotlib.ticker import FuncFormatter, NullFormatter

        ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: _count_label(value)))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("parameters (log scale)")
    else:
        positions = np.arange(len(frame))
        ax.errorbar(positions, frame["estimate"], yerr=[frame["estimate"] - frame["ci_low"], frame["ci_high"] - frame["estimate"]],
                    fmt="o", color="#1b6ca8", ecolor="#85c1e9", capsize=3, ms=6)
        ax.set_xticks(positions, frame["model"].tolist(), rotation=20, ha="right")
        ax.set_xlabel("model (parameter counts not recorded)")
        ax.set_xlim(-0.7, len(frame) - 0.3)
    ax.axhspan(0.61, 0.81, color="#d5f5e3", lw=0, zorder=0, label="reported human inter-rater agreement")
    low = min(0.0, float(np.nanmin(frame["ci_low"])) - 0.05) if len(frame) else 0.0
    ax.set_ylim(low, 1.0)
    ax.legend(loc="lower right", fontsize=8, frameon=False)
    ax.set_ylabel("weighted Cohen's kappa (linear)")
    ax.grid(color="#eaeded", lw=0.6)
    ax.set_axisbelow(True)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    return to_svg(figure, name)


def _count_label(value: float) -> str:
    """10k, 1M, 135M, 7B: a parameter count for a log axis."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:g}{suffix}"
    return f"{value:g}"


# ------------------------------------------------------------------------------------------------------------
# Nurse x patient sex dyads
# ------------------------------------------------------------------------------------------------------------

def dyad_heatmap(cells: pd.DataFrame, name: str) -> Markup:
    """2 x 2 grid (nurse sex x patient sex): each cell annotated with the DTS of the direction that starts from
    the patient's documented sex, and coloured by which presentation it says is triaged as less severe (red:
    the female one). `cells` has nurse_sex, patient_sex, estimate, ci_low, ci_high, n_pairs, small."""
    figure = _figure(5.6, 3.8)
    ax = figure.add_subplot()
    nurses, patients = ["F", "M"], ["F", "M"]
    grid = np.full((2, 2), np.nan)
    for row in cells.itertuples():
        if row.nurse_sex in nurses and row.patient_sex in patients and not _missing(row.estimate):
            metric = "dts_m_to_f" if row.patient_sex == "M" else "dts_f_to_m"
            grid[nurses.index(row.nurse_sex), patients.index(row.patient_sex)] = (
                FEMALE_LESS_SEVERE_SIGN[metric] * row.estimate * 100)
    limit = max(np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0, 0.1)
    # pcolormesh stays vector in SVG (imshow would embed a PNG)
    image = ax.pcolormesh(np.arange(3) - 0.5, np.arange(3) - 0.5, np.ma.masked_invalid(grid), cmap="RdBu_r",
                          vmin=-limit, vmax=limit)
    ax.set_xlim(-0.5, 1.5)
    ax.set_ylim(1.5, -0.5)
    ax.set_aspect("equal")
    for row in cells.itertuples():
        if row.nurse_sex not in nurses or row.patient_sex not in patients:
            continue
        i, j = nurses.index(row.nurse_sex), patients.index(row.patient_sex)
        direction = "DTS M→F" if row.patient_sex == "M" else "DTS F→M"
        if _missing(row.estimate):
            text = f"{direction}\nno pairs"
        else:
            text = (f"{direction}\n{row.estimate * 100:+.1f} pp\n[{row.ci_low * 100:+.1f}, {row.ci_high * 100:+.1f}]"
                    f"\nn={int(row.n_pairs):,}{' (small)' if row.small else ''}")
        strong = np.isfinite(grid[i, j]) and abs(grid[i, j]) > 0.55 * limit
        ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if strong else "#17202a")
    ax.set_xticks([0, 1], ["female patient", "male patient"])
    ax.set_yticks([0, 1], ["female nurse", "male nurse"])
    colorbar = figure.colorbar(image, ax=ax, shrink=0.85)
    colorbar.solids.set_rasterized(False)  # matplotlib rasterizes long colorbars; keep the page free of images
    colorbar.set_label("male less severe  ←  |DTS| (pp)  →  female less severe", fontsize=8)
    return to_svg(figure, name)


# ------------------------------------------------------------------------------------------------------------
# The audit across builds
# ------------------------------------------------------------------------------------------------------------

def trend(frame: pd.DataFrame, metrics: Sequence[tuple[str, str]], title: str, name: str) -> Markup:
    """One panel per (metric, label): the estimate (x 100) and its interval at each build, a line per setting; a
    build whose model or pairs changed since the previous one is drawn with a hollow marker. `frame` has
    setting, metric, build_number, estimate, ci_low, ci_high, model_changed, data_changed."""
    figure = _figure(3.6 * len(metrics) + 0.6, 3.2)
    axes = figure.subplots(1, len(metrics), squeeze=False)[0]
    for ax, (metric, label) in zip(axes, metrics):
        rows = frame[frame["metric"] == metric]
        for index, (setting, group) in enumerate(sorted(rows.groupby("setting"), key=lambda item: str(item[0]))):
            group = group.sort_values("build_number")
            color = color_for(str(setting), index)
            x = group["build_number"].to_numpy(dtype=float)
            y = group["estimate"].to_numpy(dtype=float) * 100
            low = (group["estimate"] - group["ci_low"]).to_numpy(dtype=float) * 100
            high = (group["ci_high"] - group["estimate"]).to_numpy(dtype=float) * 100
            ax.errorbar(x, y, yerr=[np.nan_to_num(low), np.nan_to_num(high)], color=color, ecolor=color, alpha=0.9,
                        capsize=3, lw=1.2, marker="o", ms=5, label=str(setting))
            changed = (group["model_changed"].fillna(False) | group["data_changed"].fillna(False)).to_numpy(dtype=bool)
            if changed.any():
                ax.plot(x[changed], y[changed], linestyle="none", marker="o", ms=9, mfc="white", mec=color, mew=1.5)
        ax.axhline(0, color=NEUTRAL, lw=0.8)
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("build")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.grid(color="#eaeded", lw=0.6)
        ax.set_axisbelow(True)
        for spine in ("top", "right"):
            ax.spines[spine].set_visible(False)
    axes[0].set_ylabel("estimate (%)")
    axes[-1].legend(fontsize=8, frameon=False, loc="best")
    figure.suptitle(title, fontsize=10)
    return to_svg(figure, name)
