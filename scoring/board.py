"""What a game page shows, from the replayed log: the scoreboard, the log, the table, the final scores; and
the page of a score sheet being filled in at the table."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from django.db.models import prefetch_related_objects
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext

from rules import (
    Decider,
    EventOutcome,
    EventType,
    NuggetLadder,
    ObjectiveScore,
    OkanaganResult,
    Options,
    PlayerScore,
    RecordError,
    Reward,
    RulesError,
    Territory,
    explorer_sets,
    score_sheet,
)
from rules.components import BUILDINGS_PER_ROUND, OBJECTIVE_POINTS
from rules.okanagan import event_section
from rules.sheets import SheetResult, SheetScore

from . import drafts, states
from .access import is_member
from .charts import stacked
from .entry import EVENT_KINDS, PROMO_KINDS
from .http import HtmxHttpRequest, posted_whole
from .live import ENDED_POLL_SECONDS, POLL_SECONDS
from .models import SEAT_COLOURS, SEAT_MOVED, Event, Game
from .phones import known_phone, my_seat
from .result_image import ImageLine, draw_result
from .score_sheets import assemble, refused_line, review
from .seats import claimable, here_token, moved_away, others_account
from .statistics import OKANAGAN_PARTS
from .wording import NUGGET_LADDERS, PARTS, error_text, explain


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
        return render_to_string("scoring/_log_body.html", {"entry": self, "links": True})

    @cached_property
    def body_plain(self) -> str:
        """The same without the links to the rules (the spectator page)."""
        return render_to_string("scoring/_log_body.html", {"entry": self, "links": False})

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


def claim_context(request: HttpRequest, game: Game) -> dict[str, object]:
    """What "Who is this phone?" needs on a phone that is nobody: the seats it may claim (a member's only by
    its account; a held one by its account, or once its phone has been gone long enough), whether a greyed
    one is a member's, and the seat that moved from this phone to another, if any (:mod:`scoring.seats`)."""
    table = list(game.seats.all())
    prefetch_related_objects(table, "profile")
    phone = known_phone(request)
    return {
        "claimable": {seat.position for seat in table if claimable(seat, phone, request.user)},
        "members_seats": any(others_account(seat, request.user) for seat in table),
        "moved": moved_away(game, phone),
    }


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
        **live_part(game, spectator=spectator, log_from=log_from),
    }
    if me is not None and game.is_playing:  # its polls say this phone is still here
        context["live_url"] = f"{context['live_url']}&here={here_token(me)}"
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
            kind for kind in EVENT_KINDS if kind != EventType.HOLDINGS and (game.promos or kind not in PROMO_KINDS)
        ],
        "territories": list(Territory),
        "entering": entering,
        "busy": drafts.busy(entering),  # the bottom bar's "Lena…" on a territory another phone is entering
        "final": None if game.is_playing else final_context(result),
    }
    # What this phone has just saved (?saved=N, from its entry's redirect), while it is the log's last event and
    # the game is on; its polls ask for it too, so that the card goes once the game ends or the log goes on.
    saved = just_saved(context, request.GET.get("saved", "")) if game.is_playing and not spectator else None
    if saved is not None:
        context["live_url"] = f"{context['live_url']}&saved={saved.index}"
    context["saved"] = saved
    context |= result_links(request, game)
    if not spectator:
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


def live_part(game: Game, *, spectator: bool, log_from: int | None = None) -> dict[str, object]:
    """What the polled live part of a game page or spectator page needs: its URL (with the page of the log the
    reader is on), how often, its version."""
    return {
        "live_url": reverse("live", args=[game.spectator_token])
        + ("?view=watch" if spectator else "?view=game")
        + (f"&log={log_from}" if log_from is not None else ""),
        "poll_every": f"{(POLL_SECONDS if game.is_playing else ENDED_POLL_SECONDS) * 1000:.0f}ms",
        "etag": live_etag(game.pk, game.revision, game.activity, log_from=log_from),
        "revision": game.revision,
    }


def result_links(request: HttpRequest, game: Game) -> dict[str, str]:
    """The spectator link (the public result page once the game is over) and, once over, the result image."""
    links = {"watch_url": request.build_absolute_uri(reverse("watch", args=[game.spectator_token]))}
    if not game.is_playing:
        links["image_url"] = request.build_absolute_uri(reverse("result_image", args=[game.spectator_token]))
    return links


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


@dataclass(frozen=True)
class FinalLine:
    """One player of the final result, in rank order: their score part by part and their seat's colour."""

    score: PlayerScore
    colour: str
    cards: tuple[tuple[ObjectiveScore, int], ...]
    """Each objective card scored, with the VP a set of it is worth."""


def seat_colours(players: Sequence[str]) -> dict[str, str]:
    """Each player's seat colour, from their place in seat (or sheet) order."""
    return {player: SEAT_COLOURS[position % len(SEAT_COLOURS)] for position, player in enumerate(players)}


def final_lines(result: OkanaganResult) -> list[FinalLine]:
    """Each player from first place to last, with their seat's colour and their cards' value per set."""
    seats = seat_colours(result.state.players)
    return [
        FinalLine(
            score,
            seats[score.name],
            tuple((objective, OBJECTIVE_POINTS[objective.card.kind]) for objective in score.objectives),
        )
        for score in result.final.by_rank
    ]


def final_context(result: OkanaganResult) -> dict[str, object]:
    """The final result: the players by rank (each part, their objective cards, Explorer sets and place on the
    nugget ladder), the winners, what decided, the final scoring's explanation and a chart."""
    final = result.final
    by_rank = final.by_rank
    chart = stacked(
        gettext("Score breakdown"),
        [(score.name, [getattr(score, part) for part in OKANAGAN_PARTS]) for score in by_rank],
        [str(PARTS[part]) for part in OKANAGAN_PARTS],
    )
    section = result.sections[-1]
    return {
        "players": by_rank,
        "lines": final_lines(result),
        "winners": final.winners,
        "decided_by": final.decided_by.value,
        "decider": okanagan_decider(result),
        "section": section,
        "chart": chart,
    }


def winners_line(winners: tuple[str, ...]) -> str:
    """The winners' line ("Winner: Ann", "Shared win: Ann, Ben") in the reader's language."""
    return ngettext("Winner: %(names)s", "Shared win: %(names)s", len(winners)) % {"names": ", ".join(winners)}


def okanagan_decider(result: OkanaganResult) -> str:
    """The tie-break that decided the winner, in words; empty when the most VP did."""
    steps = result.sections[-1].steps
    return explain(steps[-1]) if result.final.decided_by is not Decider.POINTS and steps else ""


def sheet_decider(result: SheetResult) -> str:
    """The tie-break that decided the first place of a sheet, in words; empty when the most points did."""
    return "" if result.decider is None else explain(result.decider)


def result_png(game: Game) -> bytes:
    """A finished game's result as a PNG for a chat's link preview: the winners, what decided, each player by
    rank with that game's parts."""
    if game.is_okanagan:
        result = states.current(game).result
        winners, decider = result.final.winners, okanagan_decider(result)
        lines = [
            ImageLine(
                line.score.rank,
                line.score.name,
                line.colour,
                ngettext("%(points)d VP", "%(points)d VP", line.score.total) % {"points": line.score.total},
                _parts([(part, getattr(line.score, part)) for part in OKANAGAN_PARTS]),
            )
            for line in final_lines(result)
        ]
    else:
        sheet = score_sheet(game.sheet)
        winners, decider = sheet.winners, sheet_decider(sheet)
        colours = seat_colours([score.name for score in sheet.players])
        lines = [
            ImageLine(
                score.rank,
                score.name,
                colours[score.name],
                ngettext("%(points)d point", "%(points)d points", score.total) % {"points": score.total},
                _parts(list(score.points.items())),
            )
            for score in _by_rank(sheet)
        ]
    title = f"{game.get_kind_display()} · {game.finished or game.created:%Y-%m-%d}"
    return draw_result(title, winners_line(winners), decider, lines, get_language() or "en")


def _parts(parts: list[tuple[str, int]]) -> str:
    """A player's parts on one line of the image: "Explorer 8 · Objectives 6 · Nuggets 10"."""
    return " · ".join(f"{PARTS[part]} {points}" for part, points in parts)


def _by_rank(result: SheetResult) -> list[SheetScore]:
    """A sheet's players from first place to last; players who share a place stay in sheet order."""
    return sorted(result.players, key=lambda score: score.rank)


def sheet_context(game: Game) -> dict[str, object]:
    """A finished Small Islands or Cooper Island game: ``final``, each component per player from first place to
    last (players who share a place in sheet order), the winners, what decided, the explanation."""
    result = score_sheet(game.sheet)
    rows = [score.to_json() for score in _by_rank(result)]
    columns = [key for key in rows[0] if key not in {"name", "total", "rank"}] if rows else []
    chart = stacked(
        gettext("Score breakdown"),
        [(str(row["name"]), [int(str(row[column])) for column in columns]) for row in rows],
        [str(PARTS[column]) for column in columns],
    )
    final = {
        "players": result.players,
        "rows": rows,
        "columns": columns,
        "winners": result.winners,
        "decider": sheet_decider(result),
        "section": result.sections[0],
        "chart": chart,
    }
    return {"game": game, "result": result, "final": final}


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
    }
