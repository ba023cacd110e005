"""A group's statistics and charts."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.access import member_group
from scoring.history.charts import bars
from scoring.history.ratings import ranked, ratings
from scoring.history.statistics import PlayerStats, group_stats
from scoring.http import HtmxHttpRequest
from scoring.wording import PARTS


@require_safe
def group_stats_page(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Per game: each player's plays, wins, win rates, scores, streaks, rating; head-to-heads; wins per player."""
    group = member_group(request, group_id)
    rated = ratings(group)
    sections = [
        {
            "stats": stats,
            "wins_chart": bars(_("Wins per player"), [(player.name, player.wins) for player in stats.players]),
            "parts": [(part, PARTS[part]) for part in _parts(stats.players)],
            "ratings": ranked(stats.players, rated.get(stats.kind, {})),
        }
        for stats in group_stats(group)
    ]
    return render(request, "history/stats.html", {"group": group, "sections": sections})


def _parts(players: list[PlayerStats]) -> list[str]:
    parts: dict[str, None] = {}
    for player in players:
        parts.update(dict.fromkeys(player.average_parts()))
    return list(parts)
