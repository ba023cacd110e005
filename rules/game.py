"""A game's state: what the table holds.

Each player's tokens, nuggets and objective cards, the supply, the round, and what each event did
(with its explanation). :mod:`rules.replay` changes it event by event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from .components import Building, ObjectiveKind, Reward
from .data import (
    Data,
    DataError,
    array,
    counts_from_data,
    counts_to_data,
    member,
    obj,
    step_from_data,
    step_to_data,
    text,
    whole,
)
from .explanation import Step
from .record import (
    Bag,
    Event,
    NuggetLadder,
    ObjectiveCard,
    Options,
    parse_event,
)


def _reading[T](read: Callable[[], T]) -> T:
    """``read()``, any error of data that ``to_data`` did not write raised as :class:`DataError`."""
    try:
        return read()
    except DataError:
        raise
    except (LookupError, TypeError, ValueError) as error:  # a missing key, an unhashable key, an illegal event
        raise DataError(f"{type(error).__name__}: {error}") from None


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

    def to_data(self) -> dict[str, Data]:
        """The outcome as JSON data, every figure kept (:meth:`from_data` reads it)."""
        return {
            "event": self.event,
            "influence": dict(self.influence),
            "order": list(self.order),
            "special_action_to": self.special_action_to,
            "collected": {player: counts_to_data(bag) for player, bag in self.collected.items()},
        }

    @classmethod
    def from_data(cls, data: object) -> TerritoryOutcome:
        """What :meth:`to_data` wrote; :class:`~rules.data.DataError` if it is not that."""

        def read() -> TerritoryOutcome:
            fields = obj(data)
            to = fields["special_action_to"]
            return cls(
                whole(fields["event"]),
                {text(player): whole(count) for player, count in obj(fields["influence"]).items()},
                tuple(text(player) for player in array(fields["order"])),
                None if to is None else text(to),
                {text(player): counts_from_data(Reward, bag) for player, bag in obj(fields["collected"]).items()},
            )

        return _reading(read)


@dataclass(frozen=True)
class EventOutcome:
    """One replayed event and the explanation of what it did."""

    index: int
    event: Event
    steps: tuple[Step, ...]

    def to_data(self) -> dict[str, Data]:
        """The outcome as JSON data (:meth:`from_data` reads it): the event as the record writes it, and each
        step's template and params with their types."""
        event = cast("Data", self.event.to_json())  # the record's JSON object: JSON's types only
        return {"index": self.index, "event": event, "steps": [step_to_data(step) for step in self.steps]}

    @classmethod
    def from_data(cls, data: object, players: tuple[str, ...]) -> EventOutcome:
        """What :meth:`to_data` wrote, for a game of ``players`` (the event is read as the record reads it);
        :class:`~rules.data.DataError` if it is not that."""

        def read() -> EventOutcome:
            fields = obj(data)
            index = whole(fields["index"])
            steps = tuple(step_from_data(step) for step in array(fields["steps"]))
            return cls(index, parse_event(players, fields["event"], index), steps)

        return _reading(read)


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
    corrected_back: dict[Reward, int] = field(default_factory=dict)
    """Tokens of an exhausted kind that corrections gave back: only a later correction may take them again
    (moving a token from one player to another is two corrections, the give-back first)."""
    buildings_counted: dict[str, dict[Building, int]] = field(default_factory=dict)
    """Each player's buildings of each type summed over the territories resolved so far: a building counts
    once in every territory it stands in, so these sums are bounded (:mod:`rules.buildings`)."""
    over_round_one: dict[str, dict[Building, int]] = field(default_factory=dict)
    """For each player and building type whose sum is over what the round-1 buildings can be counted in: the
    territory event from which it is (the end of round 1 is then refused, naming it)."""
    crowded_in_round_one: dict[str, dict[Building, tuple[int, int]]] = field(default_factory=dict)
    """For each player and building type shown around one territory more times than round 1 gives, before the
    end of round 1 was recorded: the first such territory event and the count there (the end of round 1 is
    then refused, naming it; without it, the territory may be a round-2 one)."""
    round: int = 1
    final_counts: set[str] = field(default_factory=set)
    """The players whose final count (a ``holdings`` event: the quick count) was entered."""
    kept_after_round_one: set[str] = field(default_factory=set)
    """The players whose objective cards were entered after round 1 ended (they draw 2 and keep 3 of 5)."""
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
            corrected_back=dict(self.corrected_back),
            buildings_counted={player: dict(counts) for player, counts in self.buildings_counted.items()},
            over_round_one={player: dict(events) for player, events in self.over_round_one.items()},
            crowded_in_round_one={player: dict(events) for player, events in self.crowded_in_round_one.items()},
            round=self.round,
            final_counts=set(self.final_counts),
            kept_after_round_one=set(self.kept_after_round_one),
            log=list(self.log),
            territories=list(self.territories),
        )

    def to_data(self) -> dict[str, Data]:
        """The state as JSON data (:meth:`from_data` reads it): only JSON's types, so that whoever stores it, reading
        it back never runs code. Sets are written in a fixed order, everything else in its own."""
        return {
            "players": list(self.players),
            "options": {
                "reward_supply": self.options.reward_supply,
                "nugget_supply": self.options.nugget_supply,
                "nugget_ladder": self.options.nugget_ladder.value,
            },
            "supply": counts_to_data(self.supply),
            "nuggets_left": self.nuggets_left,
            "holdings": {
                player: {
                    "rewards": counts_to_data(holding.rewards),
                    "nuggets": holding.nuggets,
                    "objectives": [cast("Data", card.to_json()) for card in holding.objectives],  # as the record
                }
                for player, holding in self.holdings.items()
            },
            "exhausted": [reward.value for reward in Reward if reward in self.exhausted],
            "corrected_back": counts_to_data(self.corrected_back),
            "buildings_counted": {player: counts_to_data(counts) for player, counts in self.buildings_counted.items()},
            "over_round_one": {player: counts_to_data(events) for player, events in self.over_round_one.items()},
            "crowded_in_round_one": {
                player: {building.value: list(first) for building, first in crowded.items()}
                for player, crowded in self.crowded_in_round_one.items()
            },
            "round": self.round,
            "final_counts": [*sorted(self.final_counts)],
            "kept_after_round_one": [*sorted(self.kept_after_round_one)],
            "log": [outcome.to_data() for outcome in self.log],
            "territories": [outcome.to_data() for outcome in self.territories],
        }

    @classmethod
    def from_data(cls, data: object) -> GameState:
        """What :meth:`to_data` wrote, with every value's type checked; :class:`~rules.data.DataError` if it is
        not that (a missing field, a value of the wrong type, an illegal event in the log)."""

        def read() -> GameState:
            fields = obj(data)
            players = tuple(text(player) for player in array(fields["players"]))
            options = obj(fields["options"])
            return cls(
                players=players,
                options=Options(
                    whole(options["reward_supply"]),
                    whole(options["nugget_supply"]),
                    member(NuggetLadder, options["nugget_ladder"]),
                ),
                supply=counts_from_data(Reward, fields["supply"]),
                nuggets_left=whole(fields["nuggets_left"]),
                holdings={text(player): _holding(holding) for player, holding in obj(fields["holdings"]).items()},
                exhausted={member(Reward, reward) for reward in array(fields["exhausted"])},
                corrected_back=counts_from_data(Reward, fields["corrected_back"]),
                buildings_counted=_by_player(fields["buildings_counted"]),
                over_round_one=_by_player(fields["over_round_one"]),
                crowded_in_round_one={
                    text(player): {
                        member(Building, building): _first(first) for building, first in obj(crowded).items()
                    }
                    for player, crowded in obj(fields["crowded_in_round_one"]).items()
                },
                round=whole(fields["round"]),
                final_counts={text(player) for player in array(fields["final_counts"])},
                kept_after_round_one={text(player) for player in array(fields["kept_after_round_one"])},
                log=[EventOutcome.from_data(outcome, players) for outcome in array(fields["log"])],
                territories=[TerritoryOutcome.from_data(outcome) for outcome in array(fields["territories"])],
            )

        return _reading(read)

    def without_log(self) -> GameState:
        """A copy without what grows with the game (the log of every event, the territories' outcomes): the
        state to store after an event, to which the next event applies as it does to the full state."""
        trial = self.copy()
        trial.log, trial.territories = [], []
        return trial

    def redraw_due(self, player: str) -> bool:
        """Whether ``player`` still has to enter the objective cards they keep after round 1 (they draw 2 and
        keep 3 of their 5): round 1 is over and no card of theirs was entered since."""
        return self.round == 2 and player not in self.kept_after_round_one

    def available(self, reward: Reward) -> int:
        """How many tokens of ``reward`` can still be taken from the supply."""
        return 0 if reward in self.exhausted else self.supply[reward]

    def correctable(self, reward: Reward) -> int:
        """How many tokens of ``reward`` a correction can take from the supply: those available, or, for an
        exhausted kind, those that earlier corrections gave back (and are still there)."""
        if reward in self.exhausted:
            return min(self.corrected_back.get(reward, 0), self.supply[reward])
        return self.supply[reward]

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


def _holding(data: object) -> Holding:
    fields = obj(data)
    cards = (obj(card) for card in array(fields["objectives"]))
    return Holding(
        counts_from_data(Reward, fields["rewards"]),
        whole(fields["nuggets"]),
        tuple(
            ObjectiveCard(member(ObjectiveKind, card["kind"]), tuple(member(Reward, r) for r in array(card["rewards"])))
            for card in cards
        ),
    )


def _by_player(data: object) -> dict[str, dict[Building, int]]:
    return {text(player): counts_from_data(Building, counts) for player, counts in obj(data).items()}


def _first(data: object) -> tuple[int, int]:
    event, count = (whole(value) for value in array(data))
    return event, count


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
