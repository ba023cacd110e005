"""Competition ranking ("1, 1, 3") and a player's final result, shared by the three games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerResult:
    """One player's final result in any of the three games, as the engine ranks them: each part of the score
    (the result JSON's ``*_points`` fields, in the result's order), the total and the place (competition
    ranking: players who tie share a place). What a finished game stores, and every page of it reads."""

    name: str
    points: Mapping[str, int]
    """Component → points, in the order the result lists them."""
    total: int
    rank: int

    def to_json(self) -> dict[str, object]:
        """The player's entry in a score sheet's result ``players``."""
        return {"name": self.name, **self.points, "total": self.total, "rank": self.rank}


def competition_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Each entry's rank: 1 + how many entries have a strictly greater key.

    Keys compare as tuples, so a tie on the first figure is broken by the next: (total, tokens).
    Entries with equal keys share a rank and the next rank is skipped.
    """
    return [1 + sum(other > key for other in keys) for key in keys]
