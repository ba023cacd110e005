"""Who this phone is at the table: join it by code or QR, claim a seat, leave it, move it to another phone with a
code, or (the group's owner) free a lost phone's or give the table a new code."""

from __future__ import annotations

import io

import segno
from django.contrib import messages
from django.db.models import Prefetch, prefetch_related_objects
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from rules import EventType, RecordError
from scoring import states
from scoring.access import (
    game_for_member,
    game_for_player,
    join_table,
    okanagan_game,
)
from scoring.forms import JoinForm
from scoring.http import HtmxHttpRequest, posted_whole
from scoring.live.versions import new_codes
from scoring.models import Game, Seat
from scoring.phones import known_phone, my_seat, phone_id
from scoring.site.rate_limits import over_limit, too_many
from scoring.table.seats import (
    GONE_AFTER,
    MOVE_CODE_FOR,
    SeatRefused,
    claim,
    claim_by_code,
    claimable,
    free,
    leave,
    move_code,
    moved_away,
    others_account,
)

MOVE_CODE_CARD = "move-code"
"""The card that shows a code moving this phone's seat: while it is shown, it asks every few seconds whether the seat
is still here (:func:`_move_code_poll`)."""


@require_http_methods(["GET", "POST"])
def seats(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game's seats and who holds them; a POST claims one (``claim``), takes one with the code its phone
    showed (``code``), shows a code that moves this phone's seat (``move``), leaves this phone's (``leave``) or
    frees one (``free``, the group's owner only)."""
    game = game_for_player(request, game_id)
    if request.method == "GET" and request.htmx and request.htmx.trigger == MOVE_CODE_CARD:
        return _move_code_poll(request, game)
    owner = game.group.owner_id == request.user.pk
    status, moving = 200, None
    if request.method == "POST":
        phone = phone_id(request)
        try:
            if "code" in request.POST:  # the seat moves here from the phone that showed the code
                if over_limit(request, "join"):
                    return too_many(request)
                claim_by_code(game, request.POST["code"], phone, request.user)
                return redirect("game", game_id=game.pk)
            if "claim" in request.POST:
                seat = claim(game, posted_whole(request.POST["claim"]), phone, request.user)
                if not game.is_okanagan and game.is_playing and not seat.line_done:
                    return redirect("sheet_line", game_id=game.pk, position=seat.position)  # straight to their line
                if _cards_first(game, seat.name):
                    return redirect("event_new", game_id=game.pk, kind=EventType.OBJECTIVES)
                return redirect("game", game_id=game.pk)
            if "move" in request.POST:
                moving = move_code(game, phone)
            elif "leave" in request.POST:
                leave(game, phone)
            elif "free" in request.POST and owner:
                free(game, posted_whole(request.POST["free"]))
        except SeatRefused as error:
            messages.error(request, str(error))
            status = 409
    prefetch_related_objects([game], Prefetch("seats", queryset=Seat.objects.select_related("profile")))
    mine = my_seat(request, game)
    phone = known_phone(request)
    rows = [
        {
            "seat": seat,
            "mine": seat == mine,
            "held": bool(seat.phone) and seat != mine,
            "claimable": claimable(seat, phone, request.user),
            "members": others_account(seat, request.user),
        }
        for seat in game.seats.all()
    ]
    context = {
        "game": game,
        "rows": rows,
        "me": mine,
        "owner": owner,
        "can_enter": game.is_playing,
        "moving": moving,
        "code_minutes": int(MOVE_CODE_FOR.total_seconds() // 60),
        "gone_minutes": int(GONE_AFTER.total_seconds() // 60),
        "moved": moved_away(game, phone),
    }
    return render(request, "table/seats.html", context, status=status)


def _move_code_poll(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """The poll of a phone showing the code that moves its seat: nothing while the seat is still its own; once the
    other phone has taken it, the page reloads, so that the old phone no longer shows the seat it gave away (its
    header and "This phone" beside the name) but says where it went."""
    if Seat.objects.filter(game=game, phone=known_phone(request)).exclude(phone="").exists():
        return HttpResponse(status=204)
    return HttpResponseClientRefresh()


def _cards_first(game: Game, player: str) -> bool:
    """Whether a phone that has just become ``player`` goes straight to entering their objective cards: the
    game is in round 1, they have entered none, and the table enters its cards now (another player's are
    entered). Otherwise the game page offers them in one tap ("My objective cards"): a table that enters its
    cards at the end would pay a "Back" on every phone."""
    if not game.is_playing or not game.is_okanagan:
        return False
    try:
        state = states.current(game).state
    except RecordError:  # only a database edited by hand gets here: the game page says what is wrong
        return False
    if state.round != 1:
        return False
    entered = set(game.events.filter(data__type=EventType.OBJECTIVES).values_list("data__player", flat=True))
    return bool(entered) and player not in entered


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
    return render(request, "table/join.html", {"form": form, "game": game}, status=status)
