"""A finished game, or all of a group's, as a BG Stats ``.bgsplay`` file."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from django.http import Http404, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from scoring.access import may_log_play, member_group
from scoring.history.streams import download
from scoring.http import HtmxHttpRequest
from scoring.models import Game, Group
from scoring.results.bgstats import Play, bgsplay, group_plays, play_of
from scoring.standings import stored_result


@require_safe
def game_bgsplay(request: HtmxHttpRequest, game_id: int) -> HttpResponseBase:
    """One finished game's play file, for whoever may log it (:func:`~scoring.access.may_log_play`: its group's
    members, and the phones that joined its table); a game in progress, or one finished without its result
    stored, has none (404)."""
    game = get_object_or_404(Game.objects.select_related("group").prefetch_related("seats"), pk=game_id)
    result = stored_result(game) if may_log_play(request, game) else None
    if result is None:
        raise Http404
    return _file([play_of(game, result)], _me(request, game.group), f"{game.kind.replace('_', '-')}-{game.pk}.bgsplay")


@require_safe
def group_bgsplay(request: HtmxHttpRequest, group_id: int) -> HttpResponseBase:
    """Every finished game of the group as one play file, oldest first (members only), sent as it is read."""
    group = member_group(request, group_id)
    return _file(group_plays(group), _me(request, group), f"group-{group.pk}-plays.bgsplay")


def _me(request: HtmxHttpRequest, group: Group) -> UUID | None:
    """The uuid of the group's player who is this account, if there is one: the file's ``meRefId``."""
    if not request.user.is_authenticated:
        return None
    return group.profiles.filter(user=request.user.pk).values_list("uuid", flat=True).first()


def _file(plays: Iterable[Play], me: UUID | None, filename: str) -> HttpResponseBase:
    """The play file as a download. Its MIME type is not known (BG Stats does not say): JSON, as an attachment
    named ``*.bgsplay``."""
    return download(bgsplay(plays, me=me), "application/json; charset=utf-8", filename)
