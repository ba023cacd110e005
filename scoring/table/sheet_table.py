"""The game page of a Small Islands or Cooper Island game in progress at the table: who this phone is, each
line's state, the review once every line is done."""

from __future__ import annotations

from django.urls import reverse

from rules import (
    RulesError,
)
from scoring.access import is_member
from scoring.http import HtmxHttpRequest
from scoring.models import Game
from scoring.phones import my_seat
from scoring.sheets.lines import assemble, refused_line, review
from scoring.table.board import live_part
from scoring.table.seats import claim_context
from scoring.wording import error_text


def table_context(request: HtmxHttpRequest, game: Game) -> dict[str, object]:
    """The game page of a sheet game in progress: who this phone is, each line's state, the review once every
    line is done."""
    seats = list(game.seats.all())
    me = my_seat(request, game)
    assembled = assemble(game)
    rows, refused, refused_seat = None, "", None
    if assembled.sheet is not None:
        try:
            rows = review(assembled.sheet)
        except RulesError as error:
            refused, refused_seat = error_text(error), refused_line(error, seats)
    columns = [key for key in rows[0] if key not in {"name", "total", "rank"}] if rows else []
    return {
        "game": game,
        "seats": seats,
        "me": me,
        "can_enter": True,
        "member": is_member(request, game),
        "waiting": [seat.name for seat in seats if seat in assembled.missing],
        "rows": rows,
        "columns": columns,
        "refused": refused,
        "refused_seat": refused_seat,
        "join_url": request.build_absolute_uri(reverse("join_code", args=[game.table_code])),
        **({} if me is not None else claim_context(request, game)),
        **live_part(game, spectator=False, me=me),
    }
