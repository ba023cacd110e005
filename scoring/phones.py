"""This phone: who it is at a game's table.

A phone is a browser session, named by a random ``phone`` token kept in it (a session key changes at
log-in; the token does not). A phone claims a seat of a game ("I am Ann"): the seat holds the token.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest
from django.utils.crypto import salted_hmac

from scoring.models import Game, Seat

PHONE_KEY = "phone"
PHONE_LENGTH = 22
"""The length of a phone token (``Seat.phone`` holds 32 characters at most)."""


def phone_id(request: HttpRequest) -> str:
    """This browser's phone token, made on first use.

    A browser that has a session already gets a token derived from it: two requests of its first use at once
    (a double tap on "I am Ann" on a new phone) make the same token, so the seat never goes to a token that
    the session, written last by the other request, does not hold.
    """
    phone = request.session.get(PHONE_KEY)
    if not isinstance(phone, str) or not phone:
        key = request.session.session_key
        phone = (
            salted_hmac(PHONE_KEY, key, algorithm="sha256").hexdigest()[:PHONE_LENGTH]
            if key
            else secrets.token_urlsafe(16)
        )
        request.session[PHONE_KEY] = phone
    return phone


def known_phone(request: HttpRequest) -> str:
    """This browser's phone token, or empty if it has none yet (nothing is written to the session)."""
    phone = request.session.get(PHONE_KEY)
    return phone if isinstance(phone, str) else ""


def my_seat(request: HttpRequest, game: Game) -> Seat | None:
    """The seat this phone claimed in ``game`` (uses the prefetched seats when there are)."""
    phone = known_phone(request)
    if not phone:
        return None
    return next((seat for seat in game.seats.all() if seat.phone == phone), None)
