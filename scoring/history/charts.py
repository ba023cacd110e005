"""Charts drawn on the server as SVG: no JavaScript, readable in dark mode (colours come from the page's
CSS: text in ``currentColor``, bars in the palette classes ``.series-N``), sized for a phone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import mean

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString

WIDTH = 360
ROW = 28
LABEL = 110


def _svg(height: int, title: str, body: SafeString) -> SafeString:
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" width="100%" role="img" aria-label="{}"><title>{}</title>{}</svg>',
        WIDTH,
        height,
        title,
        title,
        body,
    )


def bars(title: str, items: Sequence[tuple[str, int]]) -> SafeString:
    """Horizontal bars, one per item (label, value): wins per player."""
    top = max((value for _label, value in items), default=0) or 1
    span = WIDTH - LABEL - 40
    rows = format_html_join(
        "",
        '<text x="0" y="{}" class="chart-label">{}</text>'
        '<rect x="{}" y="{}" width="{}" height="{}" class="series-0"/>'
        '<text x="{}" y="{}" class="chart-value">{}</text>',
        (
            (
                index * ROW + 19,
                escape(label[:14]),
                LABEL,
                index * ROW + 6,
                round(span * value / top),
                ROW - 10,
                LABEL + round(span * value / top) + 6,
                index * ROW + 19,
                value,
            )
            for index, (label, value) in enumerate(items)
        ),
    )
    return _svg(max(1, len(items)) * ROW + 4, title, rows)


def stacked(title: str, rows: Sequence[tuple[str, Sequence[int]]], parts: Sequence[str]) -> SafeString:
    """A bar per row (label, the values of its parts), the parts stacked; a legend of the parts below."""
    top = max((sum(max(value, 0) for value in values) for _label, values in rows), default=0) or 1
    span = WIDTH - LABEL - 40
    pieces = []
    for index, (label, values) in enumerate(rows):
        y = index * ROW
        pieces.append(format_html('<text x="0" y="{}" class="chart-label">{}</text>', y + 19, escape(label[:14])))
        x = LABEL
        for part, value in enumerate(values):
            width = round(span * max(value, 0) / top)
            pieces.append(
                format_html(
                    '<rect x="{}" y="{}" width="{}" height="{}" class="series-{}"><title>{}: {}</title></rect>',
                    x,
                    y + 6,
                    width,
                    ROW - 10,
                    part % 6,
                    parts[part],
                    value,
                )  # fmt: skip
            )
            x += width
        pieces.append(format_html('<text x="{}" y="{}" class="chart-value">{}</text>', x + 6, y + 19, sum(values)))
    legend_y = len(rows) * ROW + 16
    for part, name in enumerate(parts):
        x = (part % 3) * 120
        y = legend_y + (part // 3) * 20
        pieces.append(
            format_html(
                '<rect x="{}" y="{}" width="12" height="12" class="series-{}"/>'
                '<text x="{}" y="{}" class="chart-legend">{}</text>',
                x,
                y - 10,
                part % 6,
                x + 16,
                y,
                name,
            )  # fmt: skip
        )
    height = legend_y + ((len(parts) + 2) // 3) * 20
    return _svg(height, title, SafeString("".join(pieces)))


MOST_POINTS = 60
"""A line chart draws at most this many points: more would not be told apart on a phone."""


def line(
    title: str, points: Sequence[tuple[str, float]], combine: Callable[[Sequence[float]], float] = mean
) -> SafeString:
    """A player's scores (or ratings) over time: a point per game (label, value), joined by a line. Beyond
    :data:`MOST_POINTS` games, each point stands for as many games in a row (labelled with their first and last
    labels), its value is ``combine`` of those games' values (their mean, unless told)."""
    points = _thinned(points, combine)
    height, left, bottom = 180, 36, 150
    values = [value for _label, value in points]
    low, high = min([0, *values]), max([1, *values])
    step = (WIDTH - left - 10) / max(1, len(points) - 1)

    def y(value: float) -> float:
        return round(bottom - (bottom - 10) * (value - low) / (high - low), 1)

    coordinates = [(round(left + index * step, 1), y(value)) for index, value in enumerate(values)]
    path = " ".join(f"{x},{y_}" for x, y_ in coordinates)
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="4" class="series-0"><title>{}: {}</title></circle>',
        ((x, y_, label, value) for (x, y_), (label, value) in zip(coordinates, points, strict=True)),
    )
    axis = format_html(
        '<line x1="{}" y1="{}" x2="{}" y2="{}" class="chart-axis"/>'
        '<text x="0" y="{}" class="chart-legend">{}</text><text x="0" y="{}" class="chart-legend">{}</text>'
        '<text x="{}" y="172" class="chart-legend">{}</text><text x="{}" y="172" class="chart-legend" '
        'text-anchor="end">{}</text>',
        left, bottom, WIDTH - 10, bottom, y(high) + 4, high, bottom, low,
        left, points[0][0] if points else "", WIDTH - 10, points[-1][0] if points else "",
    )  # fmt: skip
    trail = format_html('<polyline points="{}" class="chart-line"/>', path) if len(points) > 1 else SafeString("")
    return _svg(height, title, SafeString(axis + trail + dots))


def _thinned(
    points: Sequence[tuple[str, float]], combine: Callable[[Sequence[float]], float]
) -> list[tuple[str, float]]:
    """``points`` as at most :data:`MOST_POINTS` points, each of as many points in a row (the last one fewer)."""
    size = -(-len(points) // MOST_POINTS)  # rounded up
    if size <= 1:
        return list(points)
    runs = [points[start : start + size] for start in range(0, len(points), size)]
    return [
        (f"{run[0][0]} – {run[-1][0]}" if len(run) > 1 else run[0][0], round(combine([v for _l, v in run]), 1))
        for run in runs
    ]
