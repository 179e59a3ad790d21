"""A report that cannot run scripts: a warehouse whose data set, model and generator names, stratum names and
values, terms, prompt sets and cohort steps are hostile strings renders to a page that, parsed (the standard
library's HTML parser, then Chromium's own DOM), has no script element, no event-handler attribute, no
javascript: URL and no element the report does not write itself, shows every hostile string as text, and carries
a Content-Security-Policy that stops scripts and network loads even if escaping ever failed."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from biasmirror.display import shown
from biasmirror.report.html import CONTENT_SECURITY_POLICY
from biasmirror.report.render import write_report
from warehouse_workspace import Workspace
from pair_references import random_pairs
from report_browser import BrowserUnavailable, Chromium

# slow (make test-fast leaves it out): its tests build warehouses with dbt
pytestmark = pytest.mark.slow

HOSTILE = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    '"><svg onload=alert(1)>',
    "' onmouseover='alert(1)' x='",
    "]]><script>alert(2)</script>",
    "<![CDATA[<script>alert(3)</script>]]>",
    "\u202eexe.gnp<a href=javascript:alert(4)>x</a>",  # right-to-left override
    "</style><script>alert(5)</script>",
    "</title><script>alert(6)</script>",
    "<!--<script>alert(7)//-->",
    "<iframe srcdoc='<script>alert(8)</script>'></iframe>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(9)>",
    "<svg><foreignObject><body onload=alert(10)>",
    "$\\alpha$ {{7*7}} &lt;b&gt; %s",  # mathtext, template syntax, an entity that must stay literal
    "\u0000nul\u200bzero-width\ufeffbom",
)
DATASET, MODEL, OTHER_MODEL = HOSTILE[1], HOSTILE[0], HOSTILE[3]

# What the report writes itself: HTML elements and the SVG elements matplotlib and the word cloud emit.
ALLOWED_TAGS = {
    "html", "head", "meta", "link", "title", "style", "body", "header", "h1", "h2", "h3", "p", "b", "strong",
    "code", "sub", "span", "nav", "a", "main", "section", "figure", "figcaption", "div", "table", "thead", "tbody",
    "tr", "th", "td", "footer", "dl", "dt", "dd",
    "svg", "g", "path", "text", "defs", "use", "clippath", "rect", "line", "circle", "polyline", "polygon", "tspan",
}
URL_ATTRIBUTES = {"href", "src", "xlink:href", "action", "formaction", "data", "srcdoc", "poster", "background"}


class PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []  # (tag, name, value)
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes.extend((tag, name, value or "") for name, value in attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _is_javascript_url(value: str) -> bool:
    # browsers drop ASCII whitespace and control characters inside a scheme
    squeezed = re.sub(r"[\x00-\x20]+", "", value).lower()
    return squeezed.startswith(("javascript:", "vbscript:", "data:text/html"))


@pytest.fixture(scope="module")
def hostile_report(module_workspace: Workspace, tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = module_workspace
    rng = np.random.default_rng(11)
    for model, bias in ((MODEL, 0.2), (OTHER_MODEL, -0.1)):
        pairs = random_pairs(rng, 600, shift_probability=0.25, female_bias=bias)
        pairs["stratum_" + "x\"><img src=x onerror=alert(11)>"] = rng.choice(list(HOSTILE[:6]), len(pairs))
        pairs["stratum_nurse_patient_dyad"] = (rng.choice(["F", "M"], len(pairs)) + "_nurse_"
                                               + pairs["original_sex"] + "_patient")
        ws.import_pairs(pairs, DATASET, model, "full", name=f"pairs-{bias}.parquet")
    with ws.active():
        from biasmirror.backends.registry import make_backend
        from biasmirror.implicit.runs import run_allocation, run_associations

        backend = make_backend("simulated", "sim", seed=2)
        run_associations(backend, label=HOSTILE[2], languages=["en"], categories=["risk", "veracity"], iterations=6)
        run_allocation(backend, label=HOSTILE[4], languages=["en"], disciplines=["sti"], explanations=[False],
                       symptom_conditions=[False])
    # audit gates on (severity warn): the hostile-named models cross them, so the gates table lists them
    ws.build(variables={"bootstrap_resamples": 50, "implicit_bootstrap_resamples": 50, "gate_max_pdr": 0.05,
                        "gate_pooled_rate_margin": 0.0})
    # Terms, counterfactual generators and cohort steps cannot carry markup through the pipeline (terms are runs
    # of letters; generator names are sanitised; steps come from a seed), so hostile ones are written into the
    # marts directly: the rendering must escape them wherever they come from.
    import duckdb

    with duckdb.connect(str(ws.warehouse)) as con:
        for i, term in enumerate(HOSTILE):
            for metric, order in (("dts_m_to_f", 6), ("dts_f_to_m", 7), ("pooled_rate", 10), ("pdr", 0)):
                con.execute(
                    "insert into audit.term_associations by name select ? as dataset, ? as model, 'imported' as generator, "
                    "'full' as setting, ? as term, ? as metric, ? as estimate, ? as ci_low, ? as ci_high, 80 as n_pairs, "
                    "40 as n_m_to_f, 40 as n_f_to_m, false as is_small_stratum, 50 as n_boot, ? as metric_order",
                    [DATASET, MODEL, term, metric, 0.01 * (i + 1) * (-1) ** i, -0.05, 0.2, order])
            con.execute("insert into audit.term_frequencies by name select ? as dataset, ? as term, 30 as n_notes_female, "
                        "20 as n_notes_male, 50 as n_notes, 100 as n_records_female, 100 as n_records_male, "
                        "0.3 as share_female, 0.2 as share_male, 0.1 * ? as share_difference, ? as rank_female, "
                        "? as rank_male", [DATASET, term, (-1) ** i, i + 1, i + 1])
        con.execute("insert into audit.counterfactual_quality by name select ? as dataset, ? as language, ? as generator, "
                    "10 as n_copies, 0.1 as flagged_share", [DATASET, HOSTILE[8], HOSTILE[5]])
        for order, (step, remaining, excluded) in enumerate(((HOSTILE[9], 100, 0), ("exclude: " + HOSTILE[10], 90, 10),
                                                             ("split: " + HOSTILE[11], 45, 0))):
            con.execute("insert into audit.cohort_flow by name select ? as dataset, ? as step, ? as step_order, "
                        "? as n_remaining, ? as n_excluded", [HOSTILE[12], step, 100 * (order == 2) + order,
                                                              remaining, excluded])
    return write_report(tmp_path_factory.mktemp("hostile"), ws.warehouse).path


def test_the_parsed_page_has_no_script_handler_or_javascript_url(hostile_report: Path) -> None:
    document = hostile_report.read_text(encoding="utf-8")
    parser = PageParser()
    parser.feed(document)
    parser.close()
    assert "script" not in parser.tags
    assert set(parser.tags) <= ALLOWED_TAGS, sorted(set(parser.tags) - ALLOWED_TAGS)
    handlers = [(tag, name) for tag, name, _ in parser.attributes if name.lower().startswith("on")]
    assert handlers == []
    urls = [(tag, name, value) for tag, name, value in parser.attributes
            if name.lower() in URL_ATTRIBUTES and _is_javascript_url(value)]
    assert urls == []
    # every link stays in the page (or is the empty data: favicon)
    assert {value[:1] for tag, name, value in parser.attributes if name == "href"} <= {"#", "d"}
    # the hostile strings were rendered, as text: names, stratum values, terms and the rest
    text = "".join(parser.text)
    for value in HOSTILE[:14]:  # control and bidirectional-formatting characters made visible (`\\u202e`)
        assert shown(value) in text, value
    assert "\u202e" not in text
    assert HOSTILE[14] in text  # `$...$`, `{{...}}` and `&lt;` shown as typed, not interpreted
    # the sections that carry them were drawn, not replaced by "no data" panels
    for section_id in ("fig-forest-", "tbl-terms-", "fig-wordcloud-dts-m-to-f-", "fig-dyad-", "tbl-comparisons-model",
                       "fig-implicit-association-", "fig-implicit-allocation-", "tbl-counterfactual-quality",
                       "fig-cohort-flow", "tbl-audit-gates", "tbl-odds-ratios-", "fig-wordcloud-frequency-"):
        assert f'id="{section_id}' in document, section_id


def test_the_policy_comes_first_and_forbids_scripts_and_network(hostile_report: Path) -> None:
    document = hostile_report.read_text(encoding="utf-8")
    head = document[:document.index("</head>")]
    assert head.index('http-equiv="Content-Security-Policy"') < head.index("<title>") < head.index("<style>")
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["default-src"] == "'none'" and directives["script-src"] == "'none'"
    assert directives["img-src"] == "data:" and "'unsafe-inline'" == directives["style-src"]


def test_chromium_runs_nothing_and_requests_nothing(hostile_report: Path, tmp_path: Path) -> None:
    try:
        browser = Chromium().__enter__()
    except BrowserUnavailable as error:
        pytest.fail(f"headless Chromium is needed for the report checks and could not be started: {error}")
    try:
        load = browser.load(hostile_report)
        assert load.errors() == []  # no CSP violation: nothing tried to run or load
        assert [url for url in load.requests if url != hostile_report.resolve().as_uri()] == []
        found = browser.evaluate("""(() => {
          const all = Array.from(document.querySelectorAll('*'));
          return {
            scripts: document.scripts.length,
            handlers: all.flatMap(e => Array.from(e.attributes).filter(a => a.name.toLowerCase().startsWith('on'))
                                                             .map(a => e.tagName + ' ' + a.name)),
            javascript: all.flatMap(e => Array.from(e.attributes)
                .filter(a => /^\\s*javascript:/i.test(a.value) && /href|src|action|data/i.test(a.name))
                .map(a => e.tagName + ' ' + a.name)),
            tags: Array.from(new Set(all.map(e => e.tagName.toLowerCase()))),
            title: document.title,
          };
        })()""")
        assert found["scripts"] == 0 and found["handlers"] == [] and found["javascript"] == []
        assert set(found["tags"]) <= ALLOWED_TAGS, sorted(set(found["tags"]) - ALLOWED_TAGS)
        assert found["title"] == "biasmirror audit report"
        # The policy itself: the same page with a planted script and a remote image runs and loads nothing.
        planted = tmp_path / "planted.html"
        planted.write_text(hostile_report.read_text(encoding="utf-8").replace(
            "<main>", "<main><script>document.title = 'ran';</script><img src='http://192.0.2.1/x.png'>"
                      "<div style=\"background: url('http://192.0.2.1/y.png')\">x</div>", 1), encoding="utf-8")
        load = browser.load(planted)
        assert browser.evaluate("document.title") == "biasmirror audit report"
        # Chromium announces each request, then refuses it: nothing leaves the machine
        remote = [url for url in load.requests if url.startswith("http")]
        assert len(remote) == 2 and all(load.blocked.get(url) == "csp" for url in remote), (remote, load.blocked)
        assert any("Content Security Policy" in error for error in load.errors()), load.errors()
    finally:
        browser.__exit__(None, None, None)
