"""Entering or editing one event, step by step (see :mod:`scoring.table.entry`); the entry is kept on the server
(see :mod:`scoring.table.drafts`), so a reload or Back lands where the phone was."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_http_methods

from rules import (
    PROMO_EVENTS,
    Building,
    EventType,
    GameState,
    ObjectiveKind,
    RecordError,
    SpecialActionKind,
    Territory,
)
from rules.components import MAX_OBJECTIVE_CARDS
from rules.explanation import Message
from rules.fields import members
from scoring import states
from scoring.access import at_table, game_at_table, okanagan_game
from scoring.http import HtmxHttpRequest, entry_closed, game_over, go, posted_whole, to_saved
from scoring.kinds import KINDS
from scoring.log import Events, StaleGame, append_event, change_log
from scoring.models import SEAT_MOVED, Game
from scoring.models import Draft as StoredDraft
from scoring.phones import known_phone, my_seat, phone_id
from scoring.table import drafts, reads, twins
from scoring.table.board import entry_live
from scoring.table.entry import EVENT_KINDS, BadOp, Draft, Screen, analyse, count_from_holdings, tap
from scoring.wording import error_text

SAVE_TRIES = 3
"""How many times a save is checked again and retried when other phones keep saving first."""


class EventChanged(Exception):
    """The event being edited was changed on another phone since the edit began."""

    def __init__(self, event: dict[str, object]) -> None:
        super().__init__()
        self.event = event


@require_http_methods(["GET", "POST"])
def event_new(request: HtmxHttpRequest, game_id: int, kind: str) -> HttpResponse:
    """A new event of ``kind`` at the end of the log."""
    game = okanagan_game(at_table(request, reads.entry_game(request, game_id)))
    if not game.is_playing:
        return game_over(request, game.pk)
    if kind not in EVENT_KINDS or (kind in PROMO_EVENTS and not game.promos):
        raise Http404
    me = my_seat(request, game)
    start = _start(game, kind, me.name if me else "", request.GET.get("territory", ""))
    if request.method == "GET" and "another" not in request.GET:
        asked = _ask_first(request, game, start)
        if asked is not None:
            return asked
    return _entry(request, game, start, None)


def _ask_first(request: HtmxHttpRequest, game: Game, start: Draft) -> HttpResponse | None:
    """When another phone is entering the same territory (or promo tile or correction for the same player) and
    this phone has no entry of its own of that kind: ask whether to continue that entry here, or to start
    another (``?another``); two phones entering one territory would count it twice."""
    phone = known_phone(request)
    if drafts.is_for(drafts.load(game, phone), start.kind, None):
        return None  # this phone's own entry: it goes on
    rival = drafts.rival(game, phone, start)
    if rival is None:
        return None
    query = {"another": "1"} | ({"territory": rival.territory} if rival.territory else {})
    context = {
        "game": game,
        "me": my_seat(request, game),
        "rival": rival,
        "another_url": f"{reverse('event_new', args=[game.pk, start.kind])}?{urlencode(query)}",
    }
    return render(request, "table/entering_ask.html", context)


def _cards_held(state: GameState, player: str) -> dict[str, Any]:
    """The cards ``player`` holds, proposed to them on their own phone (only there: they are secret)."""
    cards = [card.to_json() for card in state.holdings[player].objectives]
    return {"cards": cards} if cards else {}


def _start(game: Game, kind: str, me: str, territory: str) -> Draft:
    """A new entry of ``kind`` on the phone of ``me`` (``""``: a phone that is nobody at the table): a
    territory chosen on the game page, closed by this phone's player; one's own objective cards, starting
    from the cards one holds (after round 1, one keeps 3 of 5: often most of them); one's own final count,
    starting from what one holds; a promo tile or a correction for this phone's player."""
    if kind == EventType.TERRITORY and territory in members(Territory):
        event = {"type": kind, "territory": territory, "rewards": {}, "buildings": {}}
        return Draft(event | ({"closed_by": me} if me else {}))
    if kind == EventType.OBJECTIVES and me:
        state, _index = _state_before(game, None)
        return Draft({"type": kind, "player": me} | _cards_held(state, me))
    if kind == EventType.HOLDINGS and me:  # a count starts from what the game gave them (scoring.table.entry.taps)
        state, _index = _state_before(game, None)
        return Draft({"type": kind, "player": me} | count_from_holdings(state, me))
    if KINDS[EventType(kind)].for_me and me:  # most often one's own: "Change" otherwise
        return Draft({"type": kind, "player": me})
    return Draft.new(kind)


@require_http_methods(["GET", "POST"])
def event_edit(request: HtmxHttpRequest, game_id: int, index: int) -> HttpResponse:
    """Change event ``index``; saved only if it and every later event stay legal."""
    game = okanagan_game(game_at_table(request, game_id))
    if not game.is_playing:
        return game_over(request, game.pk)
    row = game.events.filter(index=index).only("data").first()
    if row is None:  # undone or deleted on a phone since this link was shown
        messages.info(request, _("Event %(index)d is no longer in the log: here is the game.") % {"index": index})
        return _to_game(request, game)
    event = row.data
    me = my_seat(request, game)
    if event["type"] == EventType.OBJECTIVES and (me is None or me.name != event["player"]):
        # Another player's cards stay hidden: this phone may only replace them, and the log says so.
        if request.method == "GET" and "for" not in request.GET:
            context = {"game": game, "index": index, "player": event["player"], "me": me, "can_enter": True}
            return render(request, "table/secret.html", context)
        return _entry(request, game, Draft({"type": EventType.OBJECTIVES, "player": event["player"]}), index)
    return _entry(request, game, Draft.of_event(event), index)


def _entry(request: HtmxHttpRequest, game: Game, start: Draft, editing: int | None) -> HttpResponse:
    """The entry page: this phone's kept draft of this entry (or ``start``), then the posted tap, if any."""
    prefetch_related_objects([game], "seats")
    phone = known_phone(request)
    posted_entry = request.POST.get("entry", "")
    stored, holder = drafts.load_with(game, phone, posted_entry if drafts.ENTRY.match(posted_entry) else "")
    me = my_seat(request, game)
    seat = me.name if me is not None else ""
    resumed = stored is not None and drafts.is_for(stored, start.kind, editing) and drafts.resumes(stored, seat)
    mine = stored if resumed else None
    kept = drafts.event_draft(mine) if mine is not None else None
    draft, seen, notices, damaged, op = kept or start, game.revision, [], "", ""
    entry = mine.entry if mine is not None and mine.entry else drafts.new_entry()
    if request.method == "GET" and mine is not None and kept is not None:
        seen = mine.revision
        notices.append(_("Your entry was kept."))
    if request.method == "POST":
        draft_id = posted_whole(request.POST.get("draft_id", ""))
        why = drafts.closed(game, phone, posted_entry, mine, holder) if drafts.ENTRY.match(posted_entry) else ""
        if not why and draft_id >= 0 and (mine is None or mine.pk != draft_id):
            why = drafts.TAKEN if drafts.taken_by(game, draft_id, phone) else drafts.ENDED
        if why:
            return _no_longer_here(request, game, why)
        op, seen = request.POST.get("op", ""), posted_whole(request.POST.get("revision", ""))
        if op == "cancel":
            if mine is not None:
                drafts.discard(game, phone, mine.pk)
            return _to_game(request, game)
        try:
            if posted_entry and not drafts.ENTRY.match(posted_entry):
                raise BadOp(_("The form was damaged; start again."))
            entry = posted_entry or entry  # a form of before entries had one: the draft's own, or a new one
            draft = drafts.posted(request.POST.get("draft", ""), game, start.kind, editing, phone)
        except BadOp as error:
            damaged, op = str(error), ""  # nothing from a damaged form is done; the kept draft stays
    state, index = _state_before(game, editing)
    if damaged and kept is None:  # nothing this phone made can be trusted: the page offers only "Start again"
        return _page(request, game, analyse(start, state, index), editing, mine, entry, [], restart=damaged)
    older = request.method == "POST" and not damaged and _older(draft, mine, kept, state, index)
    screen = analyse(draft, state, index)
    stale = screen.repaired  # a step no longer holds: show it before doing any tap
    changed = stale and seen != game.revision
    form = {key: request.POST.get(key, "") for key in request.POST}
    if op and op != "save" and not stale:
        screen = tap(screen, op, form, state, index)
        if op.startswith("set:player:") and _own_cards_again(screen.draft, seat, state):
            screen = analyse(screen.draft, state, index)
        screen.cell_op = op  # a refused or capped cell's reason goes next to the cell
        saving = _completes(screen, op, editing)
    else:
        saving = op == "save" and not stale
    if saving and screen.stage != "confirm":  # "Save" on the last step is that step done, then saved
        screen = tap(screen, f"done:{screen.stage}", form, state, index)
    if older and mine is not None and kept is not None and not drafts.is_latest(screen.draft, mine):
        # Not the tap that made the kept draft, sent again: nothing is done, the entry is shown as kept.
        return _went_on(request, game, mine, kept, editing, entry)
    twin: twins.Twin | None = None
    if saving:
        saved = _save(request, game, screen, editing, mine, index, posted_whole(request.POST.get("twin", "")))
        if isinstance(saved, HttpResponse):
            return saved
        if isinstance(saved, TwinAsked):
            screen, twin = saved.screen, saved.twin
        else:
            screen, changed = saved, saved.repaired
    if request.method == "POST" and not damaged:
        try:
            mine = drafts.store(game, phone_id(request), seat, screen.draft, editing, game.revision, stored, entry)
        except drafts.Moved:
            return _moved(request, game, editing, entry)
    if changed:
        notices.append(_("The game changed on another phone: check this step against the new state, then save."))
    screen.error = damaged or screen.error
    return _page(request, game, screen, editing, mine, entry, notices, twin)


def _went_on(
    request: HtmxHttpRequest, game: Game, mine: StoredDraft, kept: Draft, editing: int | None, entry: str
) -> HttpResponse:
    """The entry as kept (``mine``, whose draft is ``kept``), after a tap of an older page of it: nothing was done."""
    state, index = _state_before(game, editing)
    screen = analyse(kept, state, index)
    screen.error = _(
        "Your entry went on after this page was shown (an answer was lost on the way): here it is as kept. "
        "Check it, then tap again."
    )
    return _page(request, game, screen, editing, mine, entry, [])


def _moved(request: HtmxHttpRequest, game: Game, editing: int | None, entry: str) -> HttpResponse:
    """The answer to a tap that stored nothing because this phone's draft changed while it was made
    (:class:`drafts.Moved`): as if it had come after what changed it (another tap of the entry, which went on; its
    end; its continuing on another phone)."""
    phone = known_phone(request)
    mine, holder = drafts.load_with(game, phone, entry)
    kept = drafts.event_draft(mine) if mine is not None and mine.entry == entry else None
    if mine is not None and kept is not None:
        return _went_on(request, game, mine, kept, editing, entry)
    return _no_longer_here(request, game, drafts.closed(game, phone, entry, mine, holder) or drafts.ENDED)


def _older(draft: Draft, mine: StoredDraft | None, kept: Draft | None, state: GameState, index: int) -> bool:
    """Whether the posted ``draft`` is older than this phone's entry as kept (:func:`drafts.is_latest`): neither the
    kept draft nor the one its page shows (checked against the game as it is, a step that no longer holds
    repaired)."""
    if mine is None or kept is None or drafts.is_latest(draft, mine):
        return False
    shown = analyse(kept, state, index).draft
    return shown.to_data() != draft.to_data()


def _own_cards_again(draft: Draft, me: str, state: GameState) -> bool:
    """After "Change" on whose cards they are, one's own chosen again on one's own phone: the cards one holds
    are proposed again, as when the entry began (another player's start empty). Whether they were."""
    event = draft.event
    if draft.kind != EventType.OBJECTIVES or not me or event.get("player") != me or "cards" in event:
        return False
    event.update(_cards_held(state, me))
    return "cards" in event


def _completes(screen: Screen, op: str, editing: int | None) -> bool:
    """Whether the tap ``op`` was the new entry's last choice, so that it saves by itself (the game page then
    shows what was saved, with its explanation, Undo and Edit): the entry reached its confirmation, or a
    player's third objective card is complete. An edit of the past is still checked and saved by hand, and a
    "Change" never saves."""
    if editing is not None or screen.error or screen.repaired or op.startswith(("reopen:", "card:remove:")):
        return False
    if screen.stage == "cards":  # a card tap that completed the third card (not the cards proposed)
        cards = screen.event.get("cards", [])
        return op.startswith("card:") and len(cards) == MAX_OBJECTIVE_CARDS and not screen.draft.partial
    return screen.stage == "confirm" and screen.draft.kind != EventType.ROUND_END


@dataclass(frozen=True)
class TwinAsked:
    """A new event that may repeat one saved a moment before (:mod:`scoring.table.twins`): the phone is asked
    first."""

    screen: Screen
    twin: twins.Twin
    """The event it may repeat: a save that posts its index back (``twin``) was asked, and counts."""


def _page(
    request: HtmxHttpRequest,
    game: Game,
    screen: Screen,
    editing: int | None,
    mine: StoredDraft | None,
    entry: str,
    notices: list[str],
    twin: twins.Twin | None = None,
    *,
    restart: str = "",
) -> HttpResponse:
    """The entry page of ``entry``, or its wizard for htmx; 422 when it shows an error (or asks about a ``twin``).
    ``restart``: why the page offers only "Start again" (a damaged form, with nothing kept to show)."""
    context: dict[str, object] = {
        "game": game,
        "me": my_seat(request, game),
        "can_enter": True,
        "screen": screen,
        # Signed for this phone: the first tap of a phone may have given it its token (drafts.store).
        "signed_draft": drafts.signed(screen.draft, game, editing, known_phone(request)),
        "revision": game.revision,
        "editing": editing,
        "draft_id": "" if mine is None else mine.pk,
        "entry": entry,
        # What a phone's queue kept from a page of this entry that never reached the server is sent into
        # (static/js/entry_queue.js): the same game, kind of event, event and territory.
        "entry_start": f"{game.pk}:{screen.draft.kind}:{editing}:{screen.event.get('territory', '')}",
        "notices": notices,
        "twin": twin,
        "restart": restart,
        "rows": [] if restart else screen.rows,  # the steps shown: none when the page offers only "Start again"
        "territories": list(Territory),
        "buildings": list(Building),
        "card_kinds": list(ObjectiveKind),
    }
    if not request.htmx and editing is None:  # a tap's answer is the wizard: the live part stays as it is
        context |= entry_live(request, game)
    template = "table/entry.html#wizard" if request.htmx else "table/entry.html"
    return render(request, template, context, status=422 if screen.error or twin or restart else 200)


def _state_before(game: Game, editing: int | None) -> tuple[GameState, int]:
    """The state the event applies to, and its index: before event ``editing``, or after the log (both stored:
    nothing is replayed; the latter read with the game when it was read by :func:`reads.entry_game`)."""
    if editing is None:
        return states.now(game)
    return states.state_before(game, editing), editing


def _save(
    request: HtmxHttpRequest,
    game: Game,
    screen: Screen,
    editing: int | None,
    mine: StoredDraft | None,
    index: int,
    confirmed: int,
) -> Screen | TwinAsked | HttpResponse:
    """Store the event and drop the draft, then go back to the game, which shows what was saved (or, when the
    event gave this phone's player new objective cards, to their cards); else the screen with the reason.

    The draft was checked against the game as it is now: if another phone saves first, it is checked again
    and saved if it still holds, with no more taps. A new event that may repeat one saved a moment before, or
    the same territory saved by another phone while this entry was open (two phones entered it), is asked about
    first, once: it is saved when the phone posts back the event it may repeat (``confirmed``); the phone's seat
    is kept as who saved it, for the other phone's question. The check reads the log at the revision the save
    claims, so no save slips in between.
    """
    by = _entered_for(request, game, screen.event) or _seat_moved(game, screen.event, mine)
    mark = ((-1 if editing is None else editing), by) if by else None
    me = my_seat(request, game)
    since = mine.started if mine is not None else None
    for _try in range(SAVE_TRIES):
        if screen.stage != "confirm" or screen.error:
            screen.error = screen.error or _("Finish the steps above first.")
            return screen
        twin = twins.to_ask(game, screen.event, editing=editing, confirmed=confirmed, since=since, count=index)
        if twin is not None:
            return TwinAsked(screen, twin)
        dropped = partial(drafts.drop_saved, game, mine) if mine is not None else None
        try:
            if editing is None:
                saved_by = me.name if me is not None else ""
                made = _as_made(screen.draft.event)
                # The state read with the game's revision (``None`` once read again: read after the claim).
                stands = states.now(game) if _try == 0 else None
                append_event(game, game.revision, made, entered_for=by, saved_by=saved_by, stands=stands, then=dropped)
            else:
                with transaction.atomic():
                    change_log(game, game.revision, _change(screen.draft, editing), entered_for=mark)
                    if dropped is not None:
                        dropped()
            counted = editing is None and _counted_mine(request, game, screen)
            if counted:
                messages.success(request, _("Your count is saved. Now your objective cards: they stay on your phone."))
            if counted or _draws_objectives(request, game, screen):
                return go(request, reverse("event_new", args=[game.pk, EventType.OBJECTIVES]))
            saved = index if editing is None else editing
            return to_saved(request, game.pk, saved)
        except StaleGame:
            game.refresh_from_db()  # Game.DoesNotExist if it was deleted: scoring.table.gone says so
            states.forget_state(game)  # read with the game's old revision
            if not game.is_playing:
                return game_over(request, game.pk)
            state, index = _state_before(game, editing)
            screen = analyse(screen.draft, state, index)
        except EventChanged as changed:
            screen.draft.original = changed.event  # told once: saving again replaces the other phone's change
            screen.error = _(
                "Event %(index)d was changed on another phone since you began editing it: check it, then save again."
            ) % {"index": editing}
            return screen
        except RecordError as error:
            if editing is None:  # checked against the game as it is: only a full log refuses it here
                screen.error = error_text(error)
            else:
                screen.error = _("This change would make a later event invalid: %(error)s") % {
                    "error": error_text(error)
                }
            return screen
    screen.error = _("The game changed on another phone: check this step against the new state, then save.")
    return screen


def _as_made(event: dict[str, Any]) -> Callable[[GameState], dict[str, Any]]:
    """The new event, whatever the state it is added to (the rules check it against that state)."""
    return lambda _state: event


def _change(draft: Draft, editing: int) -> Callable[[Events], Events]:
    """The change of the log that saves ``draft``: event ``editing`` replaced if it is still as it was when the
    edit began."""
    event = draft.event

    def change(events: Events) -> Events:
        if editing >= len(events):
            raise RecordError(Message(gettext_noop("there is no such event")))
        if draft.original is not None and events[editing] != draft.original:
            raise EventChanged(events[editing])
        return [*events[:editing], event, *events[editing + 1 :]]

    return change


def _no_longer_here(request: HtmxHttpRequest, game: Game, why: str) -> HttpResponse:
    """A tap of an entry that is no longer this phone's (``why``: :data:`drafts.TAKEN`, continued on another phone,
    or :data:`drafts.ENDED`: saved, cancelled, replaced). A tap from the phone's queue is refused
    (:func:`scoring.http.entry_closed`): the phone names it, and those waiting behind it, as not taken
    (static/js/entry_queue.js). A plain form goes to the game, which says why."""
    if request.htmx:
        return entry_closed(why == drafts.TAKEN)
    if why == drafts.TAKEN:
        messages.info(request, _("This entry was continued on another phone."))
    else:
        messages.info(request, _("This entry is no longer in progress: here is the game."))
    return _to_game(request, game)


def _to_game(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    return go(request, reverse("game", args=[game.pk]))


def _draws_objectives(request: HtmxHttpRequest, game: Game, screen: Screen) -> bool:
    """Whether the saved event's special action had this phone's player draw new objective cards (they draw 2
    and discard 2: their cards are the next thing to enter) and their cards are entered as the game goes (some
    are entered already; a table that enters its cards at the end would only tap "Back")."""
    action = screen.event.get("special_action")
    me = my_seat(request, game)
    return (
        isinstance(action, dict)
        and action.get("action") == SpecialActionKind.NEW_OBJECTIVES.value
        and me is not None
        and (screen.recipient or screen.event.get("player")) == me.name
        and game.events.filter(data__type=EventType.OBJECTIVES, data__player=me.name).exists()
    )


def _counted_mine(request: HtmxHttpRequest, game: Game, screen: Screen) -> bool:
    """Whether the saved event was this phone's player's own final count (the quick count): their objective
    cards are the rest of it, entered next on their own phone, where they stay secret."""
    me = my_seat(request, game)
    return screen.draft.kind == EventType.HOLDINGS and me is not None and screen.event.get("player") == me.name


def _entered_for(request: HtmxHttpRequest, game: Game, event: dict[str, Any]) -> str:
    """Who entered objective cards for another player ("enter for Ann"): this phone's player, else the
    member's username, else "-" (a phone that is nobody at the table); empty for one's own cards and for
    every other event."""
    if event["type"] != EventType.OBJECTIVES:
        return ""
    me = my_seat(request, game)
    if me is not None:
        return "" if me.name == event["player"] else me.name
    return request.user.get_username() if request.user.is_authenticated else "-"


def _seat_moved(game: Game, event: dict[str, Any], mine: StoredDraft | None) -> str:
    """:data:`SEAT_MOVED` for objective cards entered on their player's phone while that player's seat changed
    phones (claimed, taken over, moved or freed after this entry began): the log says so, for the table to check
    them; else empty."""
    if event["type"] != EventType.OBJECTIVES or mine is None:
        return ""
    seat = game.seats.filter(name=event["player"]).only("moved_at").first()
    moved = seat is not None and seat.moved_at is not None and seat.moved_at >= mine.started
    return SEAT_MOVED if moved else ""
