"""Random legal Okanagan games, built only through the public step API of ``rules``.

A :class:`Chooser` makes every choice, so the same builder serves Hypothesis (which shrinks the
choices) and the benchmark (a seeded ``random.Random``). Every event is made of choices the API
says are legal, then applied: a builder that produces an illegal event is a bug in the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from rules import (
    GameState,
    ObjectiveKind,
    Options,
    Record,
    Reward,
    SpecialActionKind,
    Territory,
    apply_event,
    assess_influence,
    buildings_room,
    exchange_options,
    new_game,
    prepare_collection,
    special_action_options,
)
from rules.actions import (
    ChooseFirst,
    Exchange,
    Gifts,
    GoldNugget,
    NewObjectives,
    NewTiles,
    RewardOfShape,
    SpecialAction,
    Trade,
    TwoRewards,
)
from rules.components import OBJECTIVE_REWARD_COUNTS, whole_game_buildings
from rules.promos import BeaverDamEvent, VolcanoEvent
from rules.record import (
    AdjustEvent,
    Event,
    LoneChoice,
    NuggetLadder,
    ObjectiveCard,
    ObjectivesEvent,
    RoundEndEvent,
    TerritoryEvent,
)

NAMES = ("Ann", "Ben", "Cy", "Dee")


class Chooser(Protocol):
    def pick[T](self, options: Sequence[T]) -> T: ...

    def number(self, low: int, high: int) -> int: ...


class RandomChooser:
    """Choices from a seeded ``random.Random``."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def pick[T](self, options: Sequence[T]) -> T:
        return self.random.choice(options)

    def number(self, low: int, high: int) -> int:
        return self.random.randint(low, high)


def random_record(chooser: Chooser, players: int, territories: int, others: int) -> Record:
    """A legal record with ``territories`` territory events and ``others`` other events, mixed."""
    options = Options(
        reward_supply=chooser.pick([3, 6, 12]),
        nugget_supply=chooser.pick([2, 16]),
        nugget_ladder=chooser.pick(list(NuggetLadder)),
    )
    state = new_game(NAMES[:players], options)
    kinds = ["territory"] * territories + ["other"] * others
    events: list[Event] = []
    while kinds:
        kind = kinds.pop(chooser.number(0, len(kinds) - 1))
        event = random_territory(state, chooser) if kind == "territory" else random_other(state, chooser)
        apply_event(state, event, len(events))
        events.append(event)
    return Record(state.players, options, tuple(events))


def random_territory(state: GameState, chooser: Chooser) -> TerritoryEvent:
    """A completed territory with random buildings and rewards, resolved by legal choices."""
    territory = chooser.pick(list(Territory))
    own = [reward for reward in Reward if reward.colour is territory.colour]
    rewards: dict[Reward, int] = {}
    for _ in range(chooser.number(0, 4)):
        reward = chooser.pick(own + [chooser.pick(list(Reward))])
        rewards[reward] = rewards.get(reward, 0) + 1
    limits = whole_game_buildings(len(state.players))
    buildings = {}
    for player in state.players:
        # within what the player's buildings can still count in (in round 1, the round-1 buildings)
        room = buildings_room(state, player)
        counts = {building: chooser.number(0, min(limit, room[building], 2)) for building, limit in limits.items()}
        counts = {building: count for building, count in counts.items() if count}
        if counts and chooser.number(0, 2):
            buildings[player] = counts
    draft = _decide(state, TerritoryEvent(territory, chooser.pick(state.players), rewards, buildings), chooser)
    trial = state.copy()
    prepared = prepare_collection(trial, draft)
    collects = bool(prepared.plan.collectors)
    action = random_action(trial, prepared.recipient, chooser, collects=collects) if prepared.recipient else None
    if action is not None:
        draft = _with(draft, special_action=action)
        trial = state.copy()
        prepared = prepare_collection(trial, draft)
    picks: dict[str, dict[Reward, int]] = {}
    while (turn := prepared.plan.next_turn(picks)) is not None:
        pick: dict[Reward, int] = {}
        while allowed := turn.still_allowed(pick):
            reward = chooser.pick(sorted(allowed))
            pick[reward] = pick.get(reward, 0) + 1
        picks[turn.player] = pick
    return _with(draft, picks=picks)


def _decide(state: GameState, draft: TerritoryEvent, chooser: Chooser) -> TerritoryEvent:
    """The closer's tie-break and the lone player's choice, at random; no order half the time without ties."""
    report = assess_influence(state.players, draft.territory, draft.closed_by, draft.buildings)
    order = []
    for level in report.levels:
        rest = list(level)
        while rest:
            order.append(rest.pop(chooser.number(0, len(rest) - 1)))
    lone_choice = chooser.pick(list(LoneChoice)) if report.lone else None
    keep_order = bool(report.ties) or bool(chooser.number(0, 1))
    return _with(draft, order=tuple(order) if keep_order else None, lone_choice=lone_choice)


def _with(event: TerritoryEvent, **changes: object) -> TerritoryEvent:
    return replace(event, **changes)  # type: ignore[arg-type]


def random_action(state: GameState, player: str, chooser: Chooser, *, collects: bool) -> SpecialAction | None:
    """A legal special action for ``player`` now, or ``None`` (not recorded)."""
    options = special_action_options(state, player, collects=collects)
    kind = chooser.pick([*options.possible, None])
    match kind:
        case None:
            return None
        case SpecialActionKind.GOLD_NUGGET:
            return GoldNugget()
        case SpecialActionKind.CHOOSE_FIRST:
            return ChooseFirst()
        case SpecialActionKind.NEW_OBJECTIVES:
            return NewObjectives()
        case SpecialActionKind.NEW_TILES:
            return NewTiles()
        case SpecialActionKind.REWARD_OF_SHAPE:
            reward = chooser.pick(sorted(options.supply))
            return RewardOfShape(reward.shape, reward)
        case SpecialActionKind.TWO_REWARDS:
            return TwoRewards(chooser.pick(list(Reward)))
        case SpecialActionKind.GIFTS:
            return Gifts({giver: chooser.pick(kinds) for giver, kinds in options.holders.items()})
        case SpecialActionKind.TRADE:
            partner = chooser.pick(sorted(options.holders))
            return Trade(partner, chooser.pick(options.own), chooser.pick(options.holders[partner]))
        case SpecialActionKind.EXCHANGE_SHAPE | SpecialActionKind.EXCHANGE_COLOUR:
            return _exchange(state, player, kind, chooser)
    raise AssertionError(kind)


def _exchange(state: GameState, player: str, kind: SpecialActionKind, chooser: Chooser) -> Exchange:
    swaps: list[tuple[Reward, Reward]] = []
    for _ in range(chooser.number(1, 2)):
        choices = exchange_options(state, player, kind, swaps)
        if not choices:
            break
        given = chooser.pick(sorted(choices))
        swaps.append((given, chooser.pick(choices[given])))
    return Exchange(kind, tuple(swaps))


def random_other(state: GameState, chooser: Chooser) -> Event:
    """A promo tile, kept objectives, the end of round 1, or a correction."""
    player = chooser.pick(state.players)
    kinds = ["objectives", "volcano", "adjust"] + (["round_end"] if state.round == 1 else [])
    if state.available_bag():
        kinds.append("beaver_dam")
    match chooser.pick(kinds):
        case "objectives":
            return ObjectivesEvent(player, tuple(random_card(chooser) for _ in range(chooser.number(0, 3))))
        case "volcano":
            action = random_action(state, player, chooser, collects=False)
            return VolcanoEvent(player, action if action is not None else GoldNugget())
        case "round_end":
            return RoundEndEvent()
        case "beaver_dam":
            return BeaverDamEvent(player, chooser.pick(sorted(state.available_bag())))
    held = state.holdings[player].held()
    changes = {}
    if held and chooser.number(0, 1):
        changes[chooser.pick(sorted(held))] = -1
    # what the supply can give a correction: a kind exhausted included, for the tokens corrections gave back
    available = [reward for reward in Reward if state.correctable(reward) and reward not in changes]
    if available and chooser.number(0, 1):
        changes[chooser.pick(sorted(available))] = 1
    nuggets = -1 if state.holdings[player].nuggets and chooser.number(0, 1) else 0
    return AdjustEvent(player, changes, nuggets, chooser.pick(["", "forgot the fur"]))


def random_card(chooser: Chooser) -> ObjectiveCard:
    """An objective card that could exist: a kind and the rewards it shows."""
    kind = chooser.pick(list(ObjectiveKind))
    if kind is ObjectiveKind.SPECIFIC:
        return ObjectiveCard(kind, (chooser.pick(list(Reward)),))
    anchor = chooser.pick(list(Reward))
    same = [
        reward
        for reward in Reward
        if (reward.colour is anchor.colour if kind is ObjectiveKind.TERRITORY else reward.shape is anchor.shape)
    ]
    counts = OBJECTIVE_REWARD_COUNTS[kind]
    size = chooser.number(counts[0], min(counts[-1], len(same)))
    rest = [reward for reward in same if reward is not anchor]
    chosen = [anchor]
    while len(chosen) < size:
        chosen.append(rest.pop(chooser.number(0, len(rest) - 1)))
    return ObjectiveCard(kind, tuple(chosen))
