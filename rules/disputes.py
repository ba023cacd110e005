"""Rulings for the disputes players have at the table, each a list of steps citing the rules.

The site's calculators call these with what the players describe; every answer comes from
the same functions that score a whole game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from . import cooper_island, final_scoring, small_islands
from .components import Building, Territory
from .explanation import Message, Order, Players, Step, ngettext_lazy
from .explanation import gettext_noop as _
from .final_scoring import explorer_sets, nugget_points, objective_step, score_objective
from .record import Bag, NuggetLadder, ObjectiveCard
from .territory import assess_influence


@dataclass(frozen=True)
class Ranking:
    """A tie-break's answer: each player's place (competition ranking) from first to last, and the steps."""

    places: tuple[tuple[str, int], ...]
    steps: tuple[Step, ...] = field(default=())


def by_place(places: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """(name, place) pairs from first place to last; players who share a place keep their seat order."""
    return tuple(sorted(places, key=lambda pair: pair[1]))


def influence_ruling(
    players: Sequence[str], closer: str, buildings: Mapping[str, Mapping[Building, int]]
) -> list[Step]:
    """Who is ahead in a completed territory, who orders ties, who takes the special action."""
    report = assess_influence(tuple(players), Territory.FOREST, closer, buildings)
    steps = [step for step in report.steps if step.rule != "okanagan.territory.empty"]
    if not report.influence:
        return [
            Step(
                "okanagan.territory.empty",
                _("Nobody has a building here: nobody collects and nobody takes a special action."),
            )
        ]
    if report.lone is not None:
        return [
            *steps,
            Step(
                "okanagan.special.lone",
                _(
                    "{player} is alone: either the special action (and no tokens) or the rewards (up to "
                    "{influence} tokens), not both."
                ),
                {"player": report.lone, "influence": report.influence[report.lone]},
            ),
        ]
    order = Order(level[0] if len(level) == 1 else Players(level) for level in report.levels)
    steps.append(Step("okanagan.influence.order", _("Order of influence: {order}."), {"order": order}))
    for level in report.ties:
        steps.append(
            Step(
                "okanagan.influence.tie",
                _("{tied} tie with {influence}: {closer}, who completed the territory, decides their order."),
                {"tied": Players(level), "influence": report.influence[level[0]], "closer": closer},
            )
        )
    lowest = report.levels[-1]
    if len(lowest) > 1:
        steps.append(
            Step(
                "okanagan.special.lowest",
                _("The special action goes to whichever of {tied} {closer} puts last."),
                {"tied": Players(lowest), "closer": closer},
            )
        )
    else:
        steps.append(
            Step(
                "okanagan.special.lowest",
                _("{player}, last in the order, takes the special action."),
                {"player": lowest[0]},
            )
        )
    return steps


def collection_ruling(tokens: int, collectors: Sequence[tuple[str, int]]) -> list[Step]:
    """How many tokens each collector may take from a pool of ``tokens``, in order."""
    steps = [
        Step(
            "okanagan.collect.pool",
            ngettext_lazy(
                "The pool holds {count} token.",
                "The pool holds {count} tokens.",
            ),
            {"count": tokens},
        )
    ]
    left = tokens
    for player, influence in collectors:
        take = min(influence, left)
        left -= take
        if take:
            steps.append(
                Step(
                    "okanagan.collect.order",
                    _("{player} (influence {influence}) takes {take}; {left} left."),
                    {"player": player, "influence": influence, "take": take, "left": left},
                )
            )
        else:
            steps.append(
                Step("okanagan.collect.order", _("{player} takes nothing: the territory is empty."), {"player": player})
            )
    steps.append(Step("okanagan.collect.all", _("Each collector takes their influence in tokens while any are left.")))
    return steps


def nugget_ruling(nuggets: Mapping[str, int]) -> dict[NuggetLadder, tuple[dict[str, int], list[Step]]]:
    """Gold-nugget points under both readings (they differ only with 2 or 3 players)."""
    return {ladder: nugget_points(nuggets, ladder) for ladder in NuggetLadder}


def sets_ruling(rewards: Bag, card: ObjectiveCard | None) -> list[Step]:
    """Explorer sets of a player's tokens, and what one objective card scores with them."""
    sets = explorer_sets(rewards)
    steps = [
        Step(
            "okanagan.score.explorer",
            ngettext_lazy(
                "{player}: {sets} Explorer set × 4 = {points} VP.",
                "{player}: {sets} Explorer sets × 4 = {points} VP.",
                "sets",
            ),
            {"player": Message(_("These tokens")), "sets": sets, "points": 4 * sets},
        )
    ]
    if card is not None:
        steps.append(objective_step(Message(_("These tokens")), score_objective(card, rewards)))
        steps.append(Step("okanagan.score.shared_tokens", _("A token counts for every card it fits.")))
    return steps


def okanagan_tie_break(standings: Sequence[final_scoring.Standing]) -> Ranking:
    """The places at the end of Okanagan: most VP, then most tokens held, else shared."""
    ranks = final_scoring.places(standings)
    return Ranking(_by_place(standings, ranks), tuple(final_scoring.winner_steps(standings)))


def small_islands_tie_break(standings: Sequence[small_islands.Standing], last_tile_by: str | None) -> Ranking:
    """The places at the end of Small Islands: points, houses, ports around the own ship, the last tile."""
    places = small_islands.places(standings, last_tile_by)
    return Ranking(_by_place(standings, places.ranks), places.steps)


def cooper_island_tie_break(standings: Sequence[cooper_island.Standing]) -> Ranking:
    """The places at the end of Cooper Island: points, then fewer empty spaces."""
    places = cooper_island.places(standings)
    return Ranking(_by_place(standings, places.ranks), places.steps)


def _by_place(standings: Sequence[_Named], ranks: Sequence[int]) -> tuple[tuple[str, int], ...]:
    return by_place((standing.name, rank) for standing, rank in zip(standings, ranks, strict=True))


class _Named(Protocol):
    @property
    def name(self) -> str: ...
