"""A game's state and the replay of its events.

The state holds what the table holds: each player's tokens, nuggets and objective cards, the supply,
the round, and what each event did (with its explanation). :func:`replay` rebuilds it from a record;
:func:`apply_event` adds one event to a state, checking that it is legal there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .components import Reward
from .errors import RecordError
from .explanation import Step
from .explanation import gettext_noop as _
from .record import (
    AdjustEvent,
    Bag,
    BeaverDamEvent,
    Event,
    ObjectiveCard,
    ObjectivesEvent,
    Options,
    Record,
    RoundEndEvent,
    TerritoryEvent,
    VolcanoEvent,
    bag_to_json,
)


@dataclass
class Holding:
    """What one player holds."""

    rewards: dict[Reward, int] = field(default_factory=lambda: dict.fromkeys(Reward, 0))
    nuggets: int = 0
    objectives: tuple[ObjectiveCard, ...] = ()

    @property
    def tokens(self) -> int:
        """How many reward tokens the player holds."""
        return sum(self.rewards.values())

    def held(self) -> dict[Reward, int]:
        """The kinds held, with their counts (no zeros)."""
        return {reward: count for reward, count in self.rewards.items() if count}


@dataclass(frozen=True)
class TerritoryOutcome:
    """What happened in one completed territory: the figures of the result's ``territories``."""

    event: int
    influence: dict[str, int]
    order: tuple[str, ...]
    special_action_to: str | None
    collected: dict[str, Bag]

    def to_json(self) -> dict[str, object]:
        """The territory's entry in the result JSON."""
        return {
            "event": self.event,
            "influence": dict(self.influence),
            "order": list(self.order),
            "special_action_to": self.special_action_to,
            "collected": {player: sum(bag.values()) for player, bag in self.collected.items()},
        }


@dataclass(frozen=True)
class EventOutcome:
    """One replayed event and the explanation of what it did."""

    index: int
    event: Event
    steps: tuple[Step, ...]


@dataclass
class GameState:
    """The state of an Okanagan game after some events. Use :func:`new_game` or :func:`replay`."""

    players: tuple[str, ...]
    options: Options
    supply: dict[Reward, int]
    """Tokens of each kind in the supply (an exhausted kind may hold tokens given back: unavailable)."""
    nuggets_left: int
    holdings: dict[str, Holding]
    exhausted: set[Reward] = field(default_factory=set)
    """Kinds whose supply ran out: gone for the rest of the game, whatever is given back."""
    round: int = 1
    log: list[EventOutcome] = field(default_factory=list)
    territories: list[TerritoryOutcome] = field(default_factory=list)

    def copy(self) -> GameState:
        """An independent copy, to try an event without changing this state.

        The logs are shared item by item: their entries are frozen.
        """
        return GameState(
            players=self.players,
            options=self.options,
            supply=dict(self.supply),
            nuggets_left=self.nuggets_left,
            holdings={
                player: Holding(dict(holding.rewards), holding.nuggets, holding.objectives)
                for player, holding in self.holdings.items()
            },
            exhausted=set(self.exhausted),
            round=self.round,
            log=list(self.log),
            territories=list(self.territories),
        )

    def available(self, reward: Reward) -> int:
        """How many tokens of ``reward`` can still be taken from the supply."""
        return 0 if reward in self.exhausted else self.supply[reward]

    def available_bag(self) -> dict[Reward, int]:
        """Every kind that can still be taken from the supply, with its count."""
        return {reward: self.available(reward) for reward in Reward if self.available(reward)}

    def take(self, player: str, reward: Reward, count: int = 1) -> None:
        """Move ``count`` tokens from the supply to ``player``; the caller checked availability."""
        self.supply[reward] -= count
        self.holdings[player].rewards[reward] += count
        if self.supply[reward] == 0:
            self.exhausted.add(reward)

    def give_back(self, player: str, reward: Reward, count: int = 1) -> None:
        """Move ``count`` of ``player``'s tokens to the supply; the caller checked they hold them."""
        self.holdings[player].rewards[reward] -= count
        self.supply[reward] += count

    def hand_over(self, giver: str, receiver: str, reward: Reward) -> None:
        """Move one token from ``giver`` to ``receiver``; the caller checked the giver holds it."""
        self.holdings[giver].rewards[reward] -= 1
        self.holdings[receiver].rewards[reward] += 1

    def supply_to_json(self) -> dict[str, object]:
        """The result's ``supply``: what is left of each kind, and the nugget cards left."""
        return {"rewards": {reward.value: self.supply[reward] for reward in Reward}, "nuggets": self.nuggets_left}


def new_game(players: tuple[str, ...], options: Options | None = None) -> GameState:
    """The state before the first event."""
    options = options or Options()
    return GameState(
        players=players,
        options=options,
        supply=dict.fromkeys(Reward, options.reward_supply),
        nuggets_left=options.nugget_supply,
        holdings={player: Holding() for player in players},
    )


def replay(record: Record) -> GameState:
    """Replay every event of ``record``; raises :class:`RecordError` at the first illegal one."""
    state = new_game(record.players, record.options)
    for index, event in enumerate(record.events):
        apply_event(state, event, index)
    return state


def apply_event(state: GameState, event: Event, index: int | None = None) -> EventOutcome:
    """Check ``event`` against ``state`` and apply it; ``index`` is its place in the record.

    The state is changed only when the event is legal: on :class:`RecordError` it is left as it was.
    """
    index = len(state.log) if index is None else index
    trial = state.copy()
    try:
        steps = _apply(trial, event, index)
    except RecordError as error:
        raise error.in_event(index, event.type) from None
    outcome = EventOutcome(index, event, tuple(steps))
    trial.log.append(outcome)
    state.__dict__.update(trial.__dict__)
    return outcome


def _apply(state: GameState, event: Event, index: int) -> list[Step]:
    # Imported here: territory and special_actions build on this module's GameState.
    from .special_actions import apply_special_action
    from .territory import resolve_territory

    match event:
        case TerritoryEvent():
            outcome, steps = resolve_territory(state, event, index)
            state.territories.append(outcome)
            return steps
        case VolcanoEvent(player=player, special_action=action):
            return [
                Step(
                    "okanagan.promo.volcano",
                    _("{player} played the Volcano and takes a special action at once."),
                    {"player": player},
                ),
                *apply_special_action(state, player, action, in_territory=False),
            ]
        case BeaverDamEvent(player=player, reward=reward):
            if not state.available(reward):
                raise RecordError(f"no {reward.value} is left in the supply", ("reward",))
            state.take(player, reward)
            return [
                Step(
                    "okanagan.promo.beaver_dam",
                    _("{player} played the Beaver Dam and takes a {reward}."),
                    {"player": player, "reward": reward},
                )
            ]
        case ObjectivesEvent(player=player, cards=cards):
            state.holdings[player].objectives = cards
            return [
                Step(
                    "okanagan.objectives.keep",
                    _("{player} keeps {count} objective cards."),
                    {"player": player, "count": len(cards)},
                )
            ]
        case RoundEndEvent():
            if state.round != 1:
                raise RecordError("round 1 has already ended: a game has two rounds")
            state.round = 2
            return [Step("okanagan.round.end", _("Round 1 is over; round 2 begins."))]
        case AdjustEvent():
            return _adjust(state, event)


def _adjust(state: GameState, event: AdjustEvent) -> list[Step]:
    holding = state.holdings[event.player]
    for reward, change in event.rewards.items():
        if holding.rewards[reward] + change < 0:
            raise RecordError(
                f"{event.player} holds {holding.rewards[reward]} {reward.value}, cannot give back {-change}",
                ("rewards",),
            )
        if change > state.available(reward):
            raise RecordError(
                f"only {state.available(reward)} {reward.value} left in the supply, cannot take {change}", ("rewards",)
            )
    if holding.nuggets + event.nuggets < 0:
        raise RecordError(
            f"{event.player} holds {holding.nuggets} nuggets, cannot give back {-event.nuggets}", ("nuggets",)
        )
    if event.nuggets > state.nuggets_left:
        raise RecordError(f"only {state.nuggets_left} nugget cards are left, cannot take {event.nuggets}", ("nuggets",))
    for reward, change in event.rewards.items():
        if change > 0:
            state.take(event.player, reward, change)
        else:
            state.give_back(event.player, reward, -change)
    holding.nuggets += event.nuggets
    state.nuggets_left -= event.nuggets
    changes = ", ".join(f"{change:+d} {reward}" for reward, change in bag_to_json(event.rewards).items())
    if event.nuggets:
        changes = ", ".join(filter(None, (changes, f"{event.nuggets:+d} nuggets")))
    params: dict[str, str | int] = {"player": event.player, "changes": changes or "nothing"}
    if event.note:
        return [
            Step("okanagan.adjust", _("Correction for {player}: {changes} ({note})."), params | {"note": event.note})
        ]
    return [Step("okanagan.adjust", _("Correction for {player}: {changes}."), params)]
