"""Who this phone is at the table: claim a seat, leave it, or (the group's owner) free a lost phone's."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from rules import EventType, RecordError
from scoring import states
from scoring.access import game_for_player
from scoring.http import HtmxHttpRequest, posted_whole
from scoring.models import Game
from scoring.phones import my_seat, phone_id
from scoring.seats import SeatRefused, claim, free, leave


@require_http_methods(["GET", "POST"])
def seats(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game's seats and who holds them; a POST claims one (``claim``), leaves this phone's
    (``leave``) or frees one (``free``, the group's owner only)."""
    game = game_for_player(request, game_id)
    owner = game.group.owner_id == request.user.pk
    status = 200
    if request.method == "POST":
        phone = phone_id(request)
        try:
            if "claim" in request.POST:
                seat = claim(game, posted_whole(request.POST["claim"]), phone, request.user)
                if not game.is_okanagan and game.is_playing and not seat.line_done:
                    return redirect("sheet_line", game_id=game.pk, position=seat.position)  # straight to their line
                if _cards_first(game, seat.name):
                    return redirect("event_new", game_id=game.pk, kind=EventType.OBJECTIVES)
                return redirect("game", game_id=game.pk)
            if "leave" in request.POST:
                leave(game, phone)
            elif "free" in request.POST and owner:
                free(game, posted_whole(request.POST["free"]))
        except SeatRefused as error:
            messages.error(request, str(error))
            status = 409
    mine = my_seat(request, game)
    rows = [
        {"seat": seat, "mine": seat == mine, "held": bool(seat.phone) and seat != mine} for seat in game.seats.all()
    ]
    context = {"game": game, "rows": rows, "me": mine, "owner": owner, "can_enter": game.is_playing}
    return render(request, "scoring/seats.html", context, status=status)


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
