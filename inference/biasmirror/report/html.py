"""HTML building blocks of the report: figures with captions, tables, "no data yet" panels, the page.

Escaping by construction: every function here takes text as `str | Markup`. A plain `str` is always escaped;
only `Markup` is inserted as HTML. Markup is written by the report's own code, as a literal
(`Markup("<b>Cohort flow.</b> ...")`) or a template whose arguments are escaped as they are filled in
(`Markup("<b>{}</b>").format(model_name)`, `html("<b>{}</b>", model_name)`). A string read from the warehouse
(a data set, model or generator name, a stratum value, a term) is a `str`, so it can only ever arrive in the
page escaped, wherever a section puts it, its control and bidirectional-formatting characters made visible
(biasmirror.display.shown: a U+202E in a model name cannot reverse a cell). Never build Markup from a string
that holds data (`Markup(f"...")`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence, Union

import pandas as pd
from markupsafe import Markup, escape

from biasmirror.display import shown

Html = Union[str, Markup]  # str: escaped on output; Markup: the report's own HTML

__all__ = ["Markup", "Html", "escape", "html", "slug", "figure", "table", "no_data", "Omitted", "note", "Section", "page",
           "CONTENT_SECURITY_POLICY"]

# No scripts, no plug-ins, nothing from the network (or from disk beside the page): inline styles and the
# inline SVG figures only. `data:` images cover the empty favicon that stops browsers asking for one.
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'none'; object-src 'none'; base-uri 'none'; "
                           "form-action 'none'; connect-src 'none'; font-src 'none'; media-src 'none'; "
                           "frame-src 'none'; worker-src 'none'; style-src 'unsafe-inline'; img-src data:")


def _text(value: Any) -> Any:
    """A plain string with its control and bidirectional-formatting characters made visible
    (biasmirror.display.shown), before it is escaped; Markup and other values as they are."""
    return value if isinstance(value, Markup) or not isinstance(value, str) else shown(value)


def html(template: str, *args: Any, **kwargs: Any) -> Markup:
    """`template` (the report's own HTML) with every argument escaped (and control or bidirectional-formatting
    characters in it made visible): html("<b>{}</b>", name)."""
    return Markup(template).format(*(_text(a) for a in args), **{k: _text(v) for k, v in kwargs.items()})


def join(blocks: Sequence[Html], separator: str = "") -> Markup:
    """Blocks joined: Markup as is, plain strings escaped."""
    return Markup(separator).join(_text(block) for block in blocks)


def slug(*parts: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", "-".join(str(p) for p in parts).lower()).strip("-")


def figure(figure_id: str, svg: Markup, caption: Html) -> Markup:
    """A figure: inline SVG (Markup from figures.py / wordcloud.py) and a caption (what it shows, how to read
    the sign)."""
    if not isinstance(svg, Markup):
        raise TypeError("figure() takes the SVG as Markup (from biasmirror.report.figures); got a plain string")
    return html('<figure class="bm-figure" id="{}">{}<figcaption>{}</figcaption></figure>', figure_id, svg, caption)


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    return value if isinstance(value, Markup) else shown(value)


def table(table_id: str, frame: pd.DataFrame, caption: Html, numeric: Sequence[str] = ()) -> Markup:
    """A table from a frame of already formatted cells (every header and cell is escaped). Wide tables scroll
    sideways inside their box (the box, not the page, gets a scroll bar) instead of being cut off."""
    head = join([html("<th>{}</th>", str(c)) for c in frame.columns])
    body = []
    for row in frame.itertuples(index=False):
        cells = [html('<td class="num">{}</td>' if column in numeric else "<td>{}</td>", _cell(value))
                 for column, value in zip(frame.columns, row)]
        body.append(html("<tr>{}</tr>", join(cells)))
    return html('<div class="bm-table" id="{}"><div class="bm-scroll" tabindex="0" role="region" aria-label="{}">'
                '<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table></div>'
                '<p class="caption">{}</p></div>', table_id, f"table {table_id} (scrolls sideways when wide)", head,
                join(body), caption)


class Omitted(Markup):
    """A figure or table left out because its mart is missing or empty: it renders as nothing, and a section
    left with nothing else is left out of the page and its navigation (`panel_id` names it in ReportResult)."""

    panel_id: str = ""


def no_data(panel_id: str, what: Html, how: Html, *, shown: bool = False) -> Markup:
    """In place of a figure or table whose mart is missing or empty: nothing (an Omitted block), unless `shown`,
    then a panel saying what is missing and what fills it (the report of a warehouse with no pairs at all)."""
    if not shown:
        omitted = Omitted(html('<!-- no data: id="{}" -->', panel_id))
        omitted.panel_id = panel_id
        return omitted
    return html('<div class="no-data" id="{}"><strong>No data yet.</strong> {} <span class="how">To fill it: {}</span>'
                '</div>', panel_id, what, how)


def note(text: Html) -> Markup:
    return html('<p class="note">{}</p>', text)


@dataclass
class Section:
    section_id: str
    title: str
    intro: Html = ""
    blocks: list[Html] = field(default_factory=list)

    def omitted(self) -> list[str]:
        """The ids of the blocks left out for want of data."""
        return [block.panel_id for block in self.blocks if isinstance(block, Omitted)]

    def has_content(self) -> bool:
        """Whether any block is shown (a section of omitted blocks alone is left out of the page)."""
        return any(not isinstance(block, Omitted) for block in self.blocks)

    def html(self) -> Markup:
        intro = html("<p>{}</p>", self.intro) if self.intro else Markup("")
        return html('<section id="{}"><h2>{}</h2>{}{}</section>', self.section_id, self.title, intro,
                    join([block for block in self.blocks if not isinstance(block, Omitted)]))


CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 0; color: #17202a; background: #fff; line-height: 1.45; }
header { background: #1b2631; color: #fdfefe; padding: 18px 32px; }
header h1 { margin: 0 0 4px 0; font-size: 22px; }
header p { margin: 2px 0; font-size: 13px; color: #d5d8dc; }
header code { background: #2e4053; color: #fdfefe; }
nav { padding: 10px 32px; border-bottom: 1px solid #d5d8dc; font-size: 13px; }
nav a { margin-right: 14px; color: #1b6ca8; text-decoration: none; }
main { max-width: 1200px; padding: 8px 32px 48px 32px; }
h2 { border-bottom: 2px solid #1b6ca8; padding-bottom: 4px; margin-top: 36px; font-size: 19px; }
h3 { font-size: 15px; margin: 22px 0 6px 0; }
.bm-figure { margin: 14px 0 22px 0; max-width: 100%; overflow-x: auto; }
.bm-svg { display: block; width: 100%; height: auto; }
.bm-wordcloud { max-width: 760px; border: 1px solid #eaeded; box-sizing: border-box; }
figcaption, .caption { font-size: 12.5px; color: #2c3e50; text-align: left; margin-top: 6px; max-width: 1000px; }
figcaption b, .caption b { color: #17202a; }
.bm-table { margin: 12px 0 20px 0; max-width: 100%; }
.bm-scroll { overflow-x: auto; width: fit-content; max-width: 100%; }
.bm-scroll:focus { outline: 2px solid #85c1e9; }
table { border-collapse: collapse; font-size: 12.5px; }
th, td { border-bottom: 1px solid #e5e8e8; padding: 4px 10px; text-align: left; white-space: nowrap; }
td { max-width: 40em; overflow-wrap: anywhere; }
th { background: #f4f6f6; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.no-data { border: 1px dashed #b3b6b7; background: #f8f9f9; padding: 12px 16px; margin: 12px 0 20px 0; font-size: 13px; }
.no-data .how { display: block; margin-top: 4px; color: #515a5a; }
.note { font-size: 12.5px; color: #515a5a; }
.sign { background: #fef9e7; border-left: 4px solid #f4d03f; padding: 8px 14px; font-size: 13px; }
.simulated { background: #fdedec; border-left: 4px solid #c0392b; padding: 8px 14px; font-size: 13px; }
code { background: #f4f6f6; padding: 1px 4px; border-radius: 3px; font-size: 12px; }
footer { border-top: 1px solid #d5d8dc; padding: 12px 32px 28px 32px; font-size: 12px; color: #515a5a; }
footer dl { display: grid; grid-template-columns: max-content auto; gap: 2px 14px; margin: 6px 0 0 0; }
footer dt { font-weight: bold; color: #2c3e50; }
footer dd { margin: 0; overflow-wrap: anywhere; }
/* Print and PDF: no box scrolls on paper, so a wide table wraps its cells to the page instead of being cut. */
@page { size: A4 landscape; margin: 12mm; }
@media print {
  header { background: none; color: #17202a; padding: 0 0 8px 0; }
  header p, header code { color: #17202a; background: none; }
  nav { display: none; }
  main { max-width: none; padding: 0; }
  footer { padding: 8px 0 0 0; }
  .bm-scroll { overflow: visible; width: auto; max-width: none; }
  .bm-figure { overflow: visible; break-inside: avoid; }
  table { font-size: 8pt; width: 100%; table-layout: auto; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  th, td { white-space: normal; overflow-wrap: anywhere; padding: 2px 4px; max-width: none; }
}
"""


def page(title: str, subtitle: Sequence[Html], sections: Sequence[Section], footer: Html = "") -> str:
    """The whole document. The Content-Security-Policy meta tag comes first in <head>, before anything it
    governs: even if some text escaped escaping, the browser would run no script and load nothing."""
    sections = [s for s in sections if s.has_content()]
    nav = join([html('<a href="#{}">{}</a>', s.section_id, s.title) for s in sections])
    header = join([html("<p>{}</p>", line) for line in subtitle])
    body = join([s.html() for s in sections])
    foot = html("<footer>{}</footer>", footer) if footer else Markup("")
    document = html(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="{}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        '<link rel="icon" href="data:,">'
        "<title>{}</title><style>{}</style></head><body>"
        "<header><h1>{}</h1>{}</header><nav>{}</nav><main>{}</main>{}</body></html>\n",
        CONTENT_SECURITY_POLICY, title, Markup(CSS), title, header, nav, body, foot)
    return str(document)
