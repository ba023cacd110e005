"""Following a game from afar: the spectator page, the live part every phone and spectator polls, and who may open a
game's stream (scoring/live/push.py)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import condition, require_safe
from django_htmx.http import HttpResponseClientRefresh

from scoring.access import (
    has_joined,
    is_member,
    page_games,
    watched_game,
)
from scoring.http import HtmxHttpRequest
from scoring.live import versions
from scoring.live.parts import HEADER as LIVE_HEADER
from scoring.live.parts import POLLER_ID, SharedParts, collect, held_parts
from scoring.models import Game
from scoring.results.final import result_links, sheet_context
from scoring.table import seats
from scoring.table.board import entry_live, game_context, live_etag, live_part, wanted_log
from scoring.table.sheet_table import table_context


@require_safe
def watch(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The spectator's read-only view; once the game is over, its public result page (unless a member turned
    it off: then only the group's members see it)."""
    game = watched_game(request, token)
    return render(request, "table/watch.html", _watch_context(request, game))


def _watch_context(request: HtmxHttpRequest, game: Game) -> dict[str, object]:
    """The spectator page of an Okanagan game (live, then its result), or the result of a scored sheet or of an
    imported play."""
    if game.has_log:
        return game_context(request, game, member=False, spectator=True)
    return {
        **sheet_context(game),
        **live_part(game, spectator=True),
        **result_links(request, game),
        "member": False,
        "spectator": True,
    }


def _live_etag(request: HtmxHttpRequest, token: str) -> str | None:
    if here := request.GET.get("here", ""):  # the poll of a seat's phone: it is still at the table
        seats.heard(here)
    row = versions.current(token)
    return None if row is None else live_etag(*row, log_from=wanted_log(request))


@require_safe
@condition(etag_func=_live_etag)
def live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The live part of the game page (``?view=game``: for the phones at the table, an Okanagan game or a
    score sheet being filled in), of a new entry's page (``?view=entry``: who else enters the same thing) or of
    the spectator page, that every phone polls; unchanged, it is a 304 after
    one indexed query (none with Redis: scoring/live/backends/). Changed, it is the parts that differ from the
    phone's (scoring/live/parts.py), or the whole part for a phone that does not say; the parts that are the same
    for every phone are rendered by the first phone that asks for this version, the others take them as made."""
    view = request.GET.get("view")
    if view in {"game", "entry"}:
        game = get_object_or_404(page_games(), spectator_token=token)
        member = is_member(request, game)
        if not member and not has_joined(request, game):
            raise Http404  # a phone that left the table (new code): nothing to swap in
        if not game.is_playing and (view == "entry" or not game.has_log):
            # A score sheet scored meanwhile, or an entry of a game that ended: the page says what it is now.
            return HttpResponseClientRefresh()
        if view == "entry":
            template, context = "table/entry.html#entry_live", entry_live(request, game)
        elif game.has_log:
            template, context = "table/game.html#game", game_context(request, game, member=member)
        else:
            template, context = "table/sheet_table.html#table", table_context(request, game)
        if request.GET.get("here") and context["me"] is None and game.is_playing:
            # This phone's seat was taken (another phone, the owner): the whole page says so, its header too.
            return HttpResponseClientRefresh()
    else:
        game = watched_game(request, token)
        template, context = "table/watch.html#live", _watch_context(request, game)
    # The parts every phone of this version shows alike are rendered once for all (scoring/live/parts.py).
    shared = SharedParts.of(template, token, str(context["etag"]))
    parts = collect(context, shared)
    response = render(request, template, context)
    shared.save()
    changed = parts.answer(held_parts(request))
    if changed is not None:
        response.content = changed.encode()
        response["HX-Retarget"] = f"#{POLLER_ID}"  # the changed parts swap themselves in (out of band)
    patch_vary_headers(response, [LIVE_HEADER])
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def stream(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Whether a page may open the stream of the game whose spectator token is ``token``: 200 (nchan takes no
    other status as a yes) if it is a current game's, else 403. nginx asks this before it holds a stream at this
    same URL (``nchan_authorize_request``, deploy/nginx.conf.template); it is the live poll's own check (one read,
    none with Redis), since the stream tells no more than the poll (that something changed). Without nginx in
    front nothing streams: this answers alone."""
    return HttpResponse(status=200 if versions.current(token) is not None else 403)
