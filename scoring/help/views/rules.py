"""The rules page: every rule, the worked examples and the open questions, and the rules search."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from rules.catalogue import Game
from scoring.help.reference import reference_context
from scoring.help.search import search_rules
from scoring.http import HtmxHttpRequest

GAMES = tuple(game.value for game in Game)


@require_safe
def rule_list(request: HtmxHttpRequest) -> HttpResponse:
    """The rules reference: every rule with a stable anchor, the worked examples, the open questions;
    with ``q``, the rules matching it (the search box asks for just the results with htmx), those of
    ``game`` first (the game the reader comes from: a game page's links pass it; anything else is no game)."""
    query = request.GET.get("q", "")[:200]
    game = request.GET.get("game", "")
    game = game if game in GAMES else ""
    hits = search_rules(query, get_language(), game=game) if query.strip() else []
    context = {"q": query, "hits": hits, "game": game, "games_searched": GAMES}
    if request.htmx and "q" in request.GET:
        return render(request, "help/rules.html#results", context)
    return render(request, "help/rules.html", {**context, **reference_context()})
