"""What one finished Okanagan game gives the group's history, per player: counted from its event log and its final
score, each territory's influence, order and special action asked of the rules engine's own steps, never decided
again. Pure: no Django.

Each player's facts are stored on their seat (:attr:`scoring.models.Seat.facts`) as ``{"version": 1, "counts":
[...]}``: one whole number per name of :data:`FIELDS`, in that order — a flat list, so that a page reading every
seat of a group's history reads and sums them quickly:

- ``territories_closed``: the territories they closed (the territory events naming them as the closer);
- ``influence_sum`` and ``influence_count``: their influence summed over the territories where they had influence
  (a building counted there), and how many such territories: the average is the one divided by the other;
- ``ties_broken``: the groups of players tied on influence that they put in order as the closer;
  ``ties_own``: those they were themselves part of; ``ties_favoured``: those in which they put themself first
  (they collect before the others tied with them);
- ``explorer_sets`` and ``nuggets``: their Explorer sets and gold nuggets at the end;
- ``special_actions.<kind>``: the special actions they took, by kind (in a territory, or with the Volcano);
- ``tokens.<reward>``: the reward tokens they held at the end, by kind (``green-square``...: a colour and a shape);
- ``cards.<kind>``: their objective cards at the end, by kind; ``cards_completed.<kind>``: of those, the cards
  that scored at least one set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final

from rules import FinalScore, ObjectiveKind, Reward, SpecialActionKind, assess_influence, special_action_recipient
from rules.data import Data
from rules.promos import VolcanoEvent
from rules.record import Event, TerritoryEvent

FACTS_VERSION: Final = 1
"""Stored with the facts (``"version"``): raise it when :data:`FIELDS` changes, and fill them again (facts of
another version read as none)."""

FIELDS: Final[tuple[str, ...]] = (
    "territories_closed",
    "influence_sum",
    "influence_count",
    "ties_broken",
    "ties_own",
    "ties_favoured",
    "explorer_sets",
    "nuggets",
    *(f"special_actions.{kind.value}" for kind in SpecialActionKind),
    *(f"tokens.{reward.value}" for reward in Reward),
    *(f"cards.{kind.value}" for kind in ObjectiveKind),
    *(f"cards_completed.{kind.value}" for kind in ObjectiveKind),
)
"""The name of each count of a player's facts, in the order they are stored."""

INDEX: Final = {name: number for number, name in enumerate(FIELDS)}
"""Each name of :data:`FIELDS` → its place in the stored counts."""


def counts_of(facts: Mapping[str, object]) -> tuple[int, ...] | None:
    """The counts stored in a seat's ``facts`` (in the order of :data:`FIELDS`), or ``None`` when it has none (a
    game in progress, a sheet, an imported play) or facts of another version."""
    counts = facts.get("counts")
    if facts.get("version") != FACTS_VERSION or not isinstance(counts, list) or len(counts) != len(FIELDS):
        return None
    return tuple(counts)


def game_facts(players: tuple[str, ...], events: Sequence[Event], final: FinalScore) -> list[dict[str, Data]]:
    """Each player's facts in a finished game of ``players`` (in seat order): its ``events`` (a legal log) and its
    ``final`` score. Each territory is asked of the engine's own steps (influence, the closer's order, who takes
    the special action: :mod:`rules.territory`), so the log is never replayed for it."""
    counts = {player: Counter[str]() for player in players}
    for event in events:
        if isinstance(event, VolcanoEvent):
            counts[event.player][f"special_actions.{event.special_action.kind.value}"] += 1
        if not isinstance(event, TerritoryEvent):
            continue
        closer = counts[event.closed_by]
        closer["territories_closed"] += 1
        report = assess_influence(players, event.territory, event.closed_by, event.buildings)
        for player, influence in report.influence.items():
            counts[player]["influence_sum"] += influence
            counts[player]["influence_count"] += 1
        if not report.influence:
            continue  # nobody built there: no order, no special action
        order, _steps = report.check_order(event.order)
        recipient, _steps = special_action_recipient(report, order, event.lone_choice)
        if event.special_action is not None and recipient is not None:
            counts[recipient][f"special_actions.{event.special_action.kind.value}"] += 1
        for tied in report.ties:
            closer["ties_broken"] += 1
            if event.closed_by in tied:
                closer["ties_own"] += 1
                closer["ties_favoured"] += [player for player in order if player in tied][0] == event.closed_by
    for score in final.players:
        mine = counts[score.name]
        mine["explorer_sets"], mine["nuggets"] = score.explorer_sets, score.nuggets
        mine.update({f"tokens.{reward.value}": count for reward, count in score.rewards.items()})
        for objective in score.objectives:
            mine[f"cards.{objective.card.kind.value}"] += 1
            mine[f"cards_completed.{objective.card.kind.value}"] += objective.sets > 0
    return [{"version": FACTS_VERSION, "counts": [counts[player][name] for name in FIELDS]} for player in players]
