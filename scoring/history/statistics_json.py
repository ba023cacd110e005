"""A group's statistics as data (``statistics.json``): the same figures as its statistics page and its players'
pages, read from the same stored sums (:func:`scoring.history.summary.history`), so that the two never disagree.

Per game kind (``okanagan``, ``small_islands``, ``cooper_island``: the kinds the group has finished games of):
``games`` (finished games), ``players`` — each with ``name``, ``plays``, ``wins``, ``rating`` (``mu``, ``sigma``,
``ordinal`` = μ − 3σ and ``games`` rated; ``null`` before a game of two players or more) and, for Okanagan,
``insights`` (totals over their finished games played here, :meth:`~scoring.history.insights.Insights.to_data`;
``null`` when all their plays were imported) — and ``records``; for Okanagan also ``group_insights`` (the group's
average player) and ``winners_and_others``. docs/players.md defines each figure.
"""

from __future__ import annotations

from typing import Final

from scoring.history.insights import Json
from scoring.history.ratings import Rating
from scoring.history.summary import history
from scoring.models import Game, Group

STATISTICS_FORMAT: Final = "okanagan-companion-statistics/1"


def statistics_document(group: Group) -> dict[str, Json]:
    """The group's statistics as JSON data, from its sums (:mod:`scoring.history.summary`): two queries however many
    games it has."""
    summary = history(group)
    games: dict[str, Json] = {}
    for stats in summary.stats():
        sums = summary.kinds[stats.kind]
        okanagan = stats.kind == Game.Kind.OKANAGAN
        rated = sums.rated()
        players: list[Json] = []
        for player in stats.players:
            entry: dict[str, Json] = {
                "name": player.name,
                "plays": player.plays,
                "wins": player.wins,
                "rating": _rating(rated.get(player.key)),
            }
            if okanagan:
                found = sums.insights.get(player.key)
                entry["insights"] = None if found is None else found.to_data()
            players.append(entry)
        section: dict[str, Json] = {
            "games": stats.games,
            "players": players,
            "records": [record.to_data() for record in sums.records()],
        }
        if okanagan:
            section["group_insights"] = sums.split.group.to_data()
            section["winners_and_others"] = sums.split.to_data()
        games[stats.kind.value] = section
    return {"format": STATISTICS_FORMAT, "group": group.name, "games": games}


def _rating(rating: Rating | None) -> Json:
    if rating is None:
        return None
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal, "games": rating.games}
