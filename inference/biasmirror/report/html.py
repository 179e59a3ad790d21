"""HTML building blocks of the report: figures with captions, tables, "no data yet" panels, the page."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from typing import Sequence

import pandas as pd


def slug(*parts: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")


def figure(figure_id: str, svg: str, caption: str) -> str:
    """A figure: inline SVG and a caption (what it shows, how to read the sign). Caption text is HTML."""
    return (f'<figure class="bm-figure" id="{escape(figure_id)}">{svg}'
            f'<figcaption>{caption}</figcaption></figure>')


def table(table_id: str, frame: pd.DataFrame, caption: str, numeric: Sequence[str] = ()) -> str:
    """A table from a frame of already formatted cells (text is escaped)."""
    head = "".join(f"<th>{escape(str(c))}</th>" for c in frame.columns)
    body = []
    for row in frame.itertuples(index=False):
        cells = []
        for column, value in zip(frame.columns, row):
            css = ' class="num"' if column in numeric else ""
            cells.append(f"<td{css}>{escape('' if value is None or (isinstance(value, float) and pd.isna(value)) else str(value))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="bm-table" id="{escape(table_id)}"><table>'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
            f'<p class="caption">{caption}</p></div>')


def no_data(panel_id: str, what: str, how: str) -> str:
    """The panel shown in place of a figure or table whose mart is missing or empty."""
    return (f'<div class="no-data" id="{escape(panel_id)}"><strong>No data yet.</strong> {what} '
            f'<span class="how">To fill it: {how}</span></div>')


def note(text: str) -> str:
    return f'<p class="note">{text}</p>'


@dataclass
class Section:
    section_id: str
    title: str
    intro: str = ""
    blocks: list[str] = field(default_factory=list)

    def html(self) -> str:
        intro = f"<p>{self.intro}</p>" if self.intro else ""
        return (f'<section id="{escape(self.section_id)}"><h2>{escape(self.title)}</h2>{intro}'
                + "".join(self.blocks) + "</section>")


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
.bm-figure { margin: 14px 0 22px 0; }
.bm-svg { display: block; width: 100%; height: auto; }
.bm-wordcloud { max-width: 760px; border: 1px solid #eaeded; }
figcaption, .caption { font-size: 12.5px; color: #2c3e50; text-align: left; margin-top: 6px; max-width: 1000px; }
figcaption b, .caption b { color: #17202a; }
.bm-table { overflow-x: auto; margin: 12px 0 20px 0; }
table { border-collapse: collapse; font-size: 12.5px; }
th, td { border-bottom: 1px solid #e5e8e8; padding: 4px 10px; text-align: left; white-space: nowrap; }
th { background: #f4f6f6; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.no-data { border: 1px dashed #b3b6b7; background: #f8f9f9; padding: 12px 16px; margin: 12px 0 20px 0; font-size: 13px; }
.no-data .how { display: block; margin-top: 4px; color: #515a5a; }
.note { font-size: 12.5px; color: #515a5a; }
.sign { background: #fef9e7; border-left: 4px solid #f4d03f; padding: 8px 14px; font-size: 13px; }
code { background: #f4f6f6; padding: 1px 4px; border-radius: 3px; font-size: 12px; }
"""


def page(title: str, subtitle: Sequence[str], sections: Sequence[Section]) -> str:
    nav = "".join(f'<a href="#{escape(s.section_id)}">{escape(s.title)}</a>' for s in sections)
    header = "".join(f"<p>{line}</p>" for line in subtitle)
    body = "".join(s.html() for s in sections)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<link rel=\"icon\" href=\"data:,\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<header><h1>{escape(title)}</h1>{header}</header><nav>{nav}</nav><main>{body}</main></body></html>\n")
