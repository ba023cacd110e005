"""A game at the table: start it, its page, undo an event, the one-tap events, finish, reopen or delete it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from rules import EventType, GameState, NuggetLadder, Options, RecordError
from rules.explanation import Message
from scoring import states
from scoring.access import (
    game_at_table,
    game_for_member,
    has_joined,
    is_member,
    member_group,
    okanagan_game,
    page_games,
)
from scoring.creation import start_game
from scoring.forms import NewGameForm, SupplyForm
from scoring.http import HtmxHttpRequest, game_over, posted_whole, to_saved
from scoring.live import versions
from scoring.log import StaleGame, append_event, change_log, finish, reopen
from scoring.models import Game
from scoring.phones import known_phone, my_seat
from scoring.results.final import bgstats_context, result_links, sheet_context
from scoring.site.quotas import OverQuota, check_games, kept_within
from scoring.standings import results_changed
from scoring.table import drafts, gone, seats
from scoring.table.board import game_context
from scoring.table.locking import lock_game
from scoring.table.sheet_table import table_context
from scoring.wording import WORDS, error_text

logger = logging.getLogger(__name__)


@require_http_methods(["GET", "POST"])
def game_new(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Choose the players in seat order and the options; the last Okanagan game's players are proposed (the
    last game of any kind only when the group has none: a Cooper Island table is not the Okanagan one)."""
    group = member_group(request, group_id)
    last = group.games.filter(kind=Game.Kind.OKANAGAN).first() or group.games.first()
    own = group.profiles.filter(user=request.user.pk).values_list("name", flat=True).first()
    names = last.players_now() if last else (own,) if own else ()
    initial = {f"seat_{n}": name for n, name in enumerate(names, start=1)}
    known = list(group.profiles.values_list("name", flat=True))
    form = NewGameForm(request.POST if request.method == "POST" else None, initial=initial, known=known)
    supply = SupplyForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and supply.is_valid():
        token = form.cleaned_data["start_token"]
        options = Options(
            reward_supply=supply.cleaned_data["reward_supply"],
            nugget_supply=supply.cleaned_data["nugget_supply"],
            nugget_ladder=NuggetLadder(form.cleaned_data["nugget_ladder"]),
        )
        try:
            with kept_within(group.owner_id):
                if not (token and group.games.filter(start_token=token).exists()):  # a second post finds its game
                    check_games(group.owner_id)
                game = start_game(
                    group,
                    form.cleaned_data["players"],
                    options.to_json(),
                    promos=form.cleaned_data["promos"],
                    token=token,
                )
        except OverQuota as error:
            form.add_error(None, str(error))
        else:
            return redirect("game", game_id=game.pk)
    context = {"group": group, "form": form, "supply": supply, "names": known}
    return render(request, "table/game_new.html", context)


@require_safe
def game_detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game at the table: scoreboard, what to enter next, the log; the final scores at the end."""
    game = get_object_or_404(page_games(), pk=game_id)
    member = is_member(request, game)
    if not member and not has_joined(request, game):
        raise Http404
    if not game.is_okanagan and game.is_playing:
        return _sheet_table(request, game)
    if not game.has_log:  # a scored sheet or an imported play: its stored result
        context = {
            **sheet_context(game),
            **result_links(request, game),
            **bgstats_context(request, game, member=member),
            "member": member,
        }
        return render(request, "table/sheet_game.html", context)
    template = "table/game.html#game" if request.htmx else "table/game.html"
    response = render(request, template, game_context(request, game, member=member))
    # Back from an entry asks the server again: a copy kept by the browser would show the game as it was (its
    # round, a Saved card since followed by other events) until the next poll (static/js/table.js, pageshow).
    response["Cache-Control"] = "no-store"
    return response


def _sheet_table(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """A sheet game in progress; the phones poll its live part (``live``), as they poll an Okanagan game's."""
    seat = my_seat(request, game)
    if seat is not None:  # this phone is still at the table
        seats.heard_from(seat.pk)
    response = render(request, "table/sheet_table.html", table_context(request, game))
    response["Cache-Control"] = "no-store"  # as the game page: Back asks again (static/js/table.js, pageshow)
    return response


@require_http_methods(["GET", "POST"])
def game_delete(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Delete a game (a member, once asked on a page naming it): it leaves the history, the statistics, the CSV
    and the backup. Any game, in progress or finished, of any kind."""
    game = get_object_or_404(page_games(), pk=game_id)
    if not is_member(request, game):
        raise Http404
    if request.method == "POST":
        group_id, named = game.group_id, _named(game)
        with transaction.atomic():
            # The game's row first (scoring.table.locking): a save, a draft or a claim waits for the deletion, then
            # finds no game (and its phone is told so by scoring.table.gone), never a half-deleted one, nor a deadlock.
            lock_game(game)  # deleted by another phone meanwhile: GameGone, and scoring.table.gone says so
            gone.remember(game, gone.deleter(request, game))
            game.delete()
            # Whatever its status when the page was read: it may have finished since, before the lock was taken.
            results_changed.send(Game, group=game.group, games=[])
        versions.link_gone(game.spectator_token)
        messages.success(request, _("Game deleted: %(game)s.") % {"game": named})
        return redirect("group", group_id=group_id)
    return render(request, "table/game_delete.html", {"game": game, "named": _named(game)})


def _named(game: Game) -> str:
    """The game as a person recognises it: its kind, date and players."""
    return _("%(kind)s of %(date)s: %(players)s") % {
        "kind": game.get_kind_display(),
        "date": game.created.date().isoformat(),
        "players": WORDS.listing(list(game.players())),
    }


@require_http_methods(["GET", "POST"])
def game_finish(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """End the game and show the final scores, once asked whether the table is really done (GET)."""
    if request.method == "POST":
        return _change_status(request, game_id, _finish)
    game = okanagan_game(game_for_member(request, game_id))
    if not game.is_playing:
        return redirect("game", game_id=game.pk)
    state = states.current(game).state
    without_cards = [player for player in state.players if not state.holdings[player].objectives]
    counted = state.final_counts
    # A quick count: every player counts their holdings; the end of round 1 is not entered there.
    uncounted = [player for player in state.players if player not in counted] if counted else []
    context = {
        "game": game,
        "revision": game.revision,
        "without_cards": without_cards,
        "uncounted": uncounted,
        "round": 0 if counted else state.round,
    }
    return render(request, "table/finish.html", context)


@require_POST
def game_reopen(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Back to the table, to correct something."""
    return _change_status(request, game_id, reopen)


def _finish(game: Game, revision: int) -> None:
    """End the game; the entries in progress end with it."""
    with transaction.atomic():
        finish(game, revision)
        drafts.discard_all(game)


def _change_status(request: HtmxHttpRequest, game_id: int, change: Callable[[Game, int], object]) -> HttpResponse:
    game = okanagan_game(game_for_member(request, game_id))
    try:
        change(game, _revision(request))
    except StaleGame:
        messages.error(request, _("The game changed on another phone: here is the new state."))
    return redirect("game", game_id=game.pk)


@require_POST
def event_delete(request: HtmxHttpRequest, game_id: int, index: int) -> HttpResponse:
    """Delete one event (the last one: undo), if every later event stays legal."""
    game = okanagan_game(game_at_table(request, game_id))
    if not game.is_playing:
        return game_over(request, game.pk)
    try:
        change_log(game, _revision(request), lambda events: _without(events, index))
    except StaleGame:
        messages.error(request, _("The game changed on another phone: here is the new state."))
    except RecordError as error:
        messages.error(
            request, _("Event %(index)d cannot be deleted: %(error)s") % {"index": index, "error": error_text(error)}
        )
    if request.htmx:
        return render(request, "table/game.html#game", game_context(request, game, member=is_member(request, game)))
    return redirect("game", game_id=game.pk)


@require_POST
def cards_keep(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """After the end of round 1, this phone's player keeps the objective cards they hold ("Keep my 3 cards"):
    their objectives event, saved like any entry. Only their own phone: the cards are secret, and this phone
    says which player it is (no player is posted)."""
    game = okanagan_game(game_at_table(request, game_id))
    me = my_seat(request, game)
    if not game.is_playing:
        messages.error(request, _("This game is over: its objective cards can no longer be entered."))
    elif me is None:
        messages.error(request, _("This phone is nobody at the table: tap your name first (“I am …”)."))
    elif (saved := _one_tap(request, game, lambda state: _keeping(state, me.name))) is not None:
        stored = drafts.load(game, known_phone(request))
        if stored is not None and drafts.is_for(stored, EventType.OBJECTIVES, None):
            drafts.discard(game, stored.phone, stored.pk)  # an entry of the same cards begun on this phone
        return saved
    return _game_again(request, game)


@require_POST
def round_end(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The end of round 1 in one tap on the game page, saved like any entry (Undo on the Saved card)."""
    game = okanagan_game(game_at_table(request, game_id))
    if not game.is_playing:
        return game_over(request, game.pk)
    saved = _one_tap(request, game, lambda _state: {"type": EventType.ROUND_END})
    return saved if saved is not None else _game_again(request, game)


def _one_tap(request: HtmxHttpRequest, game: Game, make: Callable[[GameState], dict[str, Any]]) -> HttpResponse | None:
    """Save the event that ``make`` makes from the state the page saw, then show it on the game page's Saved
    card; ``None``, with the reason as a message, if the game changed meanwhile or the event is refused."""
    try:
        index = append_event(game, _revision(request), make)
    except StaleGame:
        messages.error(request, _("The game changed on another phone: here is the new state."))
    except RecordError as error:
        messages.error(request, error_text(error))
    else:
        return to_saved(request, game.pk, index)
    return None


def _game_again(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The game page (its live part for htmx), showing the messages."""
    if request.htmx:
        return render(request, "table/game.html#game", game_context(request, game, member=is_member(request, game)))
    return redirect("game", game_id=game.pk)


def _keeping(state: GameState, player: str) -> dict[str, Any]:
    """``player``'s objectives event that keeps the cards they hold, if they are to enter the cards they keep
    after round 1; else :class:`RecordError`."""
    if not state.redraw_due(player):
        raise RecordError(
            Message(
                gettext_noop(
                    "There are no cards to keep now: round 1 is not over, or your cards after it are already entered."
                )
            )
        )
    cards = [card.to_json() for card in state.holdings[player].objectives]
    return {"type": EventType.OBJECTIVES, "player": player, "cards": cards}


def _without(events: list[dict[str, object]], index: int) -> list[dict[str, object]]:
    if not 0 <= index < len(events):
        raise RecordError(Message(gettext_noop("there is no such event")))
    return events[:index] + events[index + 1 :]


def _revision(request: HtmxHttpRequest) -> int:
    return posted_whole(request.POST.get("revision", ""))


"""How long the cache keeps a result image (a new revision has a key of its own: the old one just expires)."""
