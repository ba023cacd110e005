"""A deleted game, remembered for a while, so that the phones still on it are told what happened.

Phones poll a game every 1.5 s and keep its pages open: when a member deletes it, their next poll, tap, save,
Undo or Edit names a game that is no longer there. Rather than a 404 (or a 500 from a request that was
half-way through when the rows went), they are sent to the group's page (a member) or the home page (a guest,
a spectator) with a sentence saying who deleted it (:class:`GoneGameMiddleware` in :mod:`scoring.site.middleware`).

What is remembered sits in the shared cache for :data:`KEPT_FOR`, under the game's id and its spectator token:
the group, the table code (so that a guest who joined with it is told, and a stranger still gets a 404, the
site not even saying the game existed) and who deleted it.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TypedDict

from django.contrib import messages
from django.contrib.messages.storage.base import BaseStorage
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.access import TABLES_KEY
from scoring.cache import CACHE_ERRORS, warn_once
from scoring.http import HtmxHttpRequest, go
from scoring.models import Game, Group

logger = logging.getLogger(__name__)

KEPT_FOR = timedelta(days=7)
"""How long the phones of a deleted game are told so: far longer than a table keeps a page open."""

TOKEN_VIEWS = frozenset({"watch", "live", "result_image"})
"""The URLs that name a game by its spectator token (``token``), rather than by its id (``game_id``)."""


class Deleted(TypedDict):
    """What is remembered of a deleted game."""

    group: int
    code: str
    by: str


def _key_of_id(game_id: object) -> str:
    return f"gone:game:{game_id}"


def _key_of_token(token: object) -> str:
    return f"gone:token:{token}"


def remember(game: Game, by: str) -> None:
    """Remember that ``game`` was deleted by ``by`` (a name, or ``""``), before it is."""
    deleted: Deleted = {"group": game.group_id, "code": game.table_code, "by": by}
    timeout = int(KEPT_FOR.total_seconds())
    try:
        cache.set_many({_key_of_id(game.pk): deleted, _key_of_token(game.spectator_token): deleted}, timeout=timeout)
    except CACHE_ERRORS:  # Redis down: the game is deleted all the same, its phones get the usual 404
        _without_cache()


def _without_cache() -> None:
    warn_once(logger, "deleted games", "Redis does not answer: deleted games are not remembered")


def deleter(request: HttpRequest, game: Game) -> str:
    """The member deleting ``game`` as the table knows them: their player's name in the group, else their
    username."""
    name = game.group.profiles.filter(user=request.user.pk).values_list("name", flat=True).first()
    return name or request.user.get_username()


def named_game(request: HttpRequest) -> tuple[bool, str] | None:
    """The game the request's URL names, as ``(by its id, the id or token)``; ``None`` for any other URL."""
    match = request.resolver_match
    if match is None:
        return None
    if "game_id" in match.kwargs:
        return True, str(match.kwargs["game_id"])
    if match.url_name in TOKEN_VIEWS and "token" in match.kwargs:
        return False, str(match.kwargs["token"])
    return None


def exists(by_id: bool, key: str) -> bool:
    """Whether the game named so is still there."""
    return Game.objects.filter(**({"pk": key} if by_id else {"spectator_token": key})).exists()


def answer(request: HtmxHttpRequest, by_id: bool, key: str, *, failed: bool) -> HttpResponse | None:
    """Where to send a phone that asked for a deleted game, with a sentence saying so; ``None`` (the usual 404)
    if no such game was deleted lately, or if this phone never had it (a stranger learns nothing).

    ``failed``: the request did not find the game missing, it broke half-way through as the game was deleted
    (it had it, then): it is told even if the game's deletion is no longer remembered.
    """
    try:
        deleted: Deleted | None = cache.get(_key_of_id(key) if by_id else _key_of_token(key))
    except CACHE_ERRORS:
        _without_cache()
        deleted = None
    if deleted is None:
        if not failed:
            return None
        _tell(request, _("This game was deleted."))
        return go(request, reverse("home"))
    member = request.user.is_authenticated and Group.objects.filter(pk=deleted["group"], members=request.user).exists()
    tables = request.session.get(TABLES_KEY, {})
    joined = by_id and isinstance(tables, dict) and tables.get(key) == deleted["code"]
    if not (member or joined or failed or not by_id):  # a spectator token: whoever has it had the game
        return None
    if deleted["by"]:
        _tell(request, _("This game was deleted by %(name)s.") % {"name": deleted["by"]})
    else:
        _tell(request, _("This game was deleted."))
    return go(request, reverse("group", args=[deleted["group"]]) if member else reverse("home"))


def _tell(request: HttpRequest, text: str) -> None:
    """Say ``text`` on the phone's next page, once: a poll and a tap of the same phone may both be sent away
    before its next page shows the messages."""
    storage = messages.get_messages(request)
    if text not in (str(message.message) for message in storage):
        messages.info(request, text)
    if isinstance(storage, BaseStorage):  # (a request without the messages middleware has a plain list)
        storage.used = False  # read here, not shown: they stay for the next page
