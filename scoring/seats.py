"""Who each phone is at a game's table: a phone claims a seat ("I am Ann"), leaves it, or the group's
owner frees a seat that a lost phone holds. A member who claims a seat is linked to that player of the
group, so that the same person is never two players."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from . import live_version
from .models import Game, Seat


class SeatRefused(Exception):
    """The seat cannot be claimed; the message says why, in the reader's language."""


def claim(game: Game, position: int, phone: str, user: AbstractBaseUser | AnonymousUser) -> Seat:
    """This phone becomes the player at ``position`` (and leaves any other seat of the game).

    Raises :class:`SeatRefused` if another phone holds the seat, or if the seat's player is another
    member's account. A member with no player in the group yet becomes this seat's player.
    """
    seat = game.seats.select_related("profile").filter(position=position).first()
    if seat is None:
        raise SeatRefused(_("This game has no such seat."))
    profile = seat.profile
    member = user.is_authenticated
    if member and profile is not None and profile.user_id not in (None, user.pk):
        raise SeatRefused(
            _("%(name)s is another member's player: they claim this seat on their own phone.") % {"name": seat.name}
        )
    with transaction.atomic():
        Seat.objects.filter(game=game, phone=phone).exclude(pk=seat.pk).update(phone="")
        if not Seat.objects.filter(pk=seat.pk, phone__in=("", phone)).update(phone=phone):
            raise SeatRefused(
                _("Another phone is %(name)s. If that phone is lost, the group's owner can free the seat.")
                % {"name": seat.name}
            )
        if (
            member
            and profile is not None
            and profile.user_id is None
            and not game.group.profiles.filter(user=user.pk).exists()
        ):
            profile.user_id = user.pk
            profile.save(update_fields=["user"])
        _changed(game)
    seat.phone = phone
    return seat


def leave(game: Game, phone: str) -> None:
    """This phone is nobody at this table any more."""
    if Seat.objects.filter(game=game, phone=phone).update(phone=""):
        _changed(game)


def free(game: Game, position: int) -> None:
    """The seat at ``position`` is free again (a lost phone held it); the owner's decision."""
    if Seat.objects.filter(game=game, position=position).exclude(phone="").update(phone=""):
        _changed(game)


def _changed(game: Game) -> None:
    """Every phone shows who holds which seat: the live fragment changes."""
    Game.objects.filter(pk=game.pk).update(activity=F("activity") + 1)
    live_version.changed(game.pk)
