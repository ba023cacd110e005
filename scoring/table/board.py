"""What a game page shows, from the stored state: the scoreboard, the log and its window, the table, the polled
live part and its version (the final result is :mod:`scoring.results.final`'s)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property

from django.conf import settings
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, ngettext

from rules import (
    PROMO_EVENTS,
    EventOutcome,
    EventType,
    NuggetLadder,
    Options,
    RecordError,
    Reward,
    Territory,
    explorer_sets,
)
from rules.components import BUILDINGS_PER_ROUND
from rules.okanagan import event_section
from scoring import states
from scoring.http import posted_whole
from scoring.live.intervals import STREAMING_MS, poll_every
from scoring.models import SEAT_COLOURS, SEAT_MOVED, Event, Game, Seat
from scoring.phones import known_phone, my_seat
from scoring.results.final import bgstats_context, final_context, result_links
from scoring.table import drafts
from scoring.table.entry import EVENT_KINDS
from scoring.table.seats import claim_context, here_token
from scoring.wording import NUGGET_LADDERS, explain


@dataclass(frozen=True)
class BoardLine:
    """One player on the scoreboard: tokens by kind, nuggets, Explorer sets so far."""

    name: str
    rewards: tuple[tuple[Reward, int], ...]
    tokens: int
    nuggets: int
    explorer_sets: int
    objectives: int
    colour: str


@dataclass(frozen=True)
class LogEntry:
    """One event of the log with its explanation, in the reader's language."""

    index: int
    type: str
    title: str
    steps: tuple[tuple[str, str], ...]
    """Each step's text and the rule it cites."""
    player: str = ""
    """The player the event is about, if one (objective cards: whose they are)."""
    entered_for: str = ""
    """Objective cards entered on another phone: who entered them ("-": a phone that is nobody;
    :data:`~scoring.models.SEAT_MOVED`: their own, while their seat changed phones)."""

    game: int = 0
    """The game's id."""

    @cached_property
    def body(self) -> str:
        """Who entered it for whom, and the steps, each with a link to its rule (made once: :func:`log_entry`)."""
        return render_to_string("table/_log_body.html", {"entry": self, "links": True})

    @cached_property
    def body_plain(self) -> str:
        """The same without the links to the rules (the spectator page)."""
        return render_to_string("table/_log_body.html", {"entry": self, "links": False})

    @property
    def seat_moved(self) -> bool:
        """Objective cards entered on their player's phone while the player's seat changed phones."""
        return self.entered_for == SEAT_MOVED

    @cached_property
    def edit_url(self) -> str:
        return reverse("event_edit", args=[self.game, self.index])

    @cached_property
    def delete_url(self) -> str:
        return reverse("event_delete", args=[self.game, self.index])


_ENTRIES: OrderedDict[tuple[int, str, bytes, str | None], LogEntry] = OrderedDict()
_ENTRIES_KEPT = 2048


def log_entry(row: Event, outcome: EventOutcome) -> LogEntry:
    """One event of the log with its explanation in the reader's language (from what its row stores). Every
    phone shows the same last events after each change, and polls them: each is explained and listed once per
    event and language in this process. The key is what the row holds (its game, its mark, a digest of its
    stored state, which holds the event and what it did), so it is never stale, whatever becomes of row ids;
    the words are the same for every reader, secret cards are never in them."""
    digest = hashlib.blake2b((states.stored_data(row) or "").encode(), digest_size=16).digest()
    key = (row.game_id, row.entered_for, digest, get_language())
    if key in _ENTRIES:
        _ENTRIES.move_to_end(key)
        return _ENTRIES[key]
    section = event_section(outcome)
    entry = LogEntry(
        outcome.index,
        outcome.event.type,
        explain(section),
        tuple((explain(step), step.rule) for step in section.steps),
        getattr(outcome.event, "player", ""),
        row.entered_for,
        row.game_id,
    )
    _ENTRIES[key] = entry
    while len(_ENTRIES) > _ENTRIES_KEPT:
        _ENTRIES.popitem(last=False)
    return entry


def game_context(request: HttpRequest, game: Game, *, member: bool, spectator: bool = False) -> dict[str, object]:
    """Everything the game page, the spectator page and their live fragments show."""
    log_from = wanted_log(request)
    me = None if spectator else my_seat(request, game)
    context: dict[str, object] = {
        "game": game,
        "member": member,
        "spectator": spectator,
        "can_enter": game.is_playing and not spectator,
        "me": me,
        "seats": game.seats.all(),
        "seats_held": any(seat.phone for seat in game.seats.all()),
        **({} if spectator or me is not None or not game.is_playing else claim_context(request, game)),
        "owner": not spectator and game.group.owner_id == request.user.pk,
        **live_part(game, spectator=spectator, log_from=log_from, me=me),
    }
    try:
        now = states.current(game, LOG_SHOWN)
        window = log_window(now.count, log_from)
        earlier = states.outcomes(game, window.start, window.stop) if window.paged else []
    except RecordError as error:  # only a database edited by hand gets here
        context["log_error"] = str(error)
        return context
    result = now.result
    holdings = result.state.holdings
    entering = drafts.entering(game, "" if spectator else known_phone(request)) if game.is_playing else []
    log = [log_entry(row, outcome) for row, outcome in now.recent]
    counted = result.state.final_counts
    board = [
        BoardLine(
            name=player,
            rewards=tuple((reward, count) for reward, count in holdings[player].rewards.items() if count),
            tokens=holdings[player].tokens,
            nuggets=holdings[player].nuggets,
            explorer_sets=explorer_sets(holdings[player].rewards),
            objectives=len(holdings[player].objectives),
            colour=SEAT_COLOURS[position % len(SEAT_COLOURS)],
        )
        for position, player in enumerate(result.state.players)
    ]
    context |= {
        "result": result,
        "board": board,
        "round": result.state.round,
        "option_lines": option_lines(result.state.options),
        "redraw_due": me is not None and result.state.redraw_due(me.name),
        "my_cards": len(holdings[me.name].objectives) if me is not None else 0,
        "cards_prompt_big": round_not_played_yet(now),
        "round_one_buildings": list(BUILDINGS_PER_ROUND[len(result.state.players)][0].items()),
        "nuggets_left": result.state.nuggets_left,
        "counts": [{"name": line.name, "colour": line.colour, "counted": line.name in counted} for line in board],
        "my_count": me is not None and me.name in counted,
        "event_count": now.count,
        "log": log,
        "log_window": window,
        "log_shown": [log_entry(row, outcome) for row, outcome in earlier] if window.paged else log,
        # The grid of the other events; the final count has its own card ("Quick count").
        "event_kinds": [
            kind for kind in EVENT_KINDS if kind != EventType.HOLDINGS and (game.promos or kind not in PROMO_EVENTS)
        ],
        "territories": list(Territory),
        "entering": entering,
        "busy": drafts.busy(entering),  # the bottom bar's "Lena…" on a territory another phone is entering
        "final": None if game.is_playing else final_context(game, result),
    }
    # What this phone has just saved (?saved=N, from its entry's redirect), while it is the log's last event and
    # the game is on; its polls ask for it too, so that the card goes once the game ends or the log goes on.
    saved = just_saved(context, request.GET.get("saved", "")) if game.is_playing and not spectator else None
    if saved is not None:
        context["live_url"] = f"{context['live_url']}&saved={saved.index}"
    context["saved"] = saved
    context |= result_links(request, game)
    if not spectator:
        context |= bgstats_context(request, game, member=member)
        context["join_url"] = request.build_absolute_uri(reverse("join_code", args=[game.table_code]))
    return context


def round_not_played_yet(now: states.Current) -> bool:
    """Whether no territory has been scored in the current round yet: the cards are entered then (dealt before
    the first turn, drawn again at the end of round 1), so the cards prompt is a big button; later it is a small
    one, for a table that enters its cards at the end. The events older than the last ones shown are not read:
    with that many events the round is under way anyway."""
    for _row, outcome in now.recent:
        if outcome.event.type == EventType.TERRITORY:
            return False
        if outcome.event.type == EventType.ROUND_END:
            return True
    return now.count <= len(now.recent)


def live_part(
    game: Game, *, spectator: bool, log_from: int | None = None, me: Seat | None = None, entry: bool = False
) -> dict[str, object]:
    """What the polled live part of a game page, spectator page or entry page (``entry``) needs: its URL (with the
    page of the log the reader is on, and for the phone at seat ``me`` what says that it is still here), how
    often, its version."""
    return {
        "live_url": reverse("live", args=[game.spectator_token])
        + ("?view=watch" if spectator else "?view=entry" if entry else "?view=game")
        + (f"&log={log_from}" if log_from is not None else "")
        + (f"&here={here_token(me)}" if me is not None and game.is_playing else ""),
        "poll_every": poll_every(playing=game.is_playing),
        # The stream that tells the page of each change (scoring/live/push.py), when the site publishes them.
        "stream_url": reverse("stream", args=[game.spectator_token]) if settings.PUSH_PUBLISH_URL else "",
        "stream_every": STREAMING_MS,
        "etag": live_etag(game.pk, game.revision, game.activity, log_from=log_from),
        "revision": game.revision,
    }


def entry_live(request: HttpRequest, game: Game) -> dict[str, object]:
    """What the live part of a new entry's page shows, polled as the game page's is: the other phones entering the
    same thing as this one ("Lena is scoring a forest too"), as soon as both entries exist."""
    me = my_seat(request, game)
    also = drafts.also_entering(game, known_phone(request))
    return {"game": game, "me": me, "also": also, **live_part(game, spectator=False, me=me, entry=True)}


def option_lines(options: Options) -> list[str]:
    """The game's options that differ from the printed game, in words (the scoreboard shows them)."""
    printed = Options()
    lines = []
    if options.reward_supply != printed.reward_supply:
        count = options.reward_supply
        lines.append(
            ngettext("%(count)d token of each kind", "%(count)d tokens of each kind", count) % {"count": count}
        )
    if options.nugget_supply != printed.nugget_supply:
        count = options.nugget_supply
        lines.append(ngettext("%(count)d nugget card", "%(count)d nugget cards", count) % {"count": count})
    if options.nugget_ladder is NuggetLadder.FEWEST_ZERO:
        lines.append(str(NUGGET_LADDERS[options.nugget_ladder]))
    return lines


def just_saved(context: dict[str, object], saved: str) -> LogEntry | None:
    """The log's last event if it is the one this phone has just saved (``saved``, its index, from the entry's
    redirect): the game page shows it first, with its explanation, Undo and Edit. Anything else (an index
    since undone, followed by another event, or not a number) shows nothing."""
    log = context.get("log")
    last = log[0] if isinstance(log, list) and log else None
    return last if isinstance(last, LogEntry) and str(last.index) == saved else None


LOG_SHOWN = 10
"""The last events the game page shows (the earlier ones are one tap away): the page's cost, and how far a phone
scrolls, do not grow with the game."""
LOG_PAGE = 50
"""The earlier events are shown this many a page, newest first: a page's size does not grow with the game either."""


@dataclass(frozen=True)
class LogWindow:
    """The events a page of the game shows: from index ``start`` to ``stop`` (left out), newest first."""

    start: int
    stop: int
    count: int
    """Events in the log."""
    paged: bool
    """A page of the earlier events (``?log=N``), rather than the last :data:`LOG_SHOWN`."""

    @property
    def older(self) -> int | None:
        """The ``?log=`` of the page of events before these, if there are any."""
        return self.start or None

    @property
    def newer(self) -> int | None:
        """The ``?log=`` of the page of events after these, if there are any."""
        return min(self.stop + LOG_PAGE, self.count) if self.paged and self.stop < self.count else None


def wanted_log(request: HttpRequest) -> int | None:
    """The page of the log the reader asked for: ``?log=N``, the :data:`LOG_PAGE` events before event N
    (``None``: the last :data:`LOG_SHOWN` events; ``?log=all`` of old links too)."""
    log_from = posted_whole(request.GET.get("log", ""))
    return log_from if log_from >= 0 else None


def log_window(count: int, log_from: int | None) -> LogWindow:
    """Which of the log's ``count`` events a page shows: the last :data:`LOG_SHOWN`, or up to :data:`LOG_PAGE`
    before event ``log_from`` (the first event at least, the last at most).

    >>> pages = log_window(200, None), log_window(200, 190), log_window(200, 40), log_window(200, 999)
    >>> [(page.start, page.stop, page.older, page.newer) for page in pages]
    [(190, 200, 190, None), (140, 190, 140, 200), (0, 40, None, 90), (150, 200, 150, None)]
    """
    if log_from is None:
        return LogWindow(max(0, count - LOG_SHOWN), count, count, paged=False)
    stop = min(max(log_from, 1), count)
    return LogWindow(max(0, stop - LOG_PAGE), stop, count, paged=True)


def live_etag(game_id: int, revision: int, activity: int, *, log_from: int | None = None) -> str:
    """The live fragment's version: it changes with the log, with the table's activity (seats claimed,
    entries started or ended), with the reader's language and with the page of the log they see."""
    return f"{game_id}.{revision}.{activity}.{get_language()}{f'.log{log_from}' if log_from is not None else ''}"
