"""``manage.py check_data``: find stored data that today's rules refuse, such as text stored before
the text rules (a lone surrogate, a control character, an invisible name), a log no longer legal, or a
finished game whose stored result (:mod:`scoring.standings`: each seat's total, rank and score parts, and the
winners) differs from what replaying it gives, or a stored state (:mod:`scoring.states`: the state after each event,
which the pages read) that differs from a fresh replay of the log.

Prints one line per problem and exits with status 1 if there is any, so that it can run after a
deployment or in a cron job. It changes nothing: each problem is for a person to look at (the game's
page says what the rules refuse, and a member can undo or edit the event); but ``--rebuild-states`` first
stores again, from the log, the states that differ from a fresh replay.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules import Result, RulesError, name_problem, score_document, text_problem
from scoring import states
from scoring.history.portability import game_document
from scoring.history.summary import kept
from scoring.models import GROUP_NAME_LENGTH, Game, Group, Profile
from scoring.standings import stored_result


class Command(BaseCommand):
    help = "Find stored texts and games that today's rules refuse (exit status 1 if any)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rebuild-states",
            action="store_true",
            help="store again, from a fresh replay, every state that differs from it (then check)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rebuild_states"]:
            games = Game.objects.filter(kind=Game.Kind.OKANAGAN, imported=False)
            for game in games.prefetch_related("seats", "events"):
                if next(states.differences(game), None) is not None:
                    states.rebuild(game)
                    self.stdout.write(f"game {game.pk}: states stored again from the log")
        count = 0
        for problem in problems():
            self.stdout.write(problem)
            count += 1
        if count:
            raise CommandError(f"{count} problem(s) found", returncode=1)
        self.stdout.write("No problem found.")


def problems() -> Iterator[str]:
    """Each problem of the stored data, as a line naming where it is."""
    for group in Group.objects.order_by("pk"):
        problem = text_problem(group.name)
        if problem is not None or len(group.name) > GROUP_NAME_LENGTH:
            yield f"group {group.pk}: name {group.name!r}: {problem or 'is too long'}"
        if not kept(group):
            yield f"group {group.pk}: its stored history differs from its games counted again"
    for profile in Profile.objects.order_by("pk"):
        problem = name_problem(profile.name)
        if problem is not None:
            yield f"group {profile.group_id}: player {profile.pk}: name {profile.name!r}: {problem}"
    for game in Game.objects.order_by("pk").prefetch_related("seats", "events"):
        if game.kind not in Game.Kind.values:  # the group's files name each play's game by its kind
            yield f"game {game.pk}: kind {game.kind!r} is none of the site's games"
            continue
        if game.imported:  # scores and ranks only: nothing to replay them from
            yield from _imported_problems(game)
            continue
        if not game.is_okanagan and game.sheet is None:
            if not game.is_playing:  # a sheet is stored when it is scored: a finished game without one lost it
                yield f"game {game.pk}: finished without its score sheet"
            continue  # a sheet in progress (its lines are drafts): nothing scored yet to check
        try:
            result = score_document(game_document(game))
        except RulesError as error:
            yield f"game {game.pk}: {error}"
            continue
        if game.is_okanagan:
            for difference in states.differences(game):
                yield f"game {game.pk}: {difference}"
        if not game.is_playing:
            yield from _stored_differences(game, result)


def _imported_problems(game: Game) -> Iterator[str]:
    """What is wrong with an imported play (:mod:`scoring.history.bgsplay_import`): it is finished with each seat's
    total and rank, and its winners are the players in first place."""
    stored = stored_result(game)
    if game.is_playing or stored is None:
        yield f"game {game.pk}: imported play without its result stored"
        return
    first = tuple(player.name for player in stored.players if player.rank == 1)
    if stored.winners != first:
        yield f"game {game.pk}: stored winners {list(stored.winners)}, first place {list(first)}"


def _stored_differences(game: Game, result: Result) -> Iterator[str]:
    """How the finished ``game``'s stored result differs from ``result``, its replay: every page of a finished
    game, its files and the statistics read what is stored (:mod:`scoring.standings`)."""
    stored = stored_result(game)
    if stored is None:
        yield f"game {game.pk}: finished without its result stored"
        return
    for mine, replayed in zip(stored.players, result.standings, strict=False):
        if mine != replayed:
            before, after = (mine.total, mine.rank, dict(mine.points)), (replayed.total, replayed.rank, replayed.points)
            yield f"game {game.pk}: seat {mine.name!r}: stored (total, rank, parts) {before}, replayed {after}"
    if stored.winners != result.winners:
        yield f"game {game.pk}: stored winners {list(stored.winners)}, replayed {list(result.winners)}"
