"""What one account may store: groups it owns, games in those groups, and the bytes of their logs and sheets.

The limits are settings (``QUOTA_GROUPS``, ``QUOTA_GAMES``, ``QUOTA_STORED_MB``), generous for a real table (a
group playing every day for ten years holds under 4,000 games); they bound what one account can make the site
store, whatever it sends (a backup restored six times an hour, games imported one after another). A group's games
count against its owner, whoever adds them.

Each limit is checked in the transaction that creates what it counts, holding the owner's row lock
(:func:`kept_within`): two creations of one account at the same moment wait for each other, and the second one
counts what the first one made. (On SQLite every write transaction holds the database's lock already:
:mod:`scoring.table.locking`.) A restore writes its games after its transaction, a chunk at a time
(:func:`scoring.history.portability.restore`): a game added to the account's other groups during those seconds
is checked against what is written so far.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Sum, TextField
from django.db.models.functions import Cast, Length
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Event, Game, Group


class OverQuota(Exception):
    """What was asked would take the account past one of its limits; the message says which, to the reader."""


@contextmanager
def kept_within(owner_id: int, *, groups: int = 0, games: int = 0, stored: int = 0) -> Iterator[None]:
    """A transaction holding the row lock of the account ``owner_id``, in which ``groups`` more groups and ``games``
    more games holding ``stored`` more bytes are checked (:class:`OverQuota` before the block runs) and then
    created by the block: whatever another request of the account creates waits for it, then counts it."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=owner_id).exists()
        if groups:
            check_groups(owner_id, groups)
        if games or stored:
            check_games(owner_id, games, stored)
        yield


def check_groups(owner_id: int, groups: int = 1) -> None:
    """:class:`OverQuota` if the account ``owner_id`` may not own ``groups`` more groups."""
    if Group.objects.filter(owner=owner_id).count() + groups > settings.QUOTA_GROUPS:
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
