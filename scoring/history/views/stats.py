"""A group's statistics and charts."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.access import member_group
from scoring.history.charts import bars
from scoring.history.insights import shown
from scoring.history.ratings import ranked
from scoring.history.statistics import PlayerStats
from scoring.history.statistics_json import statistics_document
from scoring.history.summary import history
from scoring.http import HtmxHttpRequest
from scoring.models import Game
from scoring.wording import PARTS


@require_safe
def group_stats_json(request: HtmxHttpRequest, group_id: int) -> JsonResponse:
    """The statistics page's figures as data, for the group's members (:mod:`scoring.history.statistics_json`)."""
    group = member_group(request, group_id)
    response = JsonResponse(statistics_document(group), json_dumps_params={"ensure_ascii": False})
    patch_cache_control(response, private=True, no_store=True)  # the group's data, as its other files
    return response


@require_safe
def group_stats_page(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Per game, what a group talks about first — the records, the head-to-heads, the ratings in words, for Okanagan
    what winners took — then, folded, each player's plays, wins, win rates, scores and streaks, wins per player and,
    for Okanagan, the group's insights from the event log; a jump list at the top leads to each."""
    group = member_group(request, group_id)
    summary = history(group)
    split = summary.okanagan().split
    insights = split.group
    sections = [
        {
            "stats": stats,
            "wins_chart": bars(_("Wins per player"), [(player.name, player.wins) for player in stats.players]),
            "parts": [(part, PARTS[part]) for part in _parts(stats.players)],
            "ratings": ranked(stats.players, summary.kinds[stats.kind].rated()),
            "records": summary.kinds[stats.kind].records(),
            "insights": shown(insights) if stats.kind == Game.Kind.OKANAGAN and insights.games else None,
        }
        for stats in summary.stats()
    ]
    context = {
        "group": group,
        "sections": sections,
        "winners": split if insights.games else None,
    }
    return render(request, "history/stats.html", context)


def _parts(players: list[PlayerStats]) -> list[str]:
    parts: dict[str, None] = {}
    for player in players:
        parts.update(dict.fromkeys(player.average_parts()))
    return list(parts)
