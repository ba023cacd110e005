"""Who this phone is at the table: claim a seat, leave it, or (the group's owner) free a lost phone's."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from scoring.access import game_for_player, okanagan_game
from scoring.http import HtmxHttpRequest, posted_whole
from scoring.phones import my_seat, phone_id
from scoring.seats import SeatRefused, claim, free, leave


@require_http_methods(["GET", "POST"])
def seats(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The game's seats and who holds them; a POST claims one (``claim``), leaves this phone's
    (``leave``) or frees one (``free``, the group's owner only)."""
    game = okanagan_game(game_for_player(request, game_id))
    owner = game.group.owner_id == request.user.pk
    status = 200
    if request.method == "POST":
        phone = phone_id(request)
        try:
            if "claim" in request.POST:
                claim(game, posted_whole(request.POST["claim"]), phone, request.user)
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
