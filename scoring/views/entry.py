"""Entering or editing one event, step by step (see :mod:`scoring.entry`)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from rules import Building, GameState, ObjectiveKind, RecordError, Territory, parse_record, replay
from scoring.access import game_for_player, okanagan_game
from scoring.entry import EVENT_KINDS, PROMO_KINDS, BadOp, Draft, Screen, analyse, tap
from scoring.http import HtmxHttpRequest, posted_whole
from scoring.log import StaleGame, change_log, stored_events
from scoring.models import Game
from scoring.phones import my_seat
from scoring.wording import error_text


@require_http_methods(["GET", "POST"])
def event_new(request: HtmxHttpRequest, game_id: int, kind: str) -> HttpResponse:
    """A new event of ``kind`` at the end of the log."""
    game = okanagan_game(game_for_player(request, game_id))
    if kind not in EVENT_KINDS or (kind in PROMO_KINDS and not game.promos) or not game.is_playing:
        raise Http404
    me = my_seat(request, game)
    if kind == "objectives" and me is not None:  # a player enters their own cards on their own phone
        return _entry(request, game, Draft({"type": kind, "player": me.name}), None)
    return _entry(request, game, Draft.new(kind), None)


@require_http_methods(["GET", "POST"])
def event_edit(request: HtmxHttpRequest, game_id: int, index: int) -> HttpResponse:
    """Change event ``index``; saved only if it and every later event stay legal."""
    game = okanagan_game(game_for_player(request, game_id))
    events = stored_events(game)
    if not game.is_playing or not 0 <= index < len(events):
        raise Http404
    event = events[index]
    me = my_seat(request, game)
    if event["type"] == "objectives" and (me is None or me.name != event["player"]):
        # Another player's cards stay hidden: this phone may only replace them, and the log says so.
        if request.method == "GET" and "for" not in request.GET:
            context = {"game": game, "index": index, "player": event["player"], "me": me, "can_enter": True}
            return render(request, "scoring/secret.html", context)
        return _entry(request, game, Draft({"type": "objectives", "player": event["player"]}), index)
    return _entry(request, game, Draft.of_event(event), index)


def _entry(request: HtmxHttpRequest, game: Game, draft: Draft, editing: int | None) -> HttpResponse:
    revision, damaged = game.revision, ""
    if request.method == "POST":
        revision = posted_whole(request.POST.get("revision", ""))
        try:
            sent = Draft.from_json(request.POST.get("draft", ""), game.players())
            if sent.kind != draft.kind:  # a form of another kind of event than this page's
                raise BadOp(_("The form was damaged; start again."))
            draft = sent
        except BadOp as error:
            damaged = str(error)
    state, index = _state_before(game, editing)
    screen = analyse(draft, state, index)
    op = "" if damaged else request.POST.get("op", "")  # nothing from a damaged form is done
    if op == "save" and (screen.stage != "confirm" or screen.error):
        screen.error = screen.error or _("Finish the steps above first.")
    elif op == "save":
        try:
            return _save(request, game, screen, editing, revision)
        except StaleGame:
            game.refresh_from_db()
            revision = game.revision
            state, index = _state_before(game, editing)
            screen = analyse(draft, state, index)
            screen.error = _("The game changed on another phone: check this step against the new state, then save.")
        except RecordError as error:
            screen.error = _("This change would make a later event invalid: %(error)s") % {"error": error_text(error)}
    elif op:
        screen = tap(screen, op, {key: request.POST.get(key, "") for key in request.POST}, state, index)
    screen.error = damaged or screen.error
    context = {
        "game": game,
        "me": my_seat(request, game),
        "can_enter": True,
        "screen": screen,
        "revision": revision,
        "editing": editing,
        "territories": list(Territory),
        "buildings": list(Building),
        "card_kinds": list(ObjectiveKind),
    }
    template = "scoring/entry.html#wizard" if request.htmx else "scoring/entry.html"
    return render(request, template, context, status=422 if screen.error else 200)


def _state_before(game: Game, editing: int | None) -> tuple[GameState, int]:
    """The state the event applies to, and its index: before event ``editing``, or after the log."""
    events = stored_events(game)
    index = len(events) if editing is None else editing
    return replay(parse_record(game.record(events[:index]))), index


def _save(request: HtmxHttpRequest, game: Game, screen: Screen, editing: int | None, revision: int) -> HttpResponse:
    """Store the event and go back to the game; raises ``StaleGame`` or ``RecordError``."""
    event = screen.event
    mark = _entered_for(request, game, event)
    if editing is None:
        change_log(game, revision, lambda events: [*events, event], entered_for=(-1, mark) if mark else None)
    else:
        change_log(
            game,
            revision,
            lambda events: [*events[:editing], event, *events[editing + 1 :]],
            entered_for=(editing, mark) if mark else None,
        )
    url = reverse("game", args=[game.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _entered_for(request: HtmxHttpRequest, game: Game, event: dict[str, Any]) -> str:
    """Who entered objective cards for another player ("enter for Ann"): this phone's player, else the
    member's username, else "-" (a phone that is nobody at the table); empty for one's own cards and for
    every other event."""
    if event["type"] != "objectives":
        return ""
    me = my_seat(request, game)
    if me is not None:
        return "" if me.name == event["player"] else me.name
    return request.user.get_username() if request.user.is_authenticated else "-"
