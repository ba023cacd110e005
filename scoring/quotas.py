"""What one account may store: groups it owns, games in those groups, and the bytes of their logs and sheets.

The limits are settings (``QUOTA_GROUPS``, ``QUOTA_GAMES``, ``QUOTA_STORED_MB``), generous for a real table (a
group playing every day for ten years holds under 4,000 games); they bound what one account can make the site
store, whatever it sends (a backup restored six times an hour, games imported one after another). A group's games
count against its owner, whoever adds them. Checked before anything is written; two requests of one account at
the same moment may pass a limit by what they add, not more.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Sum, TextField
from django.db.models.functions import Cast, Length
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import Event, Game, Group


class OverQuota(Exception):
    """What was asked would take the account past one of its limits; the message says which, to the reader."""


def check_groups(owner_id: int) -> None:
    """:class:`OverQuota` if the account ``owner_id`` may not own one more group."""
    if Group.objects.filter(owner=owner_id).count() >= settings.QUOTA_GROUPS:
        raise OverQuota(
            ngettext(
                "An account may own %(count)d group, and yours does.",
                "An account may own %(count)d groups, and yours owns as many.",
                settings.QUOTA_GROUPS,
            )
            % {"count": settings.QUOTA_GROUPS}
        )


def check_games(owner_id: int, games: int = 1, stored: int = 0) -> None:
    """:class:`OverQuota` if ``games`` more games holding ``stored`` more bytes (their logs and sheets as JSON
    text) would take the account ``owner_id``, who owns the group they go to, past its limits."""
    held = Game.objects.filter(group__owner=owner_id).count()
    if held + games > settings.QUOTA_GAMES:
        raise OverQuota(
            _(
                "The group's owner may hold %(limit)d games in all their groups and holds %(held)d already: "
                "delete games they no longer need to add more."
            )
            % {"limit": settings.QUOTA_GAMES, "held": held}
        )
    if stored and stored_bytes(owner_id) + stored > settings.QUOTA_STORED_MB * 1_000_000:
        raise OverQuota(
            _(
                "The group's owner may store %(megabytes)d MB of games in all their groups: this would take them "
                "past it."
            )
            % {"megabytes": settings.QUOTA_STORED_MB}
        )


def stored_bytes(owner_id: int) -> int:
    """The bytes of every event and score sheet of the games in the groups the account ``owner_id`` owns, as
    JSON text (read only where a file adds games: an import, a restore)."""
    as_text = Sum(Length(Cast("data", TextField())))
    events = Event.objects.filter(game__group__owner=owner_id).aggregate(total=as_text)["total"] or 0
    sheets = (
        Game.objects.filter(group__owner=owner_id, sheet__isnull=False).aggregate(
            total=Sum(Length(Cast("sheet", TextField())))
        )["total"]
        or 0
    )
    return int(events) + int(sheets)
