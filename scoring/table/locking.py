"""The one order in which a game's rows are locked: the game's row first.

Every change of a game's rows (a save, a draft, a seat claim, the game's deletion) takes the game's row lock
before touching any of the game's other rows, in its transaction: two changes of one game then wait for each
other at their first step, never each holding a row the other needs (a deadlock on PostgreSQL), and a change
that waited for the game's deletion finds no game rather than storing a row that refers to none (a foreign
key refused). On SQLite every write transaction holds the database's lock from its start (``BEGIN
IMMEDIATE``), which orders them already; the lock taken here is then a no-op.
"""

from __future__ import annotations

from scoring.models import Game


class GameGone(Exception):
    """The game was deleted (the phones are told so: :mod:`scoring.table.gone`)."""


def lock_game(game: Game) -> None:
    """Take ``game``'s row lock for the rest of the transaction (call it inside ``transaction.atomic``, before
    anything else); raises :class:`GameGone` if it was deleted."""
    if not Game.objects.select_for_update().filter(pk=game.pk).exists():
        raise GameGone
