"""Storing new games: a game started at the table, a score sheet, a restored backup, with their seats (each
linked to the group's player of that name, made if new) and their events, in a few queries however many games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from django.db import IntegrityError, transaction
from django.utils import timezone

from rules import PlayerResult, name_key, score_sheet
from scoring import states
from scoring.models import Event, Game, Group, Profile, Seat
from scoring.standings import results_changed


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
    """The engine's winners, for a finished game (:mod:`scoring.standings`)."""
    finished: datetime | None = None
    created: datetime | None = None
    """When it was played, if not now (a restored game)."""
    uuid: UUID | None = None
    """Its id outside the site, if it has one already (a restored game); else a new one."""
    start_token: str = ""
    """The token of the "Start the game" form that starts it (:func:`start_game`)."""
    imported: bool = False
    """A play brought in from elsewhere: its results only, no events (:mod:`scoring.history.bgsplay_import`)."""
    source_play_id: str = ""
    """An imported play's id in the file it came from."""


def create_games(group: Group, games: Sequence[NewGame], *, announce: bool = True) -> list[Game]:
    """Store ``games`` with their seats (each linked to the group's player of that name, made if new) and
    their events, in a few queries however many games: a restore holds the write lock only briefly.

    The finished ones are announced (:data:`scoring.standings.results_changed`) unless ``announce`` is false: a
    restore, writing its games a chunk at a time, announces them all once, at its end."""
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
                imported=new.imported,
                source_play_id=new.source_play_id,
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
        finished = [row for row, new in zip(rows, games, strict=True) if new.results is not None]
        if finished and announce:
            results_changed.send(Game, group=group, games=finished)
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
