"""A small, deterministic SVG word cloud: words placed on an Archimedean spiral around the centre, largest
first, each at the first position where its (estimated) box overlaps no word already placed."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Sequence

from markupsafe import Markup


@dataclass(frozen=True)
class Word:
    text: str
    weight: float        # > 0: sets the font size
    color: str
    opacity: float = 1.0
    tooltip: str = ""


_COLOR = re.compile(r"\A#[0-9a-fA-F]{6}\Z")

# Average advance of a DejaVu Sans glyph, as a fraction of the font size (a safe over-estimate for lower case).
_CHAR_WIDTH = 0.66


def word_cloud_svg(words: Sequence[Word], name: str, width: int = 640, height: int = 300,
                   min_size: float = 11.0, max_size: float = 40.0) -> Markup:
    """SVG of the cloud; words that find no room are left out (the ranked table lists them all). Words and
    tooltips come from the notes, so they are escaped; colours must be #rrggbb."""
    ordered = sorted((w for w in words if w.weight > 0), key=lambda w: (-w.weight, w.text))
    top = ordered[0].weight if ordered else 1.0
    bottom = ordered[-1].weight if ordered else 0.0
    span = top - bottom
    placed: list[tuple[float, float, float, float]] = []
    parts = []
    for word in ordered:
        # font size grows with the weight over the range shown (all the same weight: all mid-sized)
        relative = (word.weight - bottom) / span if span > 0 else 0.5
        size = min_size + (max_size - min_size) * math.sqrt(relative)
        box_w, box_h = _CHAR_WIDTH * size * len(word.text) + 8, size * 1.1
        position = _find_position(box_w, box_h, placed, width, height)
        if position is None:
            continue
        x, y = position
        placed.append((x - box_w / 2, y - box_h / 2, x + box_w / 2, y + box_h / 2))
        if not _COLOR.match(word.color):
            raise ValueError(f"word cloud colours must be #rrggbb, got {len(word.color)} characters")
        title = Markup("<title>{}</title>").format(word.tooltip) if word.tooltip else Markup("")
        parts.append(Markup(
            '<text x="{:.1f}" y="{:.1f}" font-size="{:.1f}" fill="{}" fill-opacity="{:.2f}" text-anchor="middle" '
            'dominant-baseline="central">{}{}</text>').format(x, y, size, word.color, word.opacity, title, word.text))
    return Markup('<svg class="bm-svg bm-wordcloud" role="img" aria-label="{}" viewBox="0 0 {} {}" '
                  'xmlns="http://www.w3.org/2000/svg" font-family="DejaVu Sans, Arial, sans-serif">'
                  '<rect width="{}" height="{}" fill="#fbfcfc"/>{}</svg>').format(
        name, width, height, width, height, Markup("").join(parts))


def _find_position(box_w: float, box_h: float, placed: list[tuple[float, float, float, float]], width: int,
                   height: int) -> tuple[float, float] | None:
    cx, cy = width / 2, height / 2
    aspect = width / height
    for step in range(4000):
        angle = 0.35 * step
        radius = 1.2 * angle
        x, y = cx + aspect * radius * math.cos(angle) * 0.75, cy + radius * math.sin(angle) * 0.75
        left, top, right, bottom = x - box_w / 2, y - box_h / 2, x + box_w / 2, y + box_h / 2
        if left < 2 or top < 2 or right > width - 2 or bottom > height - 2:
            if radius > max(width, height):
                return None
            continue
        if all(right <= a or left >= c or bottom <= b or top >= d for a, b, c, d in placed):
            return x, y
    return None
