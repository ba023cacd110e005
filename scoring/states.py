"""A game's state as stored: with each event, the state after it and what it did (:class:`EventState`), so that
a request costs the same however long the game is.

A save applies its one event to the state stored with the previous event (``scoring.log.append_event``); the
game page, the scoreboard and the entry screens read the last event's state and the last few events' outcomes
(:func:`current`).
Replaying the whole log stays for what needs it: an edit or a deletion in the past replays from the state
before it; an imported or restored game, and a row whose state is missing or was stored by other code (an
older :data:`STATE_FORMAT`), are replayed whole and their states stored again (:func:`rebuild`); and
``manage.py check_data`` checks every stored state against a fresh replay (:func:`differences`).

The states are stored as JSON text through the rules' own data (``GameState.to_data``, ``EventOutcome.to_data``,
:mod:`rules.data`), never pickled: reading a row never runs code, whoever wrote it (a database restored from
elsewhere, a SQL console). A row that is not what :func:`dump` writes, whatever it holds, reads as missing and
is rebuilt from the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rules import RECORD_FORMAT, EventOutcome, GameState, OkanaganResult, RecordError, final_score, new_game
from rules.record import Record, parse_event, parse_record
from rules.replay import apply_event
from scoring.models import Event, EventState, Game

STATE_FORMAT = 3
"""The version of what is stored: raise it when the rules' data of a state or an outcome changes, and every
stored state is rebuilt from its log when next read. (2 was pickles: such a row reads as missing.)"""


@dataclass(frozen=True)
class After:
    """What one row stores: the state after its event (without the log) and what the event did."""

    state: GameState
    outcome: EventOutcome


def _json(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))  # ASCII: a lone surrogate in a name is stored escaped


def dump(after: After) -> str:
    """``after`` as stored: four lines, :data:`STATE_FORMAT`, the players, the state and the outcome, as JSON (no
    JSON text holds a line break), so that a page reads the outcomes of its last events and the state of the
    last one only."""
    lines = (
        str(STATE_FORMAT),
        _json(after.state.players),
        _json(after.state.to_data()),
        _json(after.outcome.to_data()),
    )
    return "\n".join(lines)


def _parts(data: str | None) -> list[str] | None:
    """The lines of what a row stores, if :data:`STATE_FORMAT` wrote them."""
    if data is None:
        return None
    parts = data.split("\n", 3)
    return parts if len(parts) == 4 and parts[0] == str(STATE_FORMAT) else None


def _state(data: str | None) -> GameState | None:
    """The state a row stores, if it is usable."""
    parts = _parts(data)
    try:
        return None if parts is None else GameState.from_data(json.loads(parts[2]))
    except (ValueError, RecursionError):  # not JSON, or not a state's data (DataError): rebuilt from the log
        return None


def _outcome(data: str | None) -> EventOutcome | None:
    """What the event of a row did, if it is usable."""
    parts = _parts(data)
    try:
        if parts is None:
            return None
        players = tuple(json.loads(parts[1]))
        return EventOutcome.from_data(json.loads(parts[3]), players)
    except (ValueError, TypeError, RecursionError):  # not JSON, or not an outcome's data: rebuilt from the log
        return None


def load(data: str | None) -> After | None:
    """What a row stores, or ``None`` if it has nothing usable (never stored, or by another format)."""
    state, outcome = _state(data), _outcome(data)
    return None if state is None or outcome is None else After(state, outcome)


def record_of(game: Game, events: Sequence[Any]) -> Record:
    """The game's record with ``events`` (its players in seat order and its options)."""
    return parse_record(game.record(list(events)))


def stored(players: tuple[str, ...], options: dict[str, object], events: Sequence[object]) -> list[str | None]:
    """What is stored with each event of a game stored with its log (an import, a restore): ``None`` for each
    if the log is not legal (its page then says what the rules refuse)."""
    try:
        record = parse_record({"format": RECORD_FORMAT, "players": list(players), "options": options,
                               "events": list(events)})  # fmt: skip
        return [dump(after) for after in afters(record)]
    except RecordError:
        return [None] * len(events)


def afters(record: Record) -> Iterator[After]:
    """The state after each event of ``record`` and what it did, replaying it once (``RecordError`` if it is
    not legal)."""
    state = new_game(record.players, record.options)
    for index, event in enumerate(record.events):
        outcome = apply_event(state, event, index)
        yield After(state.without_log(), outcome)


def stored_data(row: Event) -> str | None:
    """What is stored for ``row`` (its :class:`EventState`), if anything (fetch it with ``select_related``)."""
    try:
        return row.stored.data
    except EventState.DoesNotExist:
        return None


def store(rows: Sequence[Event], made: Sequence[After | str | None]) -> None:
    """Store with each of ``rows`` (saved events) what it is followed by in ``made``: a state, or a state dumped
    already (``None``: nothing, it is built when first read)."""
    kept = [
        EventState(event=row, data=dump(after) if isinstance(after, After) else after)
        for row, after in zip(rows, made, strict=True)
        if after is not None
    ]
    EventState.objects.bulk_create(kept, batch_size=500)
    for state in kept:
        state.event.stored = state  # as select_related would have it


def rebuild(game: Game) -> list[Event]:
    """Replay the whole log and store every row's state again; the rows, in order. ``RecordError`` if the log
    is not legal (only a database edited by hand has such a log)."""
    rows = list(game.events.all())
    made = list(afters(record_of(game, [row.data for row in rows])))
    EventState.objects.filter(event__game=game).delete()
    store(rows, made)
    return rows


def first_state(game: Game) -> GameState:
    """The state before the first event."""
    record = record_of(game, [])
    return new_game(record.players, record.options)


@dataclass(frozen=True)
class Current:
    """A game as it stands: its state, the number of events, and the last events with what each did."""

    state: GameState
    count: int
    recent: tuple[tuple[Event, EventOutcome], ...]
    """The last events, newest first, each with its outcome."""

    @property
    def result(self) -> OkanaganResult:
        """The game scored as it stands."""
        return OkanaganResult(self.state, final_score(self.state))


def current(game: Game, shown: int = 1) -> Current:
    """The game as it stands, with its last ``shown`` events (one query; the log is replayed only when a row's
    state is missing). ``RecordError`` if the stored log is not legal."""
    rows = list(game.events.select_related("stored").order_by("-index")[: max(shown, 1)])
    state, recent = _newest(rows)
    if rows and (state is None or recent is None):
        rows = rebuild(game)[::-1][: max(shown, 1)]
        state, recent = _newest(rows)
    if state is None or recent is None:
        return Current(first_state(game), 0, ())
    return Current(state, rows[0].index + 1, tuple(recent[:shown]))


LAST_INDEX = "last_index"
LAST_STORED = "last_stored"
"""The columns of a game read with the index of its last event and what is stored with it: its state as it stands
(read with its revision, in one query: ``scoring.table.reads``)."""


def now(game: Game) -> tuple[GameState, int]:
    """The game's state as it stands and its number of events: as they were read with the game (:data:`LAST_INDEX`,
    no query), else as :func:`current` reads them (a game read otherwise, or whose last state is not stored)."""
    if LAST_INDEX in game.__dict__:
        index = game.__dict__[LAST_INDEX]
        if index is None:
            return first_state(game), 0
        state = _state(game.__dict__[LAST_STORED])
        if state is not None:
            return state, index + 1
    stands = current(game)
    return stands.state, stands.count


def forget_state(game: Game) -> None:
    """Forget the state read with ``game`` (:data:`LAST_INDEX`): the game changed since (its row read again)."""
    game.__dict__.pop(LAST_INDEX, None)
    game.__dict__.pop(LAST_STORED, None)


def _newest(rows: list[Event]) -> tuple[GameState | None, list[tuple[Event, EventOutcome]] | None]:
    """The state after the first of ``rows`` (the newest event) and each row's outcome: ``None`` for what is
    not stored (or stored by other code)."""
    if not rows:
        return None, None
    outcomes = [(row, _outcome(stored_data(row))) for row in rows]
    recent = [(row, outcome) for row, outcome in outcomes if outcome is not None]
    return _state(stored_data(rows[0])), recent if len(recent) == len(rows) else None


def outcomes(game: Game, start: int, stop: int) -> list[tuple[Event, EventOutcome]]:
    """Events ``start`` to ``stop`` (excluded), newest first, each with what it did."""
    rows = list(game.events.select_related("stored").filter(index__gte=start, index__lt=stop).order_by("-index"))
    _state, recent = _newest(rows)
    if rows and recent is None:
        _state, recent = _newest(rebuild(game)[start:stop][::-1])
    return recent or []


def state_before(game: Game, index: int) -> GameState:
    """The state event ``index`` applies to: the one stored with the event before it."""
    if index <= 0:
        return first_state(game)
    row = game.events.select_related("stored").filter(index=index - 1).first()
    after = load(stored_data(row)) if row is not None else None
    if row is not None and after is None:
        after = load(stored_data(rebuild(game)[index - 1]))
    return after.state.copy() if after is not None else first_state(game)


def apply_from(game: Game, state: GameState, events: Sequence[dict[str, Any]], start: int) -> list[After]:
    """Apply ``events`` (at indexes ``start``…) to ``state``, each checked as the rules check it; ``RecordError``
    names the first illegal one."""
    players = game.players()
    out = []
    for offset, data in enumerate(events):
        index = start + offset
        outcome = apply_event(state, parse_event(players, data, index), index)
        out.append(After(state.without_log(), outcome))
    return out


def differences(game: Game) -> Iterator[str]:
    """Each stored state of ``game`` that differs from a fresh replay of its log (for ``check_data``). A row with
    no state is not one: it is built when first read."""
    rows = list(game.events.select_related("stored"))
    try:
        fresh = list(afters(record_of(game, [row.data for row in rows])))
    except RecordError:
        return  # check_data says what the rules refuse
    for row, replayed in zip(rows, fresh, strict=True):
        stored = load(stored_data(row))
        if stored is not None and stored != replayed:
            yield f"event {row.index}: the stored state differs from a fresh replay"
