"""Competition ranking ("1, 1, 3"), shared by the three games."""

from __future__ import annotations

from collections.abc import Sequence


def competition_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Each entry's rank: 1 + how many entries have a strictly greater key.

    Keys compare as tuples, so a tie on the first figure is broken by the next: (total, tokens).
    Entries with equal keys share a rank and the next rank is skipped.
    """
    return [1 + sum(other > key for other in keys) for key in keys]
