"""A group's statistics and charts."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.access import member_group
from scoring.charts import bars, line
from scoring.http import HtmxHttpRequest
from scoring.stats import PlayerStats, group_stats
from scoring.wording import LABELS


@require_safe
def group_stats_page(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Per game: each player's plays, wins, win rates, scores, streaks; head-to-heads; wins per player."""
    group = member_group(request, group_id)
    sections = [
        {
            "stats": stats,
            "wins_chart": bars(_("Wins per player"), [(player.name, player.wins) for player in stats.players]),
            "parts": [(part, LABELS.get(f"component:{part}", part)) for part in _parts(stats.players)],
        }
        for stats in group_stats(group)
    ]
    return render(request, "scoring/stats.html", {"group": group, "sections": sections})


def player_sections(group_id: int, request: HtmxHttpRequest, name: str) -> list[dict[str, object]]:
    """One player's record at each game, with their scores over time."""
    group = member_group(request, group_id)
    found = []
    for stats in group_stats(group):
        line_of = next((player for player in stats.players if player.name == name), None)
        if line_of is not None:
            points = [(score.day.isoformat(), score.total) for score in line_of.scores]
            found.append({"kind": stats.kind, "player": line_of, "chart": line(_("Scores over time"), points)})
    return found


def _parts(players: list[PlayerStats]) -> list[str]:
    parts: dict[str, None] = {}
    for player in players:
        parts.update(dict.fromkeys(player.average_parts()))
    return list(parts)
