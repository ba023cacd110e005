"""Rulings for the disputes players have at the table, each a list of steps citing the rules.

The dispute helper's calculators call these with what the players describe; every answer comes from
the same functions that score a whole game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .components import Building, Territory
from .cooper_island import Settler, score_cooper_island_sheet
from .explanation import Message, Order, Players, Step, ngettext_lazy
from .explanation import gettext_noop as _
from .final_scoring import PlayerScore, explorer_sets, nugget_points, objective_step, score_objective, winner_steps
from .ranking import competition_ranks
from .record import Bag, NuggetLadder, ObjectiveCard
from .sheets import SheetResult
from .small_islands import Islander, SmallIslandsSheet, score_small_islands_sheet
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


def okanagan_tie_break(scores: Mapping[str, tuple[int, int]]) -> Ranking:
    """The places from each player's (total VP, tokens held): most VP, then most tokens, else shared."""
    ranks = competition_ranks(list(scores.values()))
    players = [
        PlayerScore(name, {}, tokens, 0, 0, 0, (), 0, 0, total, rank)
        for (name, (total, tokens)), rank in zip(scores.items(), ranks, strict=True)
    ]
    return Ranking(by_place(zip(scores, ranks, strict=True)), tuple(winner_steps(players)))


def small_islands_tie_break(players: Sequence[tuple[str, int, int, int]], last_tile_by: str | None) -> Ranking:
    """The places from each player's (name, total, houses, ports around their ship); the total includes the ports."""
    sheet = SmallIslandsSheet(
        tuple(Islander(name, total - ports, (), True, ports, houses) for name, total, houses, ports in players),
        last_tile_by,
    )
    return _sheet_ranking(score_small_islands_sheet(sheet), "small_islands.total")


def cooper_island_tie_break(players: Sequence[tuple[str, int, int]]) -> Ranking:
    """The places from each player's (name, total, empty spaces left on their island)."""
    settlers = tuple(Settler(name, 0, (0, 0), {}, total, {}, 0, empty) for name, total, empty in players)
    result = score_cooper_island_sheet(settlers)
    return Ranking(
        by_place((score.name, score.rank) for score in result.players),
        tuple(step for step in result.steps if step.rule == "cooper_island.tie"),
    )


def _sheet_ranking(result: SheetResult, components: str) -> Ranking:
    return Ranking(
        by_place((score.name, score.rank) for score in result.players),
        tuple(step for step in result.steps if step.rule != components),
    )
