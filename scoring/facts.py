"""What one finished Okanagan game gives the group's history, per player: counted from its event log and its final
score, each territory's influence, order and special action asked of the rules engine's own steps, never decided
again. Pure: no Django.

Each player's facts are a JSON object (stored on their seat, :attr:`scoring.models.Seat.facts`):

- ``territories_closed``: the territories they closed (the territory events naming them as the closer);
- ``influence_sum`` and ``influence_count``: their influence summed over the territories where they had influence
  (a building counted there), and how many such territories: the average is the one divided by the other;
- ``ties_broken``: the groups of players tied on influence that they put in order as the closer;
  ``ties_own``: those they were themselves part of; ``ties_favoured``: those in which they put themself first
  (they collect before the others tied with them);
- ``special_actions``: the special actions they took, by kind (in a territory, or with the Volcano);
- ``tokens``: the reward tokens they held at the end, by kind (``green-square``...: its colour and its shape);
- ``cards``: their objective cards at the end, by kind; ``cards_completed``: of those, the cards that
  scored at least one set;
- ``explorer_sets`` and ``nuggets``: their Explorer sets and gold nuggets at the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from rules import FinalScore, assess_influence, special_action_recipient
from rules.data import Data
from rules.promos import VolcanoEvent
from rules.record import Event, TerritoryEvent

FACTS_VERSION: Final = 1
"""Stored with the facts (``"version"``): raise it when what is counted changes, and fill them again."""


def game_facts(players: tuple[str, ...], events: Sequence[Event], final: FinalScore) -> list[dict[str, Data]]:
    """Each player's facts in a finished game of ``players`` (in seat order): its ``events`` (a legal log) and its
    ``final`` score. Each territory is asked of the engine's own steps (influence, the closer's order, who takes
    the special action: :mod:`rules.territory`), so the log is never replayed for it."""
    closed: Counter[str] = Counter()
    influence_sum: Counter[str] = Counter()
    influence_count: Counter[str] = Counter()
    ties: dict[str, Counter[str]] = {player: Counter() for player in players}
    actions: dict[str, Counter[str]] = {player: Counter() for player in players}
    for event in events:
        if isinstance(event, VolcanoEvent):
            actions[event.player][event.special_action.kind.value] += 1
        if not isinstance(event, TerritoryEvent):
            continue
        closed[event.closed_by] += 1
        report = assess_influence(players, event.territory, event.closed_by, event.buildings)
        for player, influence in report.influence.items():
            influence_sum[player] += influence
            influence_count[player] += 1
        if not report.influence:
            continue  # nobody built there: no order, no special action
        order, _steps = report.check_order(event.order)
        recipient, _steps = special_action_recipient(report, order, event.lone_choice)
        if event.special_action is not None and recipient is not None:
            actions[recipient][event.special_action.kind.value] += 1
        for tied in report.ties:
            chosen = [player for player in order if player in tied]
            ties[event.closed_by]["broken"] += 1
            if event.closed_by in tied:
                ties[event.closed_by]["own"] += 1
                ties[event.closed_by]["favoured"] += chosen[0] == event.closed_by
    facts: list[dict[str, Data]] = []
    for player, score in zip(players, final.players, strict=True):
        cards = Counter(objective.card.kind.value for objective in score.objectives)
        completed = Counter(objective.card.kind.value for objective in score.objectives if objective.sets)
        facts.append(
            {
                "version": FACTS_VERSION,
                "territories_closed": closed[player],
                "influence_sum": influence_sum[player],
                "influence_count": influence_count[player],
                "ties_broken": ties[player]["broken"],
                "ties_own": ties[player]["own"],
                "ties_favoured": ties[player]["favoured"],
                "special_actions": dict(actions[player]),
                "tokens": {reward.value: count for reward, count in score.rewards.items() if count},
                "cards": dict(cards),
                "cards_completed": dict(completed),
                "explorer_sets": score.explorer_sets,
                "nuggets": score.nuggets,
            }
        )
    return facts
