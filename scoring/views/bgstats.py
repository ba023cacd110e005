"""A finished game, or all of a group's, as a BG Stats ``.bgsplay`` file."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from uuid import UUID

from django.http import Http404, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from scoring.access import has_joined, is_member, member_group
from scoring.bgstats import Play, bgsplay, play_of
from scoring.http import HtmxHttpRequest
from scoring.models import Game, Group, Profile
from scoring.statistics import stored_scores
from scoring.streams import download

PLAYS_CHUNK = 200
"""How many games the group's file reads at a time (with their seats: two queries)."""


@require_safe
def game_bgsplay(request: HtmxHttpRequest, game_id: int) -> HttpResponseBase:
    """One finished game's play file, for whoever may see the game's page (its group's members, and the
    phones that joined its table); a game in progress has none (404)."""
    game = get_object_or_404(Game.objects.select_related("group").prefetch_related("seats"), pk=game_id)
    if game.is_playing or not (is_member(request, game) or has_joined(request, game)):
        raise Http404
    play = _play(game)
    if play is None:
        raise Http404
    return _file([play], _me(request, game.group), f"{game.kind.replace('_', '-')}-{game.pk}.bgsplay")


@require_safe
def group_bgsplay(request: HtmxHttpRequest, group_id: int) -> HttpResponseBase:
    """Every finished game of the group as one play file, oldest first (members only), sent as it is read."""
    group = member_group(request, group_id)
    profiles = group.profiles.in_bulk()
    games = group.games.filter(status=Game.Status.FINISHED).order_by("created", "pk").prefetch_related("seats")
    plays = (play for game in games.iterator(chunk_size=PLAYS_CHUNK) if (play := _play(game, profiles)) is not None)
    return _file(plays, _me(request, group), f"group-{group.pk}-plays.bgsplay")


def _play(game: Game, profiles: Mapping[int, Profile] | None = None) -> Play | None:
    """The finished ``game`` as a play, from each seat's stored result; ``None`` for a game finished without them
    (one the rules refused when results began to be stored: the statistics leave it out too)."""
    scores = stored_scores(game)
    return play_of(game, scores, profiles) if len(scores) == len(game.seats.all()) else None


def _me(request: HtmxHttpRequest, group: Group) -> UUID | None:
    """The uuid of the group's player who is this account, if there is one: the file's ``meRefId``."""
    if not request.user.is_authenticated:
        return None
    return group.profiles.filter(user=request.user.pk).values_list("uuid", flat=True).first()


def _file(plays: Iterable[Play], me: UUID | None, filename: str) -> HttpResponseBase:
    """The play file as a download. Its MIME type is not known (BG Stats does not say): JSON, as an attachment
    named ``*.bgsplay``."""
    return download(bgsplay(plays, me=me), "application/json; charset=utf-8", filename)
