"""The entries in progress shown on a game page: continue another phone's entry here, or cancel this
phone's (see :mod:`scoring.table.drafts`)."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import prefetch_related_objects
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring.access import game_at_table, okanagan_game
from scoring.http import HtmxHttpRequest, entry_closed, game_over
from scoring.models import Draft, Game
from scoring.phones import known_phone, my_seat, phone_id
from scoring.table import drafts


@require_POST
def draft_take(request: HtmxHttpRequest, game_id: int, draft_id: int) -> HttpResponse:
    """Continue on this phone an entry that another phone started ("Continue here"), where it was."""
    game = okanagan_game(game_at_table(request, game_id))
    if not game.is_playing:
        return game_over(request, game.pk)
    prefetch_related_objects([game], "seats")
    by = seat.name if (seat := my_seat(request, game)) is not None else ""
    try:
        stored = drafts.take(game, draft_id, phone_id(request), by)
    except Draft.DoesNotExist:
        messages.info(request, _("This entry is no longer in progress: here is the game."))
        return redirect("game", game_id=game.pk)
    except drafts.Refused:
        messages.error(request, _("Objective cards are secret to their player: they are entered on their own phone."))
        return redirect("game", game_id=game.pk)
    return redirect(drafts.entry_url(stored))


@require_POST
def draft_cancel(request: HtmxHttpRequest, game_id: int, draft_id: int) -> HttpResponse:
    """Drop this phone's entry in progress; another phone's stays."""
    game = okanagan_game(game_at_table(request, game_id))
    drafts.discard(game, known_phone(request), draft_id)
    return redirect("game", game_id=game.pk)


@require_safe
def entry_state(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Whether the entry ``?entry=`` is still open on this phone, asked by its page now and then and when it is
    shown again (static/js/entry_queue.js): 204, or 409 saying why not (continued on another phone, saved,
    cancelled, the game ended: :func:`scoring.http.entry_closed`), so that a phone whose entry was taken
    over learns it without a tap."""
    entry, phone = request.GET.get("entry", ""), known_phone(request)
    well_formed = bool(drafts.ENTRY.match(entry))  # else not asked of the database (a NUL would fail there)
    game = okanagan_game(
        game_at_table(request, game_id, drafts.with_entry_ended(Game.objects.all(), entry if well_formed else ""))
    )
    if not well_formed:
        return HttpResponse(status=400)
    stored, holder = drafts.load_with(game, phone, entry)
    mine = stored if stored is not None and stored.entry == entry else None
    why = drafts.closed(game, phone, entry, mine, holder) if game.is_playing else drafts.ENDED
    return entry_closed(why == drafts.TAKEN) if why else HttpResponse(status=204)
