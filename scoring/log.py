"""A game's event log: replay it with ``rules`` and change it only when the whole log stays legal.

Every change names the revision the phone saw; if another phone changed the game meanwhile, the
change is refused with :class:`StaleGame` (optimistic concurrency), so nothing is lost or doubled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from django.db import IntegrityError, transaction
from django.utils import timezone

from rules import GameState, OkanaganResult, PlayerResult, final_score, name_key, score_okanagan, score_sheet
from rules.record import check_event_count

from . import states
from .live.versions import game_changed
from .models import Event, Game, Group, Profile, Seat, new_table_code
from .results import store_result

type Events = list[dict[str, Any]]


class StaleGame(Exception):
    """The game changed since the phone loaded it."""


@dataclass(frozen=True)
class NewGame:
    """A game to store: its kind, its players in seat order, and what its row holds."""

    kind: str
    players: tuple[str, ...]
    options: dict[str, object] = field(default_factory=dict)
    promos: bool = False
    sheet: dict[str, Any] | None = None
    events: Sequence[object] = ()
    results: tuple[PlayerResult, ...] | None = None
    """Each seat's final result, for a finished game (``None``: in progress)."""
    winners: tuple[str, ...] = ()
    """The engine's winners, for a finished game (:mod:`scoring.results`)."""
    finished: datetime | None = None
    created: datetime | None = None
    """When it was played, if not now (a restored game)."""
    uuid: UUID | None = None
    """Its id outside the site, if it has one already (a restored game); else a new one."""
    start_token: str = ""
    """The token of the "Start the game" form that starts it (:func:`start_game`)."""


def create_games(group: Group, games: Sequence[NewGame]) -> list[Game]:
    """Store ``games`` with their seats (each linked to the group's player of that name, made if new) and
    their events, in a few queries however many games: a restore holds the write lock only briefly."""
    profiles = Profiles(group)
    now = timezone.now()
    with transaction.atomic():
        rows = Game.objects.bulk_create(
            Game(
                group=group,
                kind=new.kind,
                options=new.options,
                promos=new.promos,
                sheet=new.sheet,
                status=Game.Status.PLAYING if new.results is None else Game.Status.FINISHED,
                finished=None if new.results is None else new.finished or now,
                winners=list(new.winners),
                uuid=new.uuid or uuid4(),
                start_token=new.start_token,
            )
            for new in games
        )
        for row, new in zip(rows, games, strict=True):
            row.created = new.created or row.created
        if any(new.created for new in games):
            Game.objects.bulk_update(rows, ["created"], batch_size=500)
        Seat.objects.bulk_create(
            _with_result(Seat(game=row, position=position, name=name, profile=profiles.get(name)), new, position)
            for row, new in zip(rows, games, strict=True)
            for position, name in enumerate(new.players)
        )
        events = Event.objects.bulk_create(
            (Event(game=row, index=index, data=data) for row, new in zip(rows, games, strict=True)
             for index, data in enumerate(new.events)),
            batch_size=1000,
        )  # fmt: skip
        states.store(events, [state for new in games for state in _states(new)])
    return rows


def _states(new: NewGame) -> list[str | None]:
    """What is stored with each event of ``new`` (an Okanagan game's state after it): nothing for a finished
    game (a restored one), whose states are built when its page is first read (:func:`scoring.states.current`):
    a restore then writes its logs only, not a state per event of every game it holds."""
    if new.kind != Game.Kind.OKANAGAN or not new.events or new.results is not None:
        return [None] * len(new.events)
    return states.stored(new.players, new.options, new.events)


def _with_result(seat: Seat, new: NewGame, position: int) -> Seat:
    """``seat`` with its final result, if ``new`` is finished."""
    if new.results is not None:
        result = new.results[position]
        seat.total, seat.rank, seat.parts = result.total, result.rank, dict(result.points)
    return seat


def create_game(
    group: Group, players: tuple[str, ...], options: dict[str, object], *, promos: bool, events: Sequence[object] = ()
) -> Game:
    """A game in progress with its seats and its events."""
    return create_games(group, [NewGame(Game.Kind.OKANAGAN, players, options, promos, events=events)])[0]


def start_game(group: Group, players: tuple[str, ...], options: dict[str, object], *, promos: bool, token: str) -> Game:
    """A game in progress started by the "Start the game" form whose token is ``token``: the game that form
    started already, if it did (a second post of the same form, even at the same moment, finds the first one's
    game: the unique token makes the second insert fail once the first is committed)."""
    started = group.games.filter(start_token=token).first() if token else None
    if started is not None:
        return started
    try:
        return create_games(group, [NewGame(Game.Kind.OKANAGAN, players, options, promos, start_token=token)])[0]
    except IntegrityError:
        started = group.games.filter(start_token=token).first() if token else None
        if started is None:
            raise
        return started


def sheet_game(sheet: dict[str, Any]) -> NewGame:
    """A finished game of Small Islands or Cooper Island from its score sheet (``RulesError`` if invalid)."""
    result = score_sheet(sheet)
    kind = Game.Kind.SMALL_ISLANDS if sheet["format"].startswith("small-islands") else Game.Kind.COOPER_ISLAND
    players = tuple(score.name for score in result.players)
    return NewGame(
        kind,
        players,
        sheet=sheet,
        results=result.standings,
        winners=result.winners,
    )


def create_sheet_game(group: Group, sheet: dict[str, Any]) -> Game:
    """A finished game of Small Islands or Cooper Island from its score sheet (``RulesError`` if invalid)."""
    return create_games(group, [sheet_game(sheet)])[0]


def start_sheet_game(group: Group, kind: str, players: tuple[str, ...]) -> Game:
    """A game of Small Islands or Cooper Island in progress: its players, whose lines are still to fill in."""
    return create_games(group, [NewGame(kind, players)])[0]


def finish_sheet_game(game: Game, sheet: dict[str, Any]) -> Game:
    """Score the sheet put together from the lines, and end the game with it (``RulesError`` if invalid;
    :class:`StaleGame` if another phone scored it first): each seat stores its total, rank and score parts. The
    lines stay on the seats, for a correction."""
    result = score_sheet(sheet)
    with transaction.atomic():
        done = game_changed(
            game,
            log=True,
            where={"status": Game.Status.PLAYING},
            status=Game.Status.FINISHED,
            finished=timezone.now(),
            sheet=sheet,
        )
        if not done:
            raise StaleGame
        game.refresh_from_db()
        store_result(game, result)  # the sheet's players are the seats, in seat order
    return game


def reopen_sheet_game(game: Game, fill: Callable[[Game], None]) -> None:
    """Back to in progress, to correct a scored sheet: ``fill`` puts each line back on its seat. It leaves the
    statistics until it is scored again; a new table code, as for Okanagan."""
    with transaction.atomic():
        done = game_changed(
            game,
            log=True,
            where={"status": Game.Status.FINISHED},
            status=Game.Status.PLAYING,
            finished=None,
            winners=[],
            table_code=new_table_code(),
        )
        if not done:
            raise StaleGame
        fill(game)
        game.seats.update(total=None, rank=None, parts={})


def line_changed(game: Game) -> None:
    """A line was saved: every phone's game page shows which lines are done."""
    game_changed(game)


class Profiles:
    """The group's players by name, made when new. Two names are one player when :func:`rules.same_name`
    says so: ``ANN`` is the group's ``Ann``."""

    def __init__(self, group: Group) -> None:
        self.group = group
        self.by_key = {name_key(profile.name): profile for profile in group.profiles.all()}

    def find(self, name: str) -> Profile | None:
        """The player named ``name`` (or the same player), if the group has one."""
        return self.by_key.get(name_key(name))

    def get(self, name: str, uuid: UUID | None = None) -> Profile:
        """The player named ``name`` (or the same player), made if new (with ``uuid`` as its id outside the
        site, if given: a restored player)."""
        found = self.find(name)
        if found is not None:
            return found
        try:
            with transaction.atomic():  # a savepoint: another request may make the same player meanwhile
                made = self.group.profiles.create(name=name, uuid=uuid or uuid4())
        except IntegrityError:
            made = self.group.profiles.get(name=name)
        return self.by_key.setdefault(name_key(name), made)


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
    game: Game, revision: int, make: Callable[[GameState], dict[str, Any]], *, entered_for: str = ""
) -> int:
    """Add the event that ``make`` makes from the game's state at ``revision`` (often an event made before,
    whatever the state) to the end of the log, applying it to the stored state: its cost does not grow with the
    log. ``entered_for`` marks objective cards entered on another player's phone. Returns the event's index.
    Raises ``RecordError`` (the log is left as it was) or :class:`StaleGame`; ``RecordError`` too when the log
    already holds as many events as a record may (its backup could not be restored)."""
    with transaction.atomic():
        _claim(game, revision)
        now = states.current(game)
        check_event_count(now.count + 1)
        [after] = states.apply_from(game, now.state, [make(now.state.copy())], now.count)
        event = Event.objects.create(
            game=game,
            index=now.count,
            data=after.outcome.event.to_json(),  # as the rules read it
            entered_for=entered_for,
        )
        states.store([event], [after])
        if not game.is_playing:
            store_result(game, OkanaganResult(after.state, final_score(after.state)))
    return now.count


def change_log(
    game: Game, revision: int, change: Callable[[Events], Events], *, entered_for: tuple[int, str] | None = None
) -> OkanaganResult:
    """Apply ``change`` to the log seen at ``revision`` (an edit or a deletion in the past), checking the events
    from the first one changed on, from the state stored before it.

    ``entered_for`` marks the changed event at that index of the new log (-1: the last) as entered by
    someone else than its player (objective cards, "enter for Ann"); other events keep their marks.
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
        marks = _kept_marks([row.entered_for for row in rows], old, new)
        if entered_for is not None:
            at, by = entered_for
            marks[at if at >= 0 else len(new) - 1] = by
        game.events.filter(index__gte=first_change).delete()
        rows = Event.objects.bulk_create(
            Event(game=game, index=index, data=new[index], entered_for=marks.get(index, ""))
            for index in range(first_change, len(new))
        )
        states.store(rows, afters)
        state = afters[-1].state if afters else start
        result = OkanaganResult(state, final_score(state))
        if not game.is_playing:
            store_result(game, result)
    return result


def _kept_marks(marks: list[str], old: Events, new: Events) -> dict[int, str]:
    """Each unchanged event's mark, at its index in ``new``: the events before the change keep their
    place, and those after it keep theirs counted from the end (an event deleted or inserted shifts them)."""
    kept: dict[int, str] = {}
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
    game.seats.update(total=None, rank=None, parts={})
