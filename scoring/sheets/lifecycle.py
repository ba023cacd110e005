"""A Small Islands or Cooper Island game's life at the table: started with its players, its lines saved one by one,
scored from the sheet they make, and reopened to correct it (:class:`scoring.log.StaleGame` if another phone was
first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone

from rules import score_sheet
from scoring.creation import NewGame, create_games
from scoring.live.versions import game_changed
from scoring.log import StaleGame
from scoring.models import Game, Group, new_table_code
from scoring.standings import clear_result, store_result


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
        clear_result(game)


def line_changed(game: Game) -> None:
    """A line was saved: every phone's game page shows which lines are done."""
    game_changed(game)
