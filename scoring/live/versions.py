"""Each game's live version: the one door for every change a phone shows, and what a poll reads.

A phone's poll carries the ETag of what it shows, made of the game's pk, ``revision`` and ``activity``
(:func:`scoring.table.board.live_etag`). ``revision`` counts the changes of the log and of the game's status (a
phone's save claims the revision it saw: :mod:`scoring.log`); ``activity`` counts what else the other phones
show (a seat claimed, an entry started, a sheet's line saved, the result made public). Both only grow, so their
sum, the game's version, grows with every change. Every writer raises one of them through
:func:`game_changed`, which also tells the live backend (:mod:`scoring.live.backends`) and the phones streaming
the game (:mod:`scoring.live.push`) once the transaction commits: that is the invariant the polls rely on, kept
in one place.
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import F
from django.db.transaction import on_commit

from scoring.live import push
from scoring.live.backends import LiveRow, live_backend
from scoring.models import Game, new_table_code, new_token

TOKEN_LENGTH = Game._meta.get_field("spectator_token").max_length
TOKEN = re.compile(r"[A-Za-z0-9_-]+")
"""What a spectator token is made of (:func:`scoring.models.new_token`, URL-safe base64)."""


def game_changed(game: Game, *, log: bool = False, where: dict[str, Any] | None = None, **fields: Any) -> bool:
    """Store ``fields`` on ``game``'s row and raise its ``revision`` (``log``: its log or status changed) or else
    its ``activity``, in the current transaction, if the row still matches ``where``; once committed, every
    phone's next poll sees the change. Returns whether the row matched (``False``: nothing was changed)."""
    counter = "revision" if log else "activity"
    if not Game.objects.filter(pk=game.pk, **(where or {})).update(**fields, **{counter: F(counter) + 1}):
        return False
    game_id, token = game.pk, game.spectator_token
    on_commit(lambda: live_backend().published(game_id), robust=True)
    # After the live backend has the new version (on_commit runs in order): the polls a push causes must find it.
    on_commit(lambda: push.published(token), robust=True)
    return True


def new_codes(game: Game) -> None:
    """A new table code and spectator link for ``game``: every guest who joined with the old code is out, and
    the old link's polls are answered as a stranger's (404) from now on."""
    old_token = game.spectator_token
    game.table_code, game.spectator_token = new_table_code(), new_token()
    game.save(update_fields=["table_code", "spectator_token"])
    link_gone(old_token)


def link_gone(token: str) -> None:
    """Spectator token ``token`` stops working (a new one, or its game deleted): once committed, no poll finds
    its version, and its streams end."""
    on_commit(lambda: live_backend().retired(token), robust=True)
    on_commit(lambda: push.retired(token), robust=True)


def current(token: str) -> LiveRow | None:
    """The pk, revision and activity of the game whose spectator token is ``token``, or ``None`` if none is:
    what an unchanged poll is checked against."""
    if (TOKEN_LENGTH is not None and len(token) > TOKEN_LENGTH) or not TOKEN.fullmatch(token):
        return None  # no game has it: not worth a query, nor a key (PostgreSQL refuses a NUL in a query)
    return live_backend().current(token)
