"""Small Islands and Cooper Island at the table: start with the players' names, each phone fills in its
player's line (or one phone every line), a review of every total, then "Score the game"; correct a scored one."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from rules import RulesError
from scoring.access import game_for_member, game_for_player, member_group
from scoring.http import HtmxHttpRequest
from scoring.log import StaleGame
from scoring.models import Game, Seat
from scoring.phones import my_seat
from scoring.sheets.lifecycle import finish_sheet_game, line_changed, reopen_sheet_game, start_sheet_game
from scoring.sheets.lines import (
    LINE_FORMS,
    SheetPlayersForm,
    assemble,
    line_form,
    sheet_lines,
    tied_for_last_tile,
)
from scoring.site.quotas import OverQuota, kept_within
from scoring.wording import WORDS, error_text

LINE_LENGTH = 200
"""The longest value kept for a field of a line (the form refuses anything longer anyway)."""


@require_http_methods(["GET", "POST"])
def sheet_new(request: HtmxHttpRequest, group_id: int, kind: str) -> HttpResponse:
    """A game of Small Islands or Cooper Island: only the players' names, in seat order; each player then fills
    in their own line on their own phone (the game page has the table code)."""
    group = member_group(request, group_id)
    if kind not in LINE_FORMS:
        raise Http404
    last = group.games.filter(kind=kind).first() or group.games.first()
    initial = {f"name_{n}": name for n, name in enumerate(last.players_now() if last else (), start=1)}
    known = list(group.profiles.values_list("name", flat=True))
    form = SheetPlayersForm(request.POST if request.method == "POST" else None, initial=initial, known=known)
    if request.method == "POST" and form.is_valid():
        try:
            with kept_within(group.owner_id, games=1):
                game = start_sheet_game(group, kind, form.cleaned_data["players"])
        except OverQuota as error:
            form.add_error(None, str(error))
        else:
            return redirect("game", game_id=game.pk)
    status = 422 if form.errors else 200
    context = {"group": group, "form": form, "kind": kind, "kind_label": Game.Kind(kind).label, "names": known}
    return render(request, "sheets/sheet_new.html", context, status=status)


def _game_in_progress(request: HtmxHttpRequest, game_id: int) -> Game:
    game = game_for_player(request, game_id)
    if game.is_okanagan:
        raise Http404
    return game


@require_http_methods(["GET", "POST"])
def sheet_line(request: HtmxHttpRequest, game_id: int, position: int) -> HttpResponse:
    """One player's line: counts with − and +, discovery tokens as their values, royal orders as the cards in
    play. "Done" checks and saves it; the phone then goes to the next line still to fill in (one phone
    filling every line) or back to the game page."""
    game = _game_in_progress(request, game_id)
    if not game.is_playing:
        return redirect("game", game_id=game.pk)
    seat = get_object_or_404(Seat, game=game, position=position)
    status = 200
    form = line_form(game, seat)
    if request.method == "POST":
        typed = {
            name: request.POST.get(name, "")[:LINE_LENGTH].replace("\x00", "")
            for name in form.fields
            if name != "new_token"
        }
        typed = {name: value for name, value in typed.items() if value != ""}
        form = line_form(game, seat, typed)
        if form.is_valid():
            _keep(game, seat, typed, done=True)
            return redirect(_after_line(request, game, seat))
        else:
            _keep(game, seat, typed, done=False)
            status = 422
    context = {"game": game, "seat": seat, "form": form, "me": my_seat(request, game), "can_enter": True}
    context["next_seat"] = _next_line(game, seat)
    return render(request, "sheets/sheet_line.html", context, status=status)


def _keep(game: Game, seat: Seat, typed: dict[str, str], *, done: bool) -> None:
    seat.line, seat.line_done = typed, done
    seat.save(update_fields=["line", "line_done"])
    line_changed(game)


def _next_line(game: Game, seat: Seat) -> Seat | None:
    """The next line still to fill in after ``seat``'s, going round the table."""
    seats = list(game.seats.all())
    after = [other for other in seats if other.position > seat.position] + [
        other for other in seats if other.position < seat.position
    ]
    return next((other for other in after if not other.line_done), None)


def _after_line(request: HtmxHttpRequest, game: Game, seat: Seat) -> str:
    """Where a phone goes once a line is done: its own player's line leads back to the game page (the others fill
    in theirs); a phone filling in for others goes on to the next line still to fill in."""
    me = my_seat(request, game)
    following = _next_line(game, seat)
    if following is None or me is not None:
        return reverse("game", args=[game.pk])
    return reverse("sheet_line", args=[game.pk, following.position])


@require_POST
def sheet_score(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Score the game once every line is done; if who placed the last tile decides (Small Islands), it asks
    first, naming the tied players."""
    game = _game_in_progress(request, game_id)
    if not game.is_playing:
        return redirect("game", game_id=game.pk)
    assembled = assemble(game)
    if assembled.sheet is None:
        names = WORDS.listing([seat.name for seat in assembled.missing])
        messages.error(request, _("Not every line is done yet: %(names)s.") % {"names": names})
        return redirect("game", game_id=game.pk)
    sheet = assembled.sheet
    try:
        tied = tied_for_last_tile(sheet)
        if tied:
            answer = request.POST.get("last_tile_by", "")
            if answer in tied:
                sheet["last_tile_by"] = answer
            elif answer != "-":
                context = {"game": game, "tied": tied, "me": my_seat(request, game), "can_enter": True}
                return render(request, "sheets/sheet_last_tile.html", context)
        finish_sheet_game(game, sheet)
    except StaleGame:
        messages.error(request, _("The game changed on another phone: here is the new state."))
    except RulesError as error:
        messages.error(request, error_text(error))
    return redirect("game", game_id=game.pk)


@require_POST
def sheet_correct(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A member re-opens a scored sheet: every line back on its seat, done; it is scored again with "Score the
    game" (the statistics and the history follow)."""
    game = game_for_member(request, game_id)
    if game.is_okanagan or game.imported:  # an imported play has no sheet to correct
        raise Http404
    try:
        reopen_sheet_game(game, sheet_lines)
    except StaleGame:
        messages.error(request, _("The game changed on another phone: here is the new state."))
    else:
        messages.success(request, _("The sheet is open again: change a line, then score the game."))
    return redirect("game", game_id=game.pk)
