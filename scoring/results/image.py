"""A finished game's result as a PNG drawn on the server, for a chat's link preview (``og:image``): chat apps
do not preview SVG. No external service: Pillow and a font of this machine that has Latin, Hangul and Han
glyphs (Noto Sans CJK), else any TrueType font found, else Pillow's own."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.utils.translation import get_language, ngettext
from PIL import Image, ImageDraw, ImageFont

from rules import score_sheet
from scoring import states
from scoring.models import Game
from scoring.results.final import okanagan_decider, seat_colours, sheet_decider
from scoring.standings import StoredResult, winner_sentence
from scoring.wording import PARTS

WIDTH, HEIGHT = 1200, 630
"""The size chat apps and social sites expect of a link preview (1.91:1)."""

FONT_FILES = {
    "bold": (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ),
    "regular": (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ),
}
CJK_INDEX = {"ko": 1, "zh-hant": 3}
"""The face of the Noto Sans CJK collection to use per language (JP 0, KR 1, SC 2, TC 3): each has every
script, with the shapes of its own."""

BACKGROUND = "#fdfcf8"
INK = "#1d1f1c"
MUTED = "#5b6158"
ACCENT = "#2f6b3a"
BAND = "#e8efe4"
SEAT_INK = {"red": "#b3261e", "purple": "#6f42c1", "orange": "#a85400", "teal": "#00796b"}


@dataclass(frozen=True)
class ImageLine:
    """One player's line on the image: their place, name, seat colour, total and parts (already in words)."""

    place: int
    name: str
    colour: str
    total: str
    parts: str


type Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font(weight: str, size: int, language: str) -> Font:
    """The first font of :data:`FONT_FILES` found on this machine, else Pillow's built-in one."""
    for name in FONT_FILES[weight]:
        if Path(name).exists():
            index = CJK_INDEX.get(language, 0) if name.endswith(".ttc") else 0
            try:
                return ImageFont.truetype(name, size, index=index)
            except OSError:
                continue
    return ImageFont.load_default(size)


def _fit(draw: ImageDraw.ImageDraw, text: str, face: Font, width: int) -> str:
    """``text``, cut with an ellipsis so that it is at most ``width`` pixels wide."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"


def draw_result(title: str, headline: str, decider: str, lines: list[ImageLine], language: str) -> bytes:
    """The result as a 1200×630 PNG: the game, the winner(s), what decided, then each player by rank."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin = 56
    draw.rectangle((0, 0, WIDTH, 16), fill=ACCENT)
    draw.text(
        (margin, 40),
        _fit(draw, title, font("regular", 30, language), WIDTH - 2 * margin),
        MUTED,
        font=font("regular", 30, language),
    )
    draw.text(
        (margin, 84),
        _fit(draw, headline, font("bold", 56, language), WIDTH - 2 * margin),
        ACCENT,
        font=font("bold", 56, language),
    )
    top = 172
    if decider:
        face = font("regular", 26, language)
        draw.text((margin, top), _fit(draw, decider, face, WIDTH - 2 * margin), INK, font=face)
        top += 56
    row = min(96, (HEIGHT - 30 - top) // max(len(lines), 1))
    big = font("bold", min(40, row - 44), language)
    small = font("regular", min(22, row // 4), language)
    for number, line in enumerate(lines):
        y = top + number * row
        if line.place == 1:
            draw.rounded_rectangle((margin - 16, y, WIDTH - margin + 16, y + row - 8), 14, fill=BAND)
        ink = SEAT_INK.get(line.colour, INK)
        draw.text((margin, y + 8), f"{line.place}.", INK, font=big)
        draw.ellipse((margin + 70, y + 22, margin + 94, y + 46), fill=ink)
        total_width = int(draw.textlength(line.total, font=big))
        draw.text((WIDTH - margin - total_width, y + 8), line.total, INK, font=big)
        name_width = WIDTH - 2 * margin - 110 - total_width - 24
        draw.text((margin + 108, y + 6), _fit(draw, line.name, big, name_width), INK, font=big)
        draw.text(
            (margin + 108, y + row - 42), _fit(draw, line.parts, small, WIDTH - 2 * margin - 108), MUTED, font=small
        )
    out = io.BytesIO()
    image.save(out, format="PNG")  # optimize=True: 2 % smaller, twice the time
    return out.getvalue()


def result_png(game: Game, stored: StoredResult) -> bytes:
    """A finished game's result as a PNG for a chat's link preview: the winners, what decided, each player by
    rank with that game's parts, from its ``stored`` result (:mod:`scoring.standings`)."""
    if game.imported:  # its scores and ranks only: nothing says what decided
        decider = ""
    elif game.is_okanagan:
        decider = okanagan_decider(states.current(game).result)
    else:
        decider = sheet_decider(score_sheet(game.sheet))
    colours = seat_colours([player.name for player in stored.players])
    lines = [
        ImageLine(
            player.rank,
            player.name,
            colours[player.name],
            _points(game, player.total),
            " · ".join(f"{PARTS[part]} {points}" for part, points in player.points.items()),
        )
        for player in stored.by_rank
    ]
    title = f"{game.get_kind_display()} · {game.finished or game.created:%Y-%m-%d}"
    return draw_result(title, winner_sentence(stored.winners), decider, lines, get_language() or "en")


def _points(game: Game, total: int) -> str:
    """A total on the image: VP for Okanagan, points on a score sheet."""
    if game.is_okanagan:
        return ngettext("%(points)d VP", "%(points)d VP", total) % {"points": total}
    return ngettext("%(points)d point", "%(points)d points", total) % {"points": total}
