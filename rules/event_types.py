"""The kinds of event of a record (below the events themselves, so that every module that defines one can
name its kind)."""

from __future__ import annotations

from enum import StrEnum


class EventType(StrEnum):
    """The kinds of event of a record: each event's ``type``."""

    TERRITORY = "territory"
    VOLCANO = "volcano"
    BEAVER_DAM = "beaver_dam"
    OBJECTIVES = "objectives"
    ROUND_END = "round_end"
    ADJUST = "adjust"
    HOLDINGS = "holdings"
