"""A finished game, or all of a group's, as a BG Stats ``.bgsplay`` file."""

from __future__ import annotations

import json
from uuid import UUID

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_safe

from scoring.access import has_joined, is_member, member_group
from scoring.bgstats import bgsplay, play_of
from scoring.http import HtmxHttpRequest
from scoring.models import Game, Group
from scoring.statistics import stored_scores


@require_safe
def game_bgsplay(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """One finished game's play file, for whoever may see the game's page (its group's members, and the
    phones that joined its table); a game in progress has none (404)."""
    game = get_object_or_404(Game.objects.select_related("group").prefetch_related("seats"), pk=game_id)
    if game.is_playing or not (is_member(request, game) or has_joined(request, game)):
        raise Http404
    data = bgsplay([play_of(game, stored_scores(game))], me=_me(request, game.group))
    return _file(data, f"{game.kind.replace('_', '-')}-{game.pk}.bgsplay")


@require_safe
def group_bgsplay(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Every finished game of the group as one play file, oldest first (members only)."""
    group = member_group(request, group_id)
    profiles = group.profiles.in_bulk()
    games = group.games.filter(status=Game.Status.FINISHED).order_by("created", "pk").prefetch_related("seats")
    plays = [play_of(game, stored_scores(game), profiles) for game in games]
    return _file(bgsplay(plays, me=_me(request, group)), f"group-{group.pk}-plays.bgsplay")


def _me(request: HtmxHttpRequest, group: Group) -> UUID | None:
    """The uuid of the group's player who is this account, if there is one: the file's ``meRefId``."""
    if not request.user.is_authenticated:
        return None
    return group.profiles.filter(user=request.user.pk).values_list("uuid", flat=True).first()


def _file(data: dict[str, object], filename: str) -> HttpResponse:
    """The play file as a download. Its MIME type is not known (BG Stats does not say): JSON, as an attachment
    named ``*.bgsplay``."""
    body = json.dumps(data, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
