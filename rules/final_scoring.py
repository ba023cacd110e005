"""Okanagan's final scoring: the Explorer card, objective cards, gold nuggets and the winner."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Final

from .components import (
    EXPLORER_POINTS_PER_SET,
    NUGGET_PLACE_POINTS,
    OBJECTIVE_POINTS,
    Colour,
    Reward,
)
from .explanation import Figure, Players, Series, Step, ngettext_lazy
from .explanation import gettext_noop as _
from .game import GameState
from .ranking import competition_ranks
from .record import Bag, NuggetLadder, ObjectiveCard, bag_to_json

PARTS: Final[tuple[str, ...]] = ("explorer_points", "objective_points", "nugget_points")
"""The parts of an Okanagan score, in the result's order (each a field of :class:`PlayerScore`)."""


def explorer_sets(rewards: Bag) -> int:
    """Sets of 4 different colours, whatever the shapes: the smallest count among the colours."""
    by_colour = dict.fromkeys(Colour, 0)
    for reward, count in rewards.items():
        by_colour[reward.colour] += count
    return min(by_colour.values())


@dataclass(frozen=True)
class ObjectiveScore:
    """One objective card scored: the sets it counts and the points they give."""

    card: ObjectiveCard
    sets: int
    points: int

    def to_json(self) -> dict[str, object]:
        """The card's entry in the result's ``objectives``."""
        return self.card.to_json() | {"sets": self.sets, "points": self.points}


def score_objective(card: ObjectiveCard, rewards: Bag) -> ObjectiveScore:
    """Score ``card`` on ``rewards``: a set is one of each reward shown (a specific card: one token)."""
    sets = min(rewards.get(reward, 0) for reward in card.rewards)
    return ObjectiveScore(card, sets, sets * OBJECTIVE_POINTS[card.kind])


def nugget_points(nuggets: Mapping[str, int], ladder: NuggetLadder) -> tuple[dict[str, int], list[Step]]:
    """Gold-nugget points per player, with the printed tie rule, and the steps.

    Players are placed from the most nuggets to the fewest; tied players share the best value of the
    places they cover and the next player skips those places. With ``fewest_zero`` the players with
    the fewest score 0 unless everybody ties.
    """
    counts = sorted(set(nuggets.values()), reverse=True)
    points: dict[str, int] = {}
    steps: list[Step] = []
    place = 0
    for count in counts:
        group = [player for player in nuggets if nuggets[player] == count]
        value = NUGGET_PLACE_POINTS[place] if place < len(NUGGET_PLACE_POINTS) else 0
        fewest = count == counts[-1] and len(counts) > 1
        if fewest and ladder is NuggetLadder.FEWEST_ZERO:
            value = 0
            steps.append(
                Step(
                    "okanagan.nuggets.fewest_zero",
                    ngettext_lazy(
                        "{players}, with the fewest nuggets ({count}), scores 0 (game option).",
                        "{players}, with the fewest nuggets ({count}), score 0 (game option).",
                        "fewest",
                    ),
                    {"players": Players(group), "count": count, "fewest": len(group)},
                )
            )
        elif len(group) > 1:
            steps.append(
                Step(
                    "okanagan.nuggets.ties",
                    ngettext_lazy(
                        "{players} tie with {count} nugget and each score {points} VP, "
                        "the best of the places they share.",
                        "{players} tie with {count} nuggets and each score {points} VP, "
                        "the best of the places they share.",
                    ),
                    {"players": Players(group), "count": count, "points": value},
                )
            )
        else:
            steps.append(
                Step(
                    "okanagan.nuggets.places",
                    ngettext_lazy(
                        "{players} is place {place} with {count} nugget: {points} VP.",
                        "{players} is place {place} with {count} nuggets: {points} VP.",
                    ),
                    {"players": group[0], "place": place + 1, "count": count, "points": value},
                )
            )
        if fewest and ladder is NuggetLadder.BY_PLACE and place + len(group) < len(NUGGET_PLACE_POINTS):
            steps.append(
                Step(
                    "okanagan.nuggets.by_place",
                    _("With {players} players the fewest score by their place, not 0."),
                    {"players": len(nuggets)},
                )
            )
        points.update(dict.fromkeys(group, value))
        place += len(group)
    return points, steps


@dataclass(frozen=True)
class PlayerScore:
    """A player's final score, part by part."""

    name: str
    rewards: Mapping[Reward, int]
    tokens: int
    nuggets: int
    explorer_sets: int
    explorer_points: int
    objectives: tuple[ObjectiveScore, ...]
    objective_points: int
    nugget_points: int
    total: int
    rank: int
    nugget_place: int = 0
    """The player's place on the gold-nugget ladder (1: the most nuggets; tied players share a place)."""

    @property
    def standing(self) -> Standing:
        """What the end compares of this player."""
        return Standing(self.name, self.total, self.tokens)

    def to_json(self) -> dict[str, object]:
        """The player's entry in the result's ``players``."""
        return {
            "name": self.name,
            "rewards": bag_to_json(self.rewards),
            "tokens": self.tokens,
            "nuggets": self.nuggets,
            "explorer_sets": self.explorer_sets,
            "explorer_points": self.explorer_points,
            "objectives": [objective.to_json() for objective in self.objectives],
            "objective_points": self.objective_points,
            "nugget_points": self.nugget_points,
            "total": self.total,
            "rank": self.rank,
        }


class Decider(Enum):
    """What decided the winner: the rule the winner's step cites, as data for the pages."""

    POINTS = "points"
    """One player has the most VP."""
    TOKENS = "tokens"
    """Players tied on VP; the one holding the most tokens wins (the printed tie-break)."""
    SHARED = "shared"
    """Players tied on VP and on tokens: they share the victory."""


@dataclass(frozen=True)
class FinalScore:
    """Every player's score in seat order, the winners, and the explanation."""

    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    steps: tuple[Step, ...]
    decided_by: Decider = Decider.POINTS
    """Whether the most VP decided, or the tie-break on tokens (won or shared)."""
    tied: tuple[str, ...] = ()
    """The players tied on the most VP when the tie-break was needed (seat order), else empty."""

    @property
    def by_rank(self) -> tuple[PlayerScore, ...]:
        """The players from first to last place; players who share a place stay in seat order."""
        return tuple(sorted(self.players, key=lambda score: score.rank))


def final_score(state: GameState) -> FinalScore:
    """Score the game as it stands in ``state``."""
    nugget_values, nugget_steps = nugget_points(
        {player: state.holdings[player].nuggets for player in state.players}, state.options.nugget_ladder
    )
    unranked = [_score_player(state, player, nugget_values[player]) for player in state.players]
    ranks = places([score.standing for score in unranked])
    ladder = competition_ranks([(score.nuggets,) for score in unranked])
    players = tuple(
        replace(score, rank=rank, nugget_place=place)
        for score, rank, place in zip(unranked, ranks, ladder, strict=True)
    )
    steps: list[Step] = []
    for score in players:
        steps.append(
            Step(
                "okanagan.score.explorer",
                ngettext_lazy(
                    "{player}: {sets} Explorer set × 4 = {points} VP.",
                    "{player}: {sets} Explorer sets × 4 = {points} VP.",
                    "sets",
                ),
                {"player": score.name, "sets": score.explorer_sets, "points": score.explorer_points},
            )
        )
        steps.extend(objective_step(score.name, objective) for objective in score.objectives)
    if any(score.objectives for score in players):
        steps.append(Step("okanagan.score.shared_tokens", _("A token counts for every card it fits.")))
    steps.extend(nugget_steps)
    steps.extend(winner_steps([score.standing for score in players]))
    decided_by, tied = decider(players)
    winners = tuple(score.name for score in players if score.rank == 1)
    return FinalScore(players, winners, tuple(steps), decided_by, tied)


def decider(players: Sequence[PlayerScore]) -> tuple[Decider, tuple[str, ...]]:
    """What decided the winner among ``players`` (ranked), and who was tied on the most VP if it was a tie."""
    best = max(score.total for score in players)
    top = tuple(score.name for score in players if score.total == best)
    if len(top) == 1:
        return Decider.POINTS, ()
    winners = [score for score in players if score.rank == 1]
    return (Decider.TOKENS if len(winners) == 1 else Decider.SHARED), top


def _score_player(state: GameState, player: str, nugget_value: int) -> PlayerScore:
    holding = state.holdings[player]
    rewards = holding.held()
    sets = explorer_sets(rewards)
    objectives = tuple(score_objective(card, rewards) for card in holding.objectives)
    objective_points = sum(objective.points for objective in objectives)
    explorer_points = sets * EXPLORER_POINTS_PER_SET
    return PlayerScore(
        name=player,
        rewards=rewards,
        tokens=holding.tokens,
        nuggets=holding.nuggets,
        explorer_sets=sets,
        explorer_points=explorer_points,
        objectives=objectives,
        objective_points=objective_points,
        nugget_points=nugget_value,
        total=explorer_points + objective_points + nugget_value,
        rank=0,
    )


def objective_step(player: str, objective: ObjectiveScore) -> Step:
    """The step that scores one objective card for ``player``."""
    card = objective.card
    return Step(
        f"okanagan.score.{card.kind.value}",
        _("{player}: {kind} card ({rewards}): {sets} × {value} = {points} VP."),
        {
            "player": player,
            "kind": card.kind,
            "rewards": Series(card.rewards),
            "sets": objective.sets,
            "value": OBJECTIVE_POINTS[card.kind],
            "points": objective.points,
        },
    )


@dataclass(frozen=True)
class Standing:
    """What Okanagan's end compares of a player: total VP, then the tokens they hold."""

    name: str
    total: int
    tokens: int


def places(standings: Sequence[Standing]) -> list[int]:
    """Each player's place (competition ranking): most VP, then most tokens; else shared."""
    return competition_ranks([(standing.total, standing.tokens) for standing in standings])


def winner_steps(players: Sequence[Standing]) -> list[Step]:
    """How the winner was found: most VP, then most tokens, else shared."""
    best = max(score.total for score in players)
    top = [score for score in players if score.total == best]
    winners = [score for score, place in zip(players, places(players), strict=True) if place == 1]
    if len(top) == 1:
        return [Step("okanagan.winner", _("{player} wins with {total} VP."), {"player": top[0].name, "total": best})]
    tokens = Series(Figure(score.name, score.tokens) for score in top)
    if len(winners) == 1:
        return [
            Step(
                "okanagan.winner.tokens",
                _("{tied} tie on {total} VP; {player} holds the most tokens ({tokens}) and wins."),
                {
                    "tied": Players(score.name for score in top),
                    "total": best,
                    "player": winners[0].name,
                    "tokens": tokens,
                },
            )
        ]
    return [
        Step(
            "okanagan.winner.tokens",
            _("{players} tie on {total} VP and on tokens ({tokens}): they share the victory."),
            {"players": Players(score.name for score in winners), "total": best, "tokens": tokens},
        )
    ]
