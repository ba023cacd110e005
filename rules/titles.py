"""The three games as published: their names, years and BoardGameGeek ids.

Facts about the boxes, not rules; they live here so that every place that names a game outside the app (the
BoardGameGeek links, the BG Stats export) takes them from one table.

    >>> TITLES["okanagan"].bgg_url
    'https://boardgamegeek.com/boardgame/230089/okanagan-valley-of-the-lakes'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Title:
    """A published game."""

    key: str
    """The app's stable id of the game (the site's game kind; BG Stats' ``sourceGameId``)."""
    name: str
    """The published English title, as BoardGameGeek lists it."""
    year: int
    bgg_id: int
    """The BoardGameGeek id (verified against BoardGameGeek's pages, see ``../shared/spec/bgstats.md``)."""
    bgg_slug: str

    @property
    def bgg_url(self) -> str:
        """The game's page on BoardGameGeek."""
        return f"https://boardgamegeek.com/boardgame/{self.bgg_id}/{self.bgg_slug}"


TITLES: Final[dict[str, Title]] = {
    title.key: title
    for title in (
        Title("okanagan", "Okanagan: Valley of the Lakes", 2017, 230089, "okanagan-valley-of-the-lakes"),
        Title("small_islands", "Small Islands", 2018, 236248, "small-islands"),
        Title("cooper_island", "Cooper Island", 2019, 269511, "cooper-island"),
    )
}
"""Each game by its key: ``okanagan``, ``small_islands``, ``cooper_island``."""
