"""A game: start or import it, follow it (scoreboard, log), join its table, finish it."""

from __future__ import annotations

import base64
import binascii
import io
import json
import logging
from collections.abc import Callable
from typing import Any

import segno
from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from rules import RECORD_FORMAT, EventType, GameState, NuggetLadder, Options, RecordError, parse_record
from rules.explanation import Message
from scoring import drafts, gone, seats, states
from scoring.access import (
    game_for_member,
    game_for_player,
    has_joined,
    is_member,
    join_table,
    member_group,
    okanagan_game,
)
from scoring.board import (
    bgstats_context,
    game_context,
    live_etag,
    live_part,
    result_links,
    result_png,
    sheet_context,
    table_context,
    wanted_log,
)
from scoring.entry import PROMO_KINDS
from scoring.forms import ImportForm, JoinForm, NewGameForm, SupplyForm
from scoring.http import HtmxHttpRequest, game_over, posted_whole, to_saved
from scoring.live import versions
from scoring.live.parts import HEADER as LIVE_HEADER
from scoring.live.parts import POLLER_ID, collect, held_parts
from scoring.live.versions import game_changed, new_codes
from scoring.locking import lock_game
from scoring.log import StaleGame, append_event, change_log, create_game, create_sheet_game, finish, reopen, start_game
from scoring.models import Game
from scoring.phones import known_phone, my_seat
from scoring.portability import exported_document
from scoring.quotas import OverQuota, check_games, kept_within
from scoring.rate_limits import over_limit, too_many
from scoring.results import stored_result
from scoring.streams import attachment
from scoring.wording import error_text

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
    return render(request, "scoring/game_new.html", context)


@require_POST
def game_import(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Add a game from a record file; a finished one goes straight to the history, and one exported in
    progress (its objective cards left out) stays in progress."""
    group = member_group(request, group_id)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "scoring/import.html", {"group": group, "form": form}, status=422)
    data = form.cleaned_data["record"]
    record = parse_record(data) if data["format"] == RECORD_FORMAT else None
    try:
        with kept_within(group.owner_id, games=1, stored=len(json.dumps(data))):
            if record is None:
                game = create_sheet_game(group, data)
            else:  # stored as the rules read it, so that every event can be edited
                uses_promos = any(event.type in PROMO_KINDS for event in record.events)
                events = [event.to_json() for event in record.events]
                game = create_game(group, record.players, record.options.to_json(), promos=uses_promos, events=events)
    except OverQuota as error:
        form.add_error("record", str(error))
        return render(request, "scoring/import.html", {"group": group, "form": form}, status=422)
    if record is None:
        messages.success(request, _("Game imported."))
        return redirect("game", game_id=game.pk)
    if record.hidden_objectives is not None:  # exported in progress: it cannot end before the cards are back
        messages.success(
            request,
            _("Game imported, in progress: the file left out the objective cards; each player enters theirs."),
        )
        return redirect("game", game_id=game.pk)
    if form.cleaned_data["finished"]:
        finish(game, game.revision)
    messages.success(request, _("Game imported."))
    return redirect("game", game_id=game.pk)


@require_safe
def game_detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game at the table: scoreboard, what to enter next, the log; the final scores at the end."""
    game = get_object_or_404(_games(), pk=game_id)
    member = is_member(request, game)
    if not member and not has_joined(request, game):
        raise Http404
    if not game.is_okanagan and game.is_playing:
        return _sheet_table(request, game)
    if not game.is_okanagan:
        context = {
            **sheet_context(game),
            **result_links(request, game),
            **bgstats_context(request, game, member=member),
            "member": member,
        }
        return render(request, "scoring/sheet_game.html", context)
    template = "scoring/game.html#game" if request.htmx else "scoring/game.html"
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
    response = render(request, "scoring/sheet_table.html", table_context(request, game))
    response["Cache-Control"] = "no-store"  # as the game page: Back asks again (static/js/table.js, pageshow)
    return response


@require_safe
def game_export(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The record JSON, as a file (a game in progress without its objective cards: see ``exported_document``)."""
    game = game_for_member(request, game_id)
    if not game.is_okanagan and game.sheet is None:
        raise Http404  # a sheet still being filled in: nothing to export until it is scored
    response = JsonResponse(exported_document(game), json_dumps_params={"indent": 2, "ensure_ascii": False})
    return attachment(response, f"okanagan-{game.pk}.json")


@require_http_methods(["GET", "POST"])
def game_delete(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Delete a game (a member, once asked on a page naming it): it leaves the history, the statistics, the CSV
    and the backup. Any game, in progress or finished, of any kind."""
    game = get_object_or_404(_games(), pk=game_id)
    if not is_member(request, game):
        raise Http404
    if request.method == "POST":
        group_id, named = game.group_id, _named(game)
        with transaction.atomic():
            # The game's row first (scoring.locking): a save, a draft or a claim waits for the deletion, then finds
            # no game (and its phone is told so by scoring.gone), never a half-deleted one, nor a deadlock.
            lock_game(game)  # deleted by another phone meanwhile: GameGone, and scoring.gone says so
            gone.remember(game, gone.deleter(request, game))
            game.delete()
        versions.link_gone(game.spectator_token)
        messages.success(request, _("Game deleted: %(game)s.") % {"game": named})
        return redirect("group", group_id=group_id)
    return render(request, "scoring/game_delete.html", {"game": game, "named": _named(game)})


def _named(game: Game) -> str:
    """The game as a person recognises it: its kind, date and players."""
    return _("%(kind)s of %(date)s: %(players)s") % {
        "kind": game.get_kind_display(),
        "date": game.created.date().isoformat(),
        "players": ", ".join(game.players()),
    }


@require_safe
def table_qr(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The QR code of the table's join link, as SVG."""
    game = game_for_player(request, game_id)
    url = request.build_absolute_uri(reverse("join_code", args=[game.table_code]))
    svg = io.BytesIO()
    segno.make(url, error="m").save(svg, kind="svg", scale=5, dark="#000", light="#fff", border=2)
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    patch_cache_control(response, private=True, no_store=True)  # it holds the table code, which changes
    return response


@require_POST
def table_code_regenerate(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A new table code: every guest who joined with the old one is out."""
    game = okanagan_game(game_for_member(request, game_id))
    new_codes(game)
    messages.success(
        request,
        _("New table code: %(code)s. The old code and spectator link stopped working.") % {"code": game.table_code},
    )
    return redirect("game", game_id=game.pk)


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
    return render(request, "scoring/finish.html", context)


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
    game = okanagan_game(game_for_player(request, game_id))
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
        return render(request, "scoring/game.html#game", game_context(request, game, member=is_member(request, game)))
    return redirect("game", game_id=game.pk)


@require_POST
def cards_keep(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """After the end of round 1, this phone's player keeps the objective cards they hold ("Keep my 3 cards"):
    their objectives event, saved like any entry. Only their own phone: the cards are secret, and this phone
    says which player it is (no player is posted)."""
    game = okanagan_game(game_for_player(request, game_id))
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
    game = okanagan_game(game_for_player(request, game_id))
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
        return render(request, "scoring/game.html#game", game_context(request, game, member=is_member(request, game)))
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


@require_http_methods(["GET", "POST"])
def join(request: HtmxHttpRequest, code: str = "") -> HttpResponse:
    """Join a game at the table by its code (typed, or from the QR code's link)."""
    if (request.method == "POST" or code) and over_limit(request, "join"):
        return too_many(request)
    form = JoinForm(request.POST or ({"code": code} if code else None))
    game = None
    if form.is_bound and form.is_valid():
        game = Game.objects.filter(table_code=form.cleaned_data["code"], status=Game.Status.PLAYING).first()
        if game is None:
            form.add_error("code", _("No game in progress has this code. Check it with the table."))
    if request.method == "POST" and game is not None:
        join_table(request, game)
        return redirect("game", game_id=game.pk)
    status = 422 if form.is_bound and form.errors else 200
    return render(request, "scoring/join.html", {"form": form, "game": game}, status=status)


@require_safe
def watch(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The spectator's read-only view; once the game is over, its public result page (unless a member turned
    it off: then only the group's members see it)."""
    game = _watched(request, token)
    return render(request, "scoring/watch.html", _watch_context(request, game))


def _watched(request: HtmxHttpRequest, token: str) -> Game:
    """The game of a spectator link: 404 for a finished game whose result is not public, but to its members;
    404 for a score sheet still being filled in (its page is its result, once scored)."""
    game = get_object_or_404(_games(), spectator_token=token)
    if not game.is_okanagan and game.is_playing:
        raise Http404
    if not game.is_playing and not game.public_result and not is_member(request, game):
        raise Http404
    return game


def _watch_context(request: HtmxHttpRequest, game: Game) -> dict[str, object]:
    """The spectator page of an Okanagan game (live, then its result), or the result of a scored sheet."""
    if game.is_okanagan:
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
    score sheet being filled in) or of the spectator page, that every phone polls; unchanged, it is a 304 after
    one indexed query (none with Redis: scoring/live/backends/). Changed, it is the parts that differ from the
    phone's (scoring/live/parts.py), or the whole part for a phone that does not say."""
    if request.GET.get("view") == "game":
        game = get_object_or_404(_games(), spectator_token=token)
        member = is_member(request, game)
        if not member and not has_joined(request, game):
            raise Http404  # a phone that left the table (new code): nothing to swap in
        if not game.is_okanagan and not game.is_playing:
            return HttpResponseClientRefresh()  # a score sheet scored meanwhile: the polling phone shows the result
        if game.is_okanagan:
            template, context = "scoring/game.html#game", game_context(request, game, member=member)
        else:
            template, context = "scoring/sheet_table.html#table", table_context(request, game)
        if request.GET.get("here") and context["me"] is None and game.is_playing:
            # This phone's seat was taken (another phone, the owner): the whole page says so, its header too.
            return HttpResponseClientRefresh()
    else:
        game = _watched(request, token)
        template, context = "scoring/watch.html#live", _watch_context(request, game)
    parts = collect(context)
    response = render(request, template, context)
    changed = parts.answer(held_parts(request))
    if changed is not None:
        response.content = changed.encode()
        response["HX-Retarget"] = f"#{POLLER_ID}"  # the changed parts swap themselves in (out of band)
    patch_vary_headers(response, [LIVE_HEADER])
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def result_image(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The finished game's result as a PNG for a chat's link preview, in the reader's language; 404 while the
    game is on, and where its result page is."""
    game = _watched(request, token)
    stored = None if game.is_playing else stored_result(game)
    if stored is None:
        raise Http404
    # Drawing takes tens of milliseconds: the image of a game at a revision in a language is drawn once, kept in
    # the shared cache, and a browser or chat app that has it already is told so (304) by its ETag.
    # The game's uuid with its row's id: SQLite may give a deleted game's id to a new one.
    version = f"{game.pk}.{game.uuid.hex}.{game.revision}.{get_language()}"
    etag = f'"result.{version}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        key = f"result-image:{version}"
        png = _from_cache(key)
        if png is None:
            png = result_png(game, stored)
            _to_cache(key, png, RESULT_IMAGE_SECONDS)
        response = HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    # Not kept without asking: a member may turn the public result off, and the image must then stop being served.
    response["Cache-Control"] = "no-cache"
    return response


RESULT_IMAGE_SECONDS = 7 * 24 * 3600
"""How long the cache keeps a result image (a new revision has a key of its own: the old one just expires)."""


def _from_cache(key: str) -> bytes | None:
    """What the shared cache holds at ``key``, or ``None`` (nothing, or a cache that does not answer). The cache
    holds JSON (okanagan_site.cache_json), so the image is kept as base64 text."""
    try:
        value = cache.get(key)
    except Exception:  # the cache is an accelerator: without it the image is drawn  # noqa: BLE001
        logger.warning("The cache did not answer for %s", key, exc_info=True)
        return None
    if not isinstance(value, str):
        return None
    try:
        return base64.b64decode(value, validate=True)
    except binascii.Error:
        return None


def _to_cache(key: str, value: bytes, seconds: int) -> None:
    """Keep ``value`` in the shared cache at ``key``, if the cache answers."""
    try:
        cache.set(key, base64.b64encode(value).decode("ascii"), seconds)
    except Exception:  # noqa: BLE001 (as above)
        logger.warning("The cache did not keep %s", key, exc_info=True)


@require_POST
def public_result(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A member turns the finished game's public result page (its spectator link and image) on or off."""
    game = game_for_member(request, game_id)
    public = request.POST.get("public") == "1"
    game_changed(game, public_result=public)
    if public:
        messages.success(request, _("The result is public: anyone with its link can see it."))
    else:
        messages.success(request, _("The result is no longer public: its link works only for the group's members."))
    return redirect(reverse("game", args=[game.pk]) + "#share-result")


def _games() -> QuerySet[Game]:
    """Games with their group and seats, as every game page needs them."""
    return Game.objects.select_related("group").prefetch_related("seats")
