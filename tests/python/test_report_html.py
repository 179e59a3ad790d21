"""The static HTML report: rendered from the demo warehouse and checked in headless Chromium (every figure
present and non-empty, no console errors, no request beyond the file itself), on an empty warehouse, and
through the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from biasmirror.report.render import write_report
from warehouse_workspace import Workspace
from demo_warehouse import NOISE_FLIPS, demo_warehouse
from report_browser import BrowserUnavailable, Chromium

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

FIGURES_JS = """
Array.from(document.querySelectorAll('figure.bm-figure')).map(f => {
  const svg = f.querySelector('svg');
  const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  const caption = f.querySelector('figcaption');
  return {id: f.id, width: box.width, height: box.height,
          marks: svg ? svg.querySelectorAll('path, text, use, rect, line, circle, polyline').length : 0,
          texts: svg ? Array.from(svg.querySelectorAll('text')).filter(t => t.getBBox().width > 0).length : 0,
          caption: caption ? caption.textContent : ''};
})
"""

# The demo warehouse has a MIMIC-like data set with one model, the rule-based generator and its placebo, three
# settings, a noise floor and counterfactual diagnostics, and imported pairs with nurse x patient sex dyads:
# these figures and tables must be there ...
EXPECTED_FIGURES = (
    "fig-cohort-flow", "fig-kappa-size", "fig-forest-mimic-rf-small-rules", "fig-noise-floor-mimic-rf-small-rules",
    "fig-comparisons-setting", "fig-comparisons-generator",
    "fig-strata-documented-level-mimic-rf-small-rules", "fig-strata-presentation-group-mimic-rf-small-rules",
    "fig-strata-age-band-mimic-rf-small-rules", "fig-wordcloud-dts-m-to-f-mimic-rf-small-rules",
    "fig-wordcloud-dts-f-to-m-mimic-rf-small-rules", "fig-dyad-dyads-imported-model-imported",
    "fig-implicit-association-sim-respondent-biasmirror-v1", "fig-implicit-allocation-sim-respondent-biasmirror-v1-en",
    "fig-wordcloud-frequency-mimic",
)
EXPECTED_TABLES = ("tbl-audited-groups", "tbl-levels", "tbl-model-performance", "tbl-table2-mimic-rf-small-rules",
                   "tbl-counterfactual-quality", "tbl-counterfactual-review", "tbl-comparisons-setting", "tbl-sex-gap", "tbl-terms-mimic-rf-small-rules",
                   "tbl-odds-ratios-mimic-rf-small-rules",
                   "tbl-implicit-association-sim-respondent-biasmirror-v1",
                   "tbl-implicit-allocation-sim-respondent-biasmirror-v1-en", "tbl-implicit-explicit")
# ... and no section waits for data.


def open_browser() -> Chromium:
    try:
        return Chromium().__enter__()
    except BrowserUnavailable as error:
        pytest.fail(f"headless Chromium is needed for the report checks and could not be started: {error}")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workspace = demo_warehouse()
    return write_report(tmp_path_factory.mktemp("report"), workspace.warehouse).path


@pytest.fixture(scope="module")
def chromium():
    instance = open_browser()
    yield instance
    instance.__exit__(None, None, None)


def test_every_figure_renders_non_empty_without_console_errors(report: Path, chromium: Chromium, tmp_path: Path) -> None:
    load = chromium.load(report)
    assert load.errors() == []
    assert [url for url in load.requests if url != report.resolve().as_uri()] == []
    figures = {f["id"]: f for f in chromium.evaluate(FIGURES_JS)}
    assert set(EXPECTED_FIGURES) <= set(figures), sorted(figures)
    for figure in figures.values():
        assert figure["width"] > 200 and figure["height"] > 80, figure
        assert figure["marks"] >= 10 and figure["texts"] >= 2, figure
        assert len(figure["caption"]) > 120, figure["id"]
    # every caption says how to read the sign (or that there is none to read)
    for figure in figures.values():
        assert re.search(r"sign|&gt;|>|<|red|higher is better", figure["caption"]), figure["id"]
    panels = chromium.evaluate("Array.from(document.querySelectorAll('.no-data')).map(p => p.id)")
    assert panels == []
    tables = chromium.evaluate("Array.from(document.querySelectorAll('.bm-table')).map(t => [t.id, t.querySelectorAll('tbody tr').length])")
    assert set(EXPECTED_TABLES) <= {name for name, _ in tables}
    assert all(rows > 0 for _, rows in tables), tables
    chromium.screenshot(tmp_path / "report.png")
    assert (tmp_path / "report.png").stat().st_size > 50_000


def test_report_numbers_are_the_marts_numbers(report: Path) -> None:
    row = demo_warehouse().query(
        "select estimate, ci_low, ci_high, q_value from audit.paired_metrics where stratum_name = 'overall' "
        "and setting = 'full' and metric = 'pooled_rate' and dataset = 'mimic' and generator = 'rules'").iloc[0]
    html = report.read_text(encoding="utf-8")
    table2 = html[html.index('id="tbl-table2-mimic-rf-small-rules"'):]
    cell = re.search(r'<td>pooled_rate</td><td class="num">([^<]*)</td>', table2).group(1)  # the first: full
    interval, q_shown = cell.split(" q=")  # a tested metric shows its q-value after the interval
    assert_interval(interval, [row.estimate, row.ci_low, row.ci_high], scale=100)
    assert float(q_shown.split()[0]) == pytest.approx(row.q_value, rel=0.05), cell
    # the noise floor row shows the self-flip rate of the planted repeats, next to pdr
    flips = demo_warehouse().query(
        "select estimate from audit.noise_floor where metric = 'self_flip_rate' and setting = 'full' "
        "and dataset = 'mimic'").estimate.iloc[0]
    assert flips == pytest.approx(NOISE_FLIPS, abs=0.02)
    assert f"<td>noise floor: self_flip_rate</td><td class=\"num\">{flips * 100:.2f}%" in html
    # the dyad heatmap shows each dyad's pairs and the DTS of its patients' direction
    dyads = demo_warehouse().query(
        "select stratum_value, metric, estimate, n_pairs from audit.paired_metrics "
        "where stratum_name = 'nurse_patient_dyad' and metric in ('dts_m_to_f', 'dts_f_to_m')")
    figure = html[html.index('id="fig-dyad-dyads-imported-model-imported"'):]
    figure = figure[:figure.index("</figure>")]
    for row in dyads.itertuples():
        if row.stratum_value.endswith(("M_patient" if row.metric == "dts_m_to_f" else "F_patient")):
            assert f"{row.estimate * 100:+.1f} pp" in figure and f"n={row.n_pairs:,}" in figure, row
    # self-contained: nothing is loaded from anywhere (XML namespace URIs are names, not requests)
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:|//)", html) and "<script" not in html
    assert "@import" not in html and not re.search(r"url\(\s*[\"']?(?!#)", html)  # url(#clip) is in-page


def test_odds_ratios_term_frequencies_and_gates_are_the_marts_numbers(report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    odds = demo_warehouse().query(
        "select * from audit.acuity_odds_ratios where stratum_name = 'documented_level' and setting = 'full' "
        "and dataset = 'mimic' and generator = 'rules' order by stratum_value")
    table_html = html[html.index('id="tbl-odds-ratios-mimic-rf-small-rules"'):]
    table_html = table_html[:table_html.index("</table>")]
    assert len(odds) >= 3
    for row in odds.itertuples():
        cells = f"<td>{row.stratum_value}</td><td class=\"num\">{row.n_pairs:,}</td>" \
                f"<td class=\"num\">{row.n_up_f_to_m:,} / {row.n_down_f_to_m:,}</td>"
        assert cells in table_html, row
        if not pd.isna(row.odds_ratio) and not pd.isna(row.ci_low):
            row_html = table_html[table_html.index(cells):]
            cell = re.findall(r'<td class="num">([^<]*)</td>', row_html)[3]  # pairs, F→M, M→F, odds ratio
            assert_interval(cell, [row.odds_ratio, row.ci_low, row.ci_high])
        if row.zero_cell_corrected:
            assert "corrected" in table_html
    # the ranked term table shows each term's shares in female and male notes beside its skews
    frequencies = demo_warehouse().query("select term, share_female, share_male from audit.term_frequencies "
                                         "where dataset = 'mimic'").set_index("term")
    terms_html = html[html.index('id="tbl-terms-mimic-rf-small-rules"'):]
    terms_html = terms_html[:terms_html.index("</table>")]
    rows = re.findall(r"<tr><td>([^<]+)</td>.*?</tr>", terms_html)
    assert len(rows) >= 5
    for term in rows:
        assert f"{frequencies.at[term, 'share_female']:.1%}</td><td class=\"num\">{frequencies.at[term, 'share_male']:.1%}</td></tr>" \
            in terms_html[terms_html.index(f"<tr><td>{term}</td>"):], term
    # gates are off in the demo build: the section says so and how to turn them on
    gates = html[html.index('<section id="gates">'):]
    gates = gates[:gates.index("</section>")]
    assert "No gate is set" in gates and "gate_max_pdr" in gates and "no-data" not in gates


def test_wide_tables_scroll_inside_their_box_and_show_their_last_column(report: Path, chromium: Chromium) -> None:
    for width in (1280, 720):
        chromium.load(report, width=width)
        layout = chromium.evaluate("""(() => ({
          pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          tables: Array.from(document.querySelectorAll('.bm-table')).map(t => {
            const box = t.querySelector('.bm-scroll');
            const style = getComputedStyle(box);
            box.scrollLeft = box.scrollWidth;  // scroll to the end: the last column must then be in view
            const last = t.querySelector('thead th:last-child').getBoundingClientRect();
            const frame = box.getBoundingClientRect();
            return {id: t.id, overflow: style.overflowX, wide: box.scrollWidth > box.clientWidth + 1,
                    lastRight: last.right, boxRight: frame.right, boxLeft: frame.left, lastLeft: last.left};
          }),
        }))()""")
        assert layout["pageOverflow"] <= 0, layout["pageOverflow"]  # the page itself never scrolls sideways
        for table in layout["tables"]:
            assert table["overflow"] == "auto", table
            assert table["lastRight"] <= table["boxRight"] + 1 and table["lastLeft"] >= table["boxLeft"] - 1, table
        if width == 720:  # the model performance table is wider than a narrow window: it scrolls, nothing is cut
            assert any(t["wide"] for t in layout["tables"] if t["id"] == "tbl-model-performance"), layout


def test_the_footer_gives_the_provenance_of_the_marts(report: Path) -> None:
    import subprocess

    from biasmirror import __version__
    from biasmirror.paths import project_dir
    from demo_warehouse import N_BOOT

    html = report.read_text(encoding="utf-8")
    footer = html[html.index("<footer>"):html.index("</footer>")]
    items = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", footer))
    sha = subprocess.run(["git", "-C", str(project_dir()), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                         text=True, check=True).stdout.strip()
    assert items["biasmirror"] == __version__ and items["git commit"].startswith(sha)
    assert items["bootstrap"] == f"B = {N_BOOT:,} resamples, seed 20261129, 95% percentile intervals"
    assert items["implicit study bootstrap"] == f"B = {N_BOOT:,} resamples"
    assert items["warehouse"] == str(demo_warehouse().warehouse)
    built = demo_warehouse().query("select max(finished_at) as t from inference.dbt_builds "
                                   "where list_contains(cast(models as json)::varchar[], 'paired_metrics')").t[0]
    assert items["marts built"].startswith(built.strftime("%Y-%m-%d %H:%M UTC"))
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", items["report generated"])


def test_the_implicit_study_section_shows_the_marts_and_says_simulated(report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    section = html[html.index('<section id="implicit">'):]
    section = section[:section.index("</section>")]
    assert 'class="simulated"' in section and "sim-respondent (simulated respondent)" in section
    bias = demo_warehouse().query("select category, bias, ci_low, ci_high from audit.word_association_bias "
                                  "where model = 'sim-respondent' and language = 'en'")
    for row in bias.itertuples():
        cell = re.search(rf'<td>{re.escape(row.category)}</td><td class="num">([^<]*)</td>', section).group(1)
        assert_interval(cell, [row.bias, row.ci_low, row.ci_high])
    rates = demo_warehouse().query("select discipline, trans_rate, ci_low, ci_high, order_effect from "
                                   "audit.allocation_selection_rates where model = 'sim-respondent'")
    for row in rates.itertuples():
        cells = re.findall(r'<td class="num">([^<]*%[^<]*\])</td>', section)
        assert any(_numbers(c) == pytest.approx([row.trans_rate * 100, row.ci_low * 100, row.ci_high * 100],
                                                abs=0.51 * 10 ** -len(re.search(r"\.(\d+)", c).group(1)))
                   for c in cells), row
        assert f"{row.order_effect * 100:+.1f} pp" in section, row


def test_the_browser_check_catches_errors(tmp_path: Path, chromium: Chromium) -> None:
    """The harness itself can fail: a console error, an exception and a missing resource are all reported."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><head><link rel='icon' href='data:,'></head><body>"
                    "<img src='missing.png'><script>console.error('planted'); undefinedFunction();</script>"
                    "</body></html>")
    errors = chromium.load(page).errors()
    assert any("planted" in e for e in errors)
    assert any("undefinedFunction" in e or "Uncaught" in e for e in errors)
    assert any("missing.png" in e or "Failed to load" in e or "ERR_FILE_NOT_FOUND" in e for e in errors), errors


def test_an_empty_warehouse_omits_what_has_no_data(workspace: Workspace, chromium: Chromium, tmp_path: Path) -> None:
    import duckdb

    duckdb.connect(str(workspace.warehouse)).close()  # a warehouse file with nothing built yet
    result = write_report(tmp_path / "out", workspace.warehouse)
    assert result.n_figures == 0
    assert {"overview-no-pairs", "cohort-flow-no-data", "performance-no-data", "table2-no-data", "figure3-no-data",
            "comparisons-no-data", "strata-documented_level-no-data", "dyads-no-data", "terms-no-data",
            "imported-strata-no-data", "implicit-association-no-data", "implicit-allocation-no-data"} <= set(result.no_data)
    load = chromium.load(result.path)
    assert load.errors() == []
    # one panel says what to do; every other empty figure, table and section is left out, and out of the navigation
    assert chromium.evaluate("Array.from(document.querySelectorAll('.no-data')).map(p => p.id)") == ["overview-no-pairs"]
    sections = chromium.evaluate("Array.from(document.querySelectorAll('section')).map(s => s.id)")
    links = chromium.evaluate("Array.from(document.querySelectorAll('nav a')).map(a => a.getAttribute('href'))")
    assert "overview" in sections and not {"cohort", "dyads", "terms", "imported-strata", "figure3"} & set(sections)
    assert links == [f"#{section}" for section in sections]
    text = chromium.evaluate("document.body.innerText")
    assert text.count("No data yet.") == 1 and "biasmirror build" in text
    assert "not recorded (marts built before builds were recorded" in text  # the footer says what it cannot know


def _numbers(cell: str) -> list[float]:
    return [float(x) for x in re.findall(r"[-+]?\d+\.\d+", cell.replace("−", "-"))]


def assert_interval(cell: str, expected: list[float], scale: float = 1.0) -> list[float]:
    """A printed estimate [low, high]: each number is the value rounded to the decimals shown (at least two),
    and bounds that differ are printed differently."""
    shown = _numbers(cell)
    digits = len(re.search(r"\.(\d+)", cell).group(1))
    assert digits >= 2 and shown == pytest.approx([v * scale for v in expected], abs=0.51 * 10 ** -digits), cell
    assert expected[1] == expected[2] or shown[1] != shown[2], cell
    return shown


def test_every_imported_stratum_has_its_forest_plot_and_table(report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    strata = demo_warehouse().query(
        "select * from audit.paired_metrics where generator = 'imported' "
        "and stratum_name not in ('overall', 'documented_level')")
    assert {"nurse_patient_dyad", "site"} <= set(strata.stratum_name)
    for (dataset, model, setting, name), rows in strata.groupby(["dataset", "model", "setting", "stratum_name"]):
        slug = re.sub(r"[^a-z0-9]+", "-", f"{name}-{dataset}-{model}-{setting}".lower()).strip("-")
        assert f'id="fig-imported-{slug}"' in html, slug
        table_html = html[html.index(f'id="tbl-imported-{slug}"'):]
        table_html = table_html[:table_html.index("</table>")]
        for value, stratum in rows.groupby("stratum_value"):
            row_html = re.search(rf"<tr><td>{re.escape(value)}</td>(.*?)</tr>", table_html)
            assert row_html, (slug, value)
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row_html.group(1))
            assert cells[0] == f"{int(stratum.n_pairs.iloc[0]):,}"
            pooled = stratum.set_index("metric").loc["pooled_rate"]
            # pooled rate in percent with its interval; the bounds of an interval with width never print alike
            assert_interval(cells[1], [pooled.estimate, pooled.ci_low, pooled.ci_high], scale=100)


def test_tables_print_without_losing_columns(report: Path, chromium: Chromium) -> None:
    width = 760  # narrower than the widest tables on screen (they scroll there), about A4 portrait's text width
    layout_js = """(() => Array.from(document.querySelectorAll('.bm-table')).map(t => {
        const last = t.querySelector('thead th:last-child').getBoundingClientRect();
        const box = t.querySelector('.bm-scroll');
        return {id: t.id, lastRight: last.right, wide: box.scrollWidth > box.clientWidth + 1};
      }))()"""
    chromium.load(report, width=width)
    screen = chromium.evaluate(layout_js)
    assert any(t["wide"] for t in screen), "no table is wider than the window on screen: the check would prove nothing"
    try:
        chromium.emulate_print(True)
        printed = chromium.evaluate(layout_js)
        page_overflow = chromium.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    finally:
        chromium.emulate_print(False)
    assert page_overflow <= 0
    for table in printed:  # on paper nothing scrolls: every last column lies inside the page
        assert not table["wide"] and table["lastRight"] <= width + 1, table


def test_cli_writes_the_report_and_explains_a_missing_warehouse(tmp_path: Path) -> None:
    from biasmirror.cli import app

    runner = CliRunner()
    workspace = demo_warehouse()
    with workspace.active():
        result = runner.invoke(app, ["report", "--out", str(tmp_path / "cli")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "cli" / "index.html").stat().st_size > 50_000
    assert "figures" in result.output
    missing = Workspace(tmp_path / "nothing")
    with missing.active():
        result = runner.invoke(app, ["report", "--out", str(tmp_path / "none")])
    assert result.exit_code == 1
    assert "No warehouse at" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "none" / "index.html").exists()
