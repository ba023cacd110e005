"""Who each phone is at a game's table: a phone claims a seat ("I am Ann"), leaves it, or the group's
owner frees a seat that a lost phone holds. A member who claims a seat is linked to that player of the
group, so that the same person is never two players.

Seats follow people, not browsers:

- A seat whose player is linked to a member's account is that account's: it is claimed only by a phone
  logged in to it, and such a phone takes it from any other phone (a new phone, the home-screen app). No one
  else may claim it, even when it is free.
- Any other seat is its phone's until that phone moves it with a short code (:func:`move_code`, typed on
  the new phone: :func:`claim_by_code`), leaves it, or has been gone :data:`GONE_AFTER` (no poll from it):
  then another phone may claim it.
- The phone a seat was taken from is told so on its next poll (``Seat.moved_from``).
- Every claim locks the game's seats (``select_for_update``; on SQLite the write transaction is taken at
  BEGIN), so two taps or two phones at once give a seat to one phone, whole.
"""

from __future__ import annotations

import secrets
import time
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core import signing
from django.db import transaction
from django.db.models import prefetch_related_objects
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.live.versions import game_changed
from scoring.models import CODE_ALPHABET, Game, Seat
from scoring.phones import known_phone
from scoring.table.locking import lock_game

GONE_AFTER = timedelta(minutes=30)
"""How long a phone may be silent before another phone may claim its seat (a seat of no account). A phone
polls every 1.5 s while the game page is shown; a locked screen or another app stops it, so this is a whole
pause of the game, not a phone put down between turns."""
HEARD_EVERY = 60.0
"""Seconds between two writes of a seat's ``seen`` by one app process (a poll every 1.5 s writes once a minute)."""
MOVE_CODE_LENGTH = 4
MOVE_CODE_FOR = timedelta(minutes=10)
"""How long a code shown by "Move my seat to another phone" works."""
_HERE_SALT = "scoring.table.seats.here"
_HEARD: dict[int, float] = {}
_HEARD_KEPT = 4096


class SeatRefused(Exception):
    """The seat cannot be claimed; the message says why, in the reader's language."""


def claim(game: Game, position: int, phone: str, user: AbstractBaseUser | AnonymousUser) -> Seat:
    """This phone becomes the player at ``position`` (and leaves any other seat of the game).

    Raises :class:`SeatRefused` if the seat's player is another account's (or this phone has no account and
    the seat is a member's), or if another phone holds it and this phone may not take it over. A member with
    no player in the group yet becomes this seat's player.
    """
    with transaction.atomic():
        seat = next((seat for seat in _locked(game) if seat.position == position), None)
        if seat is None:
            raise SeatRefused(_("This game has no such seat."))
        _check_account(seat, user)
        if seat.phone not in ("", phone) and not _own_account(seat, user) and not _gone(seat):
            raise SeatRefused(
                _(
                    "Another phone is %(name)s. On that phone, “Move my seat to another phone” gives a code to "
                    "type here; if that phone is lost, the group's owner can free the seat."
                )
                % {"name": seat.name}
            )
        _give(game, seat, phone)
        if (
            user.is_authenticated
            and seat.profile is not None
            and seat.profile.user_id is None
            and not game.group.profiles.filter(user=user.pk).exists()
        ):
            seat.profile.user_id = user.pk
            seat.profile.save(update_fields=["user"])
    return seat


def claim_by_code(game: Game, code: str, phone: str, user: AbstractBaseUser | AnonymousUser) -> Seat:
    """This phone takes the seat whose phone showed ``code`` ("Move my seat to another phone").

    Raises :class:`SeatRefused` if no seat of the game has that code now, or the seat is another account's.
    """
    typed = "".join(code.split()).upper()
    with transaction.atomic():
        now = timezone.now()
        seat = next(
            (
                seat
                for seat in _locked(game)
                if len(typed) == MOVE_CODE_LENGTH
                and seat.move_code == typed
                and seat.move_code_until is not None
                and seat.move_code_until > now
            ),
            None,
        )
        if seat is None:
            raise SeatRefused(
                _("No seat of this game has this code now: check it on the other phone, or make a new one there.")
            )
        _check_account(seat, user)
        _give(game, seat, phone)
    return seat


def move_code(game: Game, phone: str) -> Seat | None:
    """A new code that moves this phone's seat to another phone, for :data:`MOVE_CODE_FOR`; ``None`` if the
    phone holds no seat. A member's seat needs none (it follows its account), but a code works for it too, on a
    phone logged in to that account."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(MOVE_CODE_LENGTH))
    until = timezone.now() + MOVE_CODE_FOR
    if not Seat.objects.filter(game=game, phone=phone).update(move_code=code, move_code_until=until):
        return None
    return game.seats.get(phone=phone)


def leave(game: Game, phone: str) -> None:
    """This phone is nobody at this table any more."""
    if Seat.objects.filter(game=game, phone=phone).update(**_emptied()):
        _changed(game)


def free(game: Game, position: int) -> None:
    """The seat at ``position`` is free again (a lost phone held it); the owner's decision."""
    if Seat.objects.filter(game=game, position=position).exclude(phone="").update(**_emptied()):
        _changed(game)


def moved_away(game: Game, phone: str) -> Seat | None:
    """The seat that another phone took from this one (its account, a code, or after this phone was gone), if
    this phone holds no seat now: the phone says so (uses the prefetched seats when there are)."""
    if not phone:
        return None
    seats = list(game.seats.all())
    if any(seat.phone == phone for seat in seats):
        return None
    return next((seat for seat in seats if seat.moved_from == phone), None)


def claimable(seat: Seat, phone: str, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether this phone may claim ``seat`` now (the page greys the others, and says why)."""
    account = _account(seat)
    if account is not None and account != user.pk:
        return False
    return seat.phone in ("", phone) or _own_account(seat, user) or _gone(seat)


def others_account(seat: Seat, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether ``seat`` is another account's than this phone's: only that account claims it."""
    account = _account(seat)
    return account is not None and account != user.pk


def here_token(seat: Seat) -> str:
    """What the polls of the phone at ``seat`` carry to say that it is still here (see :func:`heard`)."""
    return signing.Signer(salt=_HERE_SALT).sign(str(seat.pk))  # no timestamp: the same on every rendering


def heard(token: str) -> None:
    """A poll of a seat's phone (its :func:`here_token`): the seat's ``seen`` is now, written at most once every
    :data:`HEARD_EVERY` seconds per process, so that an unchanged poll stays a 304 with no query. A token that
    does not come from :func:`here_token` is ignored."""
    try:
        pk = signing.Signer(salt=_HERE_SALT).unsign(token)
    except signing.BadSignature:
        return
    if pk.isdigit():
        heard_from(int(pk))


def heard_from(pk: int) -> None:
    """The phone at seat ``pk`` is still here (see :func:`heard`)."""
    now = time.monotonic()
    if now - _HEARD.get(pk, -HEARD_EVERY) < HEARD_EVERY:
        return
    if len(_HEARD) >= _HEARD_KEPT:
        _HEARD.clear()
    _HEARD[pk] = now
    Seat.objects.filter(pk=pk).exclude(phone="").update(seen=timezone.now())


def _locked(game: Game) -> list[Seat]:
    """Every seat of the game, locked until the transaction ends, always in seat order: a claim also frees the
    phone's other seat, so two claims of one game (even of two seats by one phone) wait for each other. The
    game's row is locked before them (:mod:`scoring.table.locking`), as a deletion does, so that a claim and the
    game's deletion wait for each other instead of deadlocking; a deleted game raises ``GameGone``."""
    lock_game(game)
    seats = Seat.objects.select_for_update(of=("self",)).select_related("profile").filter(game=game)
    return list(seats.order_by("position"))


def _account(seat: Seat) -> int | None:
    """The account the seat's player is linked to, if any."""
    return seat.profile.user_id if seat.profile is not None else None


def _own_account(seat: Seat, user: AbstractBaseUser | AnonymousUser) -> bool:
    return user.is_authenticated and _account(seat) == user.pk


def _check_account(seat: Seat, user: AbstractBaseUser | AnonymousUser) -> None:
    """:class:`SeatRefused` if the seat's player is an account that is not this phone's."""
    if not others_account(seat, user):
        return
    if user.is_authenticated:
        message = _("%(name)s is another member's player: they claim this seat on their own phone.")
    else:
        message = _("%(name)s is a member's player: only their account claims this seat, logged in on their phone.")
    raise SeatRefused(message % {"name": seat.name})


def _gone(seat: Seat) -> bool:
    """Whether the seat's phone has been silent for :data:`GONE_AFTER`."""
    return bool(seat.phone) and seat.seen is not None and seat.seen < timezone.now() - GONE_AFTER


def _give(game: Game, seat: Seat, phone: str) -> None:
    """The locked ``seat`` is this phone's now: the phone leaves any other seat, and the phone it was taken
    from (if any) is told on its next poll."""
    now = timezone.now()
    if seat.phone == phone:
        Seat.objects.filter(pk=seat.pk).update(seen=now)
        return
    Seat.objects.filter(game=game, phone=phone).exclude(pk=seat.pk).update(**_emptied())
    seat.moved_from = seat.phone
    seat.phone, seat.seen, seat.moved_at, seat.move_code, seat.move_code_until = phone, now, now, "", None
    seat.save(update_fields=["phone", "seen", "moved_at", "moved_from", "move_code", "move_code_until"])
    _changed(game)


def _emptied() -> dict[str, object]:
    """A seat left or freed: nobody's, and no code moves it."""
    return {
        "phone": "",
        "seen": None,
        "moved_at": timezone.now(),
        "moved_from": "",
        "move_code": "",
        "move_code_until": None,
    }


def _changed(game: Game) -> None:
    """Every phone shows who holds which seat: the live fragment changes."""
    game_changed(game)


def claim_context(request: HttpRequest, game: Game) -> dict[str, object]:
    """What "Who is this phone?" needs on a phone that is nobody: the seats it may claim (a member's only by
    its account; a held one by its account, or once its phone has been gone long enough), whether a greyed
    one is a member's, and the seat that moved from this phone to another, if any (:mod:`scoring.table.seats`)."""
    table = list(game.seats.all())
    prefetch_related_objects(table, "profile")
    phone = known_phone(request)
    return {
        "claimable": {seat.position for seat in table if claimable(seat, phone, request.user)},
        "members_seats": any(others_account(seat, request.user) for seat in table),
        "moved": moved_away(game, phone),
    }
