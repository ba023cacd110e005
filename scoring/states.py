"""A game's state as stored: with each event, the state after it and what it did (:class:`EventState`), so that
a request costs the same however long the game is.

A save applies its one event to the state stored with the previous event (``scoring.log.append_event``); the
game page, the scoreboard and the entry screens read the last event's state and the last few events' outcomes
(:func:`current`).
Replaying the whole log stays for what needs it: an edit or a deletion in the past replays from the state
before it; an imported or restored game, and a row whose state is missing or was stored by other code (an
older :data:`STATE_FORMAT`), are replayed whole and their states stored again (:func:`rebuild`); and
``manage.py check_data`` checks every stored state against a fresh replay (:func:`differences`).

The states are pickled: only the server writes them, from the rules' own objects, and nothing a client sends
is ever unpickled (imports and restores carry the log, which is replayed).
"""

from __future__ import annotations

import copyreg
import io
import pickle
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from rules import RECORD_FORMAT, EventOutcome, GameState, OkanaganResult, RecordError, final_score, new_game
from rules.explanation import Message, Plural
from rules.record import Record, parse_event, parse_record
from rules.replay import apply_event

from .models import Event, EventState, Game

STATE_FORMAT = 2
"""The version of what is pickled: raise it when the rules' state or explanation classes change, and every
stored state is rebuilt from its log when next read."""


@dataclass(frozen=True)
class After:
    """What one row stores: the state after its event (without the log) and what the event did."""

    state: GameState
    outcome: EventOutcome


def _frozen(mapping: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(mapping)


def _message(template: str, params: dict[str, Any]) -> Message:
    return Message(template, **params)


class _Pickler(pickle.Pickler):
    """Pickles the rules' objects: their immutable mappings, and the strings that carry a template."""

    dispatch_table = copyreg.dispatch_table | {
        MappingProxyType: lambda mapping: (_frozen, (dict(mapping),)),
        Plural: lambda text: (Plural, (str(text), text.plural, text.number)),
        Message: lambda message: (_message, (message.template, dict(message.params))),
    }


def _pickled(value: object) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return out.getvalue()


def dump(after: After) -> bytes:
    """``after`` as stored, marked with :data:`STATE_FORMAT`: the state and the outcome pickled apart, so that a
    page unpickles the outcomes of its last events and the state of the last one only."""
    return pickle.dumps((STATE_FORMAT, _pickled(after.state), _pickled(after.outcome)), pickle.HIGHEST_PROTOCOL)


def _unpickled[T](data: bytes | None, index: int, kind: type[T]) -> T | None:
    """Part ``index`` (1: the state, 2: the outcome) of what a row stores, if it is usable."""
    if data is None:
        return None
    try:
        stored = pickle.loads(data)  # noqa: S301 (written by this server only, see above)
        if not (isinstance(stored, tuple) and len(stored) == 3 and stored[0] == STATE_FORMAT):
            return None
        value = pickle.loads(stored[index])  # noqa: S301
    except Exception:  # anything unpicklable is rebuilt from the log  # noqa: BLE001
        return None
    return value if isinstance(value, kind) else None


def load(data: bytes | memoryview | None) -> After | None:
    """What a row stores, or ``None`` if it has nothing usable (never stored, or by another format)."""
    raw = None if data is None else bytes(data)
    state, outcome = _unpickled(raw, 1, GameState), _unpickled(raw, 2, EventOutcome)
    return None if state is None or outcome is None else After(state, outcome)


def record_of(game: Game, events: Sequence[Any]) -> Record:
    """The game's record with ``events`` (its players in seat order and its options)."""
    return parse_record(game.record(list(events)))


def stored(players: tuple[str, ...], options: dict[str, object], events: Sequence[object]) -> list[bytes | None]:
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


def stored_data(row: Event) -> bytes | None:
    """What is stored for ``row`` (its :class:`EventState`), if anything (fetch it with ``select_related``)."""
    try:
        return bytes(row.stored.data)
    except EventState.DoesNotExist:
        return None


def store(rows: Sequence[Event], made: Sequence[After | bytes | None]) -> None:
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


def _newest(rows: list[Event]) -> tuple[GameState | None, list[tuple[Event, EventOutcome]] | None]:
    """The state after the first of ``rows`` (the newest event) and each row's outcome: ``None`` for what is
    not stored (or stored by other code)."""
    if not rows:
        return None, None
    outcomes = [(row, _unpickled(stored_data(row), 2, EventOutcome)) for row in rows]
    recent = [(row, outcome) for row, outcome in outcomes if outcome is not None]
    return _unpickled(stored_data(rows[0]), 1, GameState), recent if len(recent) == len(rows) else None


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
