"""Small builders for records in tests: plain JSON, as a player's file would hold it."""

from __future__ import annotations

from typing import Any

from rules import OkanaganResult, RecordError, score_okanagan

Json = dict[str, Any]


def record(*events: Json, players: tuple[str, ...] = ("Ann", "Ben", "Cy"), **options: object) -> Json:
    """An ``okanagan-record/1`` document."""
    return {"format": "okanagan-record/1", "players": list(players), "options": dict(options), "events": list(events)}


def territory(
    buildings: Json, rewards: Json | None = None, closed_by: str = "Ann", kind: str = "forest", **fields: object
) -> Json:
    """A ``territory`` event."""
    return {
        "type": "territory",
        "territory": kind,
        "closed_by": closed_by,
        "rewards": rewards or {},
        "buildings": buildings,
        **fields,
    }


def give(player: str, nuggets: int = 0, **rewards: int) -> Json:
    """An ``adjust`` event giving ``player`` tokens (``green_square=2``) and nuggets from the supply."""
    return {
        "type": "adjust",
        "player": player,
        "nuggets": nuggets,
        "rewards": {kind.replace("_", "-"): count for kind, count in rewards.items()},
    }


def score(document: Json) -> OkanaganResult:
    return score_okanagan(document)


def error_of(document: Json) -> str:
    """The engine's error message for an invalid document (fails the test if it is accepted)."""
    try:
        score_okanagan(document)
    except RecordError as error:
        return str(error)
    raise AssertionError("the record was accepted")


def player(result: OkanaganResult, name: str) -> Json:
    """A player's entry in the result JSON."""
    entries: list[Json] = result.to_json()["players"]
    return next(entry for entry in entries if entry["name"] == name)
