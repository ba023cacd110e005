"""A deleted game's phones are told so, never answered 404 or 500."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponseBase

from scoring.http import HtmxHttpRequest
from scoring.table import gone


class GoneGameMiddleware:
    """A request about a game deleted meanwhile (:mod:`scoring.table.gone`) is sent on with a sentence saying so,
    never answered 404 or 500: a poll, a tap or a save that finds the game missing (404), or one that broke
    half-way through as its rows went (a row missing, a foreign key refused, a log read half deleted)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HtmxHttpRequest, exception: Exception) -> HttpResponseBase | None:
        named = gone.named_game(request)
        if named is None or gone.exists(*named):
            return None  # not about a game, or about one that is there: as usual
        return gone.answer(request, *named, failed=not isinstance(exception, Http404))
