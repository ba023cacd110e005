"""A game's event log: replay it with ``rules`` and change it only when the whole log stays legal.

Every change names the revision the phone saw; if another phone changed the game meanwhile, the
change is refused with :class:`StaleGame` (optimistic concurrency), so nothing is lost or doubled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone

from rules import GameState, OkanaganResult, final_score, score_okanagan
from rules.record import check_event_count
from scoring import states
from scoring.live.versions import game_changed
from scoring.models import Event, Game, new_table_code
from scoring.standings import clear_result, store_result

type Events = list[dict[str, Any]]


class StaleGame(Exception):
    """The game changed since the phone loaded it."""


def stored_events(game: Game) -> Events:
    """The log as the record's event objects, in order."""
    return list(game.events.values_list("data", flat=True))


def replay_game(game: Game, events: Events | None = None) -> OkanaganResult:
    """The game replayed whole and scored by ``rules`` (what the stored states are checked against); raises
    ``RecordError`` if the log is not legal. The pages read the stored state instead (:mod:`scoring.states`)."""
    return score_okanagan(game.record(stored_events(game) if events is None else events))


def _claim(game: Game, revision: int) -> None:
    """Claim the revision the phone saw: it takes the write lock on every database, so two phones cannot both
    change the log they saw (:class:`StaleGame` if another did first)."""
    if not game_changed(game, log=True, where={"revision": revision}):
        raise StaleGame
    game.revision = revision + 1


def append_event(
    game: Game,
    revision: int,
    make: Callable[[GameState], dict[str, Any]],
    *,
    entered_for: str = "",
    saved_by: str = "",
    stands: tuple[GameState, int] | None = None,
    then: Callable[[], None] | None = None,
) -> int:
    """Add the event that ``make`` makes from the game's state at ``revision`` (often an event made before,
    whatever the state) to the end of the log, applying it to the stored state: its cost does not grow with the
    log. ``entered_for`` marks objective cards entered on another player's phone; ``saved_by`` is the seat of the
    phone that saved it (``Event.saved_by``); ``stands``: the state at ``revision`` and the number of events, read
    in one query with the revision (``scoring.states.with_state``), else read once the revision is claimed;
    ``then``: what else the save does in its transaction (the entry's draft dropped). Returns the event's index.
    Raises ``RecordError`` (the log is left as it was) or :class:`StaleGame`; ``RecordError`` too when the log
    already holds as many events as a record may (its backup could not be restored)."""
    with transaction.atomic():
        _claim(game, revision)
        if stands is None:
            stood = states.current(game)
            stands = stood.state, stood.count
        state, count = stands
        check_event_count(count + 1)
        [after] = states.apply_from(game, state, [make(state.copy())], count)
        event = Event.objects.create(
            game=game,
            index=count,
            data=after.outcome.event.to_json(),  # as the rules read it
            entered_for=entered_for,
            saved_by=saved_by,
        )
        states.store([event], [after])
        if not game.is_playing:
            store_result(game, OkanaganResult(after.state, final_score(after.state)))
        if then is not None:
            then()
    return count


def change_log(
    game: Game, revision: int, change: Callable[[Events], Events], *, entered_for: tuple[int, str] | None = None
) -> OkanaganResult:
    """Apply ``change`` to the log seen at ``revision`` (an edit or a deletion in the past), checking the events
    from the first one changed on, from the state stored before it.

    ``entered_for`` marks the changed event at that index of the new log (-1: the last) as entered by
    someone else than its player (objective cards, "enter for Ann"); other events keep their marks, who saved
    them and when.
    Raises ``RecordError`` (the log is left as it was) or :class:`StaleGame`.
    """
    with transaction.atomic():
        _claim(game, revision)
        rows = list(game.events.all())
        old = [row.data for row in rows]
        new = change(list(old))
        if len(new) > len(old):  # a log already longer (from before the cap) may still be corrected in place
            check_event_count(len(new))
        first_change = next(
            (index for index, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
        )
        start = states.state_before(game, first_change)
        afters = states.apply_from(game, start, new[first_change:], first_change)
        new = old[:first_change] + [after.outcome.event.to_json() for after in afters]  # as the rules read them
        kept = _kept_marks(rows, old, new)
        marks = {index: row.entered_for for index, row in kept.items()}
        if entered_for is not None:
            at, by = entered_for
            marks[at if at >= 0 else len(new) - 1] = by
        game.events.filter(index__gte=first_change).delete()
        rows = Event.objects.bulk_create(
            Event(
                game=game,
                index=index,
                data=new[index],
                entered_for=marks.get(index, ""),
                **({"saved_by": kept[index].saved_by, "created": kept[index].created} if index in kept else {}),
            )
            for index in range(first_change, len(new))
        )
        states.store(rows, afters)
        state = afters[-1].state if afters else start
        result = OkanaganResult(state, final_score(state))
        if not game.is_playing:
            store_result(game, result)
    return result


def _kept_marks[T](marks: list[T], old: Events, new: Events) -> dict[int, T]:
    """Each unchanged event's mark (its row), at its index in ``new``: the events before the change keep their
    place, and those after it keep theirs counted from the end (an event deleted or inserted shifts them)."""
    kept: dict[int, T] = {}
    for index, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            break
        kept[index] = marks[index]
    for back in range(1, min(len(old), len(new)) + 1):
        if old[-back] != new[-back] or len(new) - back in kept:
            break
        kept[len(new) - back] = marks[len(old) - back]
    return kept


def finish(game: Game, revision: int) -> OkanaganResult:
    """End the game: the scores become final and the table code stops working."""
    with transaction.atomic():
        _claim(game, revision)
        game.status = Game.Status.FINISHED
        game.finished = timezone.now()
        result = states.current(game).result
        store_result(game, result)
    return result


def reopen(game: Game, revision: int) -> None:
    """Back to in progress, to correct a finished game at the table, with a new table code: the guests of
    before must join again."""
    with transaction.atomic():
        updated = game_changed(
            game,
            log=True,
            where={"revision": revision},
            status=Game.Status.PLAYING,
            finished=None,
            winners=[],
            table_code=new_table_code(),
        )
        if not updated:
            raise StaleGame
        clear_result(game)
