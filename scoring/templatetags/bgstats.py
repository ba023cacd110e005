"""The "Send to BG Stats" links of a finished game, for ``templates/scoring/_bgstats.html``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django import template

from rules import Title
from scoring.bgstats import Scored, app_link, play_date, play_of, web_link
from scoring.models import Game

register = template.Library()


@dataclass(frozen=True)
class Links:
    """What the BG Stats card shows."""

    app: str
    web: str
    played: str
    """The play date sent, in UTC (``YYYY-MM-DD HH:MM:SS``)."""
    title: Title


@register.simple_tag
def bgstats_links(game: Game, scores: Sequence[Scored]) -> Links:
    """The links of the finished ``game`` whose engine results the page holds (``scores``): the page has
    checked who may see them."""
    play = play_of(game, scores)
    return Links(app_link(play), web_link(play), play_date(play.ended), play.title)
