"""A finished game's result shared outside the group: its image for a chat's link preview, its public page."""

from __future__ import annotations

import base64
import binascii
import logging

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring.access import (
    game_for_member,
    watched_game,
)
from scoring.http import HtmxHttpRequest
from scoring.live.versions import game_changed
from scoring.results.image import result_png
from scoring.standings import stored_result

logger = logging.getLogger(__name__)


@require_safe
def result_image(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The finished game's result as a PNG for a chat's link preview, in the reader's language; 404 while the
    game is on, and where its result page is."""
    game = watched_game(request, token)
    stored = None if game.is_playing else stored_result(game)
    if stored is None:
        raise Http404
    # Drawing takes tens of milliseconds: the image of a game at a revision in a language is drawn once, kept in
    # the shared cache, and a browser or chat app that has it already is told so (304) by its ETag.
    # The game's uuid with its row's id: SQLite may give a deleted game's id to a new one.
    version = f"{game.pk}.{game.uuid.hex}.{game.revision}.{get_language()}"
    etag = f'"result.{version}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        key = f"result-image:{version}"
        png = _from_cache(key)
        if png is None:
            png = result_png(game, stored)
            _to_cache(key, png, RESULT_IMAGE_SECONDS)
        response = HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    # Not kept without asking: a member may turn the public result off, and the image must then stop being served.
    response["Cache-Control"] = "no-cache"
    return response


RESULT_IMAGE_SECONDS = 7 * 24 * 3600


def _from_cache(key: str) -> bytes | None:
    """What the shared cache holds at ``key``, or ``None`` (nothing, or a cache that does not answer). The cache
    holds JSON (okanagan_site.cache_json), so the image is kept as base64 text."""
    try:
        value = cache.get(key)
    except Exception:  # the cache is an accelerator: without it the image is drawn  # noqa: BLE001
        logger.warning("The cache did not answer for %s", key, exc_info=True)
        return None
    if not isinstance(value, str):
        return None
    try:
        return base64.b64decode(value, validate=True)
    except binascii.Error:
        return None


def _to_cache(key: str, value: bytes, seconds: int) -> None:
    """Keep ``value`` in the shared cache at ``key``, if the cache answers."""
    try:
        cache.set(key, base64.b64encode(value).decode("ascii"), seconds)
    except Exception:  # noqa: BLE001 (as above)
        logger.warning("The cache did not keep %s", key, exc_info=True)


@require_POST
def public_result(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """A member turns the finished game's public result page (its spectator link and image) on or off."""
    game = game_for_member(request, game_id)
    public = request.POST.get("public") == "1"
    game_changed(game, public_result=public)
    if public:
        messages.success(request, _("The result is public: anyone with its link can see it."))
    else:
        messages.success(request, _("The result is no longer public: its link works only for the group's members."))
    return redirect(reverse("game", args=[game.pk]) + "#share-result")
