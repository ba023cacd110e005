"""A group's history: its games, newest first, and a line per player over the finished games.

Totals and winners are the engine's, copied when a game finishes; this only counts and averages them.
A shared win (tied winners) counts as a win for each of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from .models import Game, Group, Profile, Seat


@dataclass(frozen=True)
class PlayerLine:
    """One player's record in the group."""

    profile: Profile
    plays: int
    wins: int
    average: float | None
    best: int | None


def group_history(group: Group) -> dict[str, object]:
    """The games (with their seats) and the per-player summary, in three queries."""
    games = list(group.games.prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("position"))))
    finished = [game for game in games if game.status == Game.Status.FINISHED and game.is_okanagan]
    profiles = list(group.profiles.select_related("user"))
    lines = []
    for profile in profiles:
        seats = [(game, seat) for game in finished for seat in game.seats.all() if seat.profile_id == profile.pk]
        totals = [seat.total for _game, seat in seats if seat.total is not None]
        lines.append(
            PlayerLine(
                profile=profile,
                plays=len(seats),
                wins=sum(seat.name in game.winners for game, seat in seats),
                average=round(sum(totals) / len(totals), 1) if totals else None,
                best=max(totals) if totals else None,
            )
        )
    lines.sort(key=lambda line: (-line.wins, -line.plays, line.profile.name))
    return {"games": games, "summary": lines, "profiles": profiles}
