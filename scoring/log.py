"""A game's event log: replay it with ``rules`` and change it only when the whole log stays legal.

Every change names the revision the phone saw; if another phone changed the game meanwhile, the
change is refused with :class:`StaleGame` (optimistic concurrency), so nothing is lost or doubled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from rules import OkanaganResult, name_key, score_okanagan, score_sheet

from .models import Event, Game, Group, Profile, new_table_code

type Events = list[dict[str, Any]]


class StaleGame(Exception):
    """The game changed since the phone loaded it."""


def create_game(
    group: Group, players: tuple[str, ...], options: dict[str, object], *, promos: bool, events: Sequence[object] = ()
) -> Game:
    """A game with its seats (profiles found or created by name) and its events."""
    with transaction.atomic():
        game = Game.objects.create(group=group, options=options, promos=promos)
        for position, name in enumerate(players):
            game.seats.create(position=position, name=name, profile=group_profile(group, name))
        game.events.bulk_create(game.events.model(game=game, index=i, data=data) for i, data in enumerate(events))
    return game


def create_sheet_game(group: Group, sheet: dict[str, Any]) -> Game:
    """A finished game of Small Islands or Cooper Island from its score sheet (``RulesError`` if invalid)."""
    result = score_sheet(sheet)
    kind = Game.Kind.SMALL_ISLANDS if sheet["format"].startswith("small-islands") else Game.Kind.COOPER_ISLAND
    with transaction.atomic():
        game = Game.objects.create(
            group=group,
            kind=kind,
            sheet=sheet,
            status=Game.Status.FINISHED,
            finished=timezone.now(),
            winners=[name for name in result.winners if name != "Alexis"],
        )
        for position, score in enumerate(result.players):
            profile = group_profile(group, score.name)
            game.seats.create(position=position, name=score.name, profile=profile, total=score.total)
    return game


def group_profile(group: Group, name: str) -> Profile:
    """The group's player named ``name``, or named so that it is the same player (``Ann`` for ``ANN``);
    a new player of the group if there is none."""
    key = name_key(name)
    found = next((profile for profile in group.profiles.all() if name_key(profile.name) == key), None)
    return found or group.profiles.create(name=name)


def stored_events(game: Game) -> Events:
    """The log as the record's event objects, in order."""
    return [event.data for event in game.events.all()]


def replay_game(game: Game, events: Events | None = None) -> OkanaganResult:
    """The game replayed and scored by ``rules``; raises ``RecordError`` if the log is not legal."""
    return score_okanagan(game.record(stored_events(game) if events is None else events))


def change_log(game: Game, revision: int, change: Callable[[Events], Events]) -> OkanaganResult:
    """Apply ``change`` to the log seen at ``revision``, after checking the new log by replaying it.

    Raises ``RecordError`` (the log is left as it was) or :class:`StaleGame`.
    """
    with transaction.atomic():
        # Claiming the revision first takes the write lock on every database, so two phones
        # cannot both change the log they saw.
        if not Game.objects.filter(pk=game.pk, revision=revision).update(revision=revision + 1):
            raise StaleGame
        old = stored_events(game)
        new = change(list(old))
        result = replay_game(game, new)
        new = [outcome.event.to_json() for outcome in result.state.log]  # as the rules read them
        first_change = next(
            (index for index, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
        )
        game.events.filter(index__gte=first_change).delete()
        Event.objects.bulk_create(
            Event(game=game, index=index, data=data) for index, data in enumerate(new) if index >= first_change
        )
        game.revision = revision + 1
        if not game.is_playing:
            store_result(game, result)
    return result


def store_result(game: Game, result: OkanaganResult) -> None:
    """Copy the winners and totals of a finished game, for the group's history."""
    game.winners = list(result.final.winners)
    game.save(update_fields=["winners", "status", "finished"])
    totals = {score.name: score.total for score in result.final.players}
    for seat in game.seats.all():
        seat.total = totals[seat.name]
        seat.save(update_fields=["total"])


def finish(game: Game, revision: int) -> OkanaganResult:
    """End the game: the scores become final and the table code stops working."""
    with transaction.atomic():
        if not Game.objects.filter(pk=game.pk, revision=revision).update(revision=revision + 1):
            raise StaleGame
        game.revision = revision + 1
        game.status = Game.Status.FINISHED
        game.finished = timezone.now()
        result = replay_game(game)
        store_result(game, result)
    return result


def reopen(game: Game, revision: int) -> None:
    """Back to in progress, to correct a finished game at the table, with a new table code: the guests of
    before must join again."""
    updated = Game.objects.filter(pk=game.pk, revision=revision).update(
        revision=revision + 1, status=Game.Status.PLAYING, finished=None, winners=[], table_code=new_table_code()
    )
    if not updated:
        raise StaleGame
    game.seats.update(total=None)
