"""The game record ``okanagan-record/1``: typed objects, parsing with precise errors, and JSON.

Parsing checks the shape of the record (identifiers, player names, counts, card kinds); whether the
events are legal in the game's state is checked when they are replayed (:mod:`rules.game`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import ClassVar, Final

from .actions import (
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
    special_action_to_json,
)
from .components import (
    DEFAULT_NUGGET_SUPPLY,
    DEFAULT_REWARD_SUPPLY,
    MAX_OBJECTIVE_CARDS,
    MAX_SWAPS,
    NUGGET_SUPPLY_RANGE,
    OBJECTIVE_REWARD_COUNTS,
    PLAYER_COUNTS,
    REWARD_SUPPLY_RANGE,
    Building,
    Colour,
    ObjectiveKind,
    Reward,
    Shape,
    SpecialActionKind,
    Territory,
    whole_game_buildings,
)
from .errors import RecordError, RulesError
from .event_types import EventType
from .explanation import Message, Param, Players
from .explanation import gettext_noop as _
from .fields import MAX_WHOLE, Fields, describe, identifier
from .promos import PROMO_TILES, PromoEvent
from .text import names_problem, note_problem

FORMAT: Final = "okanagan-record/1"
MAX_EVENTS: Final = 500
"""The most events a record may hold: a real game has under 100, with its corrections."""

type Bag = Mapping[Reward, int]
"""Reward kind → whole count; a kind absent counts 0."""


def bag_to_json(bag: Bag) -> dict[str, int]:
    """A bag as JSON, in the canonical order of the reward kinds, zero counts left out."""
    return {reward.value: bag[reward] for reward in Reward if bag.get(reward, 0)}


class NuggetLadder(StrEnum):
    """How gold nuggets score: the printed place ladder, or the 'fewest score 0' option."""

    BY_PLACE = "by_place"
    FEWEST_ZERO = "fewest_zero"


class LoneChoice(StrEnum):
    """What a player alone in a territory chose."""

    SPECIAL_ACTION = "special_action"
    REWARDS = "rewards"


@dataclass(frozen=True)
class Options:
    """A game's options; every field has the printed game's default."""

    reward_supply: int = DEFAULT_REWARD_SUPPLY
    nugget_supply: int = DEFAULT_NUGGET_SUPPLY
    nugget_ladder: NuggetLadder = NuggetLadder.BY_PLACE

    def to_json(self) -> dict[str, object]:
        """The options that differ from the defaults."""
        defaults = Options()
        out: dict[str, object] = {}
        if self.reward_supply != defaults.reward_supply:
            out["reward_supply"] = self.reward_supply
        if self.nugget_supply != defaults.nugget_supply:
            out["nugget_supply"] = self.nugget_supply
        if self.nugget_ladder != defaults.nugget_ladder:
            out["nugget_ladder"] = self.nugget_ladder.value
        return out


# Objective cards ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ObjectiveCard:
    """An objective card: its kind and the rewards printed on it (the 36 cards are not listed)."""

    kind: ObjectiveKind
    rewards: tuple[Reward, ...]

    def to_json(self) -> dict[str, object]:
        """The card as the record's JSON object."""
        return {"kind": self.kind.value, "rewards": [reward.value for reward in self.rewards]}

    @property
    def complete(self) -> bool:
        """Whether no other reward can be printed on this card: it shows as many as a card of its kind can."""
        return len(self.rewards) == OBJECTIVE_REWARD_COUNTS[self.kind][-1]


def card_of_rewards(rewards: Sequence[Reward]) -> ObjectiveCard:
    """The objective card that shows ``rewards``: its kind follows from them, since the kinds never overlap
    (one reward: a specific card; two or more of one colour: a territory card; of one shape: a shape card).

    Raises :class:`RecordError` when no card shows them.
    """
    rewards = tuple(sorted(rewards, key=list(Reward).index))  # in the record's order of kinds
    if len(rewards) == 1:
        kind = ObjectiveKind.SPECIFIC
    elif len({reward.colour for reward in rewards}) == 1:
        kind = ObjectiveKind.TERRITORY
    elif len({reward.shape for reward in rewards}) == 1:
        kind = ObjectiveKind.SHAPE
    else:
        raise RecordError(
            Message(_("a card shows 1 reward, or rewards all of one colour, or all of one shape")), ("cards",)
        )
    card = ObjectiveCard(kind, rewards)
    problem = check_card(card)
    if problem:
        raise RecordError(problem, ("cards",))
    return card


def on_one_card(rewards: Sequence[Reward]) -> bool:
    """Whether one objective card can show all of ``rewards`` (and maybe more): a card's icons are never
    mixed, so rewards that no card shows cannot be completed into one by adding others.

    >>> on_one_card([Reward.BLUE_CIRCLE, Reward.BLUE_SQUARE])
    True
    >>> on_one_card([Reward.BLUE_CIRCLE, Reward.GREEN_SQUARE])
    False
    """
    try:
        card_of_rewards(rewards)
    except RecordError:
        return False
    return True  # every part of a card, of one icon or more, is itself a card the record accepts


def full_set_card(of: Colour | Shape) -> ObjectiveCard:
    """The complete set card of a colour (a territory card: its 3 rewards) or of a shape (a shape card:
    its 4 rewards).

    >>> full_set_card(Colour.GREEN).to_json()
    {'kind': 'territory', 'rewards': ['green-square', 'green-hexagon', 'green-circle']}
    >>> full_set_card(Shape.CIRCLE).kind.value, len(full_set_card(Shape.CIRCLE).rewards)
    ('shape', 4)
    """
    card = card_of_rewards([reward for reward in Reward if of in (reward.colour, reward.shape)])
    assert card.complete
    return card


def check_card(card: ObjectiveCard) -> Message | None:
    """Why ``card`` cannot exist, or ``None`` when it can."""
    allowed = OBJECTIVE_REWARD_COUNTS[card.kind]
    if len(set(card.rewards)) != len(card.rewards):
        return Message(_("a card shows each reward once"))
    if len(card.rewards) not in allowed:
        low, high = allowed[0], allowed[-1]
        counts = {
            ObjectiveKind.SPECIFIC: _("a specific card shows 1 reward, not {count}"),
            ObjectiveKind.TERRITORY: _("a territory card shows {low} to {high} rewards, not {count}"),
            ObjectiveKind.SHAPE: _("a shape card shows {low} to {high} rewards, not {count}"),
        }
        return Message(counts[card.kind], low=low, high=high, count=len(card.rewards))
    if card.kind is ObjectiveKind.TERRITORY and len({reward.colour for reward in card.rewards}) > 1:
        return Message(_("a territory card's rewards are all of one colour"))
    if card.kind is ObjectiveKind.SHAPE and len({reward.shape for reward in card.rewards}) > 1:
        return Message(_("a shape card's rewards are all of one shape"))
    return None


# Events ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TerritoryEvent:
    """A completed territory, resolved: influence, special action, collection."""

    territory: Territory
    closed_by: str
    rewards: Bag
    buildings: Mapping[str, Mapping[Building, int]]
    order: tuple[str, ...] | None = None
    lone_choice: LoneChoice | None = None
    special_action: SpecialAction | None = None
    picks: Mapping[str, Bag] = field(default_factory=dict)
    type: ClassVar = EventType.TERRITORY

    @property
    def title(self) -> tuple[str, dict[str, Param]]:
        """The title of its explanation, a template (``{index}``: its place in the log) and its params."""
        return _("Event {index}: {territory} closed by {player}"), {
            "territory": self.territory,
            "player": self.closed_by,
        }

    def to_json(self) -> dict[str, object]:
        """The event as the record's JSON object."""
        out: dict[str, object] = {
            "type": self.type,
            "territory": self.territory.value,
            "closed_by": self.closed_by,
            "rewards": bag_to_json(self.rewards),
            "buildings": {
                player: {building.value: count[building] for building in Building if building in count}
                for player, count in self.buildings.items()
            },
        }
        if self.order is not None:
            out["order"] = list(self.order)
        if self.lone_choice is not None:
            out["lone_choice"] = self.lone_choice.value
        if self.special_action is not None:
            out["special_action"] = special_action_to_json(self.special_action)
        out["picks"] = {player: bag_to_json(bag) for player, bag in self.picks.items()}
        return out


@dataclass(frozen=True)
class TerritorySoFar:
    """A territory as far as it is entered (see :func:`parse_territory_so_far`): its icons and buildings, and
    whatever of the closer, the tie-break, the lone choice, the special action and the picks is known yet."""

    territory: Territory
    closed_by: str | None
    """Who closed it; ``None`` while not known yet."""
    rewards: Bag
    buildings: Mapping[str, Mapping[Building, int]]
    order: tuple[str, ...] | None = None
    lone_choice: LoneChoice | None = None
    special_action: SpecialAction | None = None
    """The special action once it is chosen in full; ``None`` while none is, or while it is being chosen."""
    picks: Mapping[str, Bag] = field(default_factory=dict)
    """The picks of the collectors who have picked, in seat order."""


@dataclass(frozen=True)
class ObjectivesEvent:
    """The cards a player keeps from now on (replacing the earlier ones)."""

    player: str
    cards: tuple[ObjectiveCard, ...]
    type: ClassVar = EventType.OBJECTIVES

    @property
    def title(self) -> tuple[str, dict[str, Param]]:
        """The title of its explanation, a template (``{index}``: its place in the log) and its params."""
        return _("Event {index}: objectives kept by {player}"), {"player": self.player}

    def to_json(self) -> dict[str, object]:
        """The event as the record's JSON object."""
        return {"type": self.type, "player": self.player, "cards": [card.to_json() for card in self.cards]}


@dataclass(frozen=True)
class RoundEndEvent:
    """Round 1 is over."""

    type: ClassVar = EventType.ROUND_END

    @property
    def title(self) -> tuple[str, dict[str, Param]]:
        """The title of its explanation, a template (``{index}``: its place in the log) and its params."""
        return _("Event {index}: end of round 1"), {}

    def to_json(self) -> dict[str, object]:
        """The event as the record's JSON object."""
        return {"type": self.type}


@dataclass(frozen=True)
class AdjustEvent:
    """A correction agreed at the table: tokens and nuggets moved between a player and the supply."""

    player: str
    rewards: Mapping[Reward, int] = field(default_factory=dict)
    nuggets: int = 0
    note: str = ""
    type: ClassVar = EventType.ADJUST

    @property
    def title(self) -> tuple[str, dict[str, Param]]:
        """The title of its explanation, a template (``{index}``: its place in the log) and its params."""
        return _("Event {index}: correction for {player}"), {"player": self.player}

    def to_json(self) -> dict[str, object]:
        """The event as the record's JSON object."""
        out: dict[str, object] = {"type": self.type, "player": self.player, "rewards": bag_to_json(self.rewards)}
        if self.nuggets:
            out["nuggets"] = self.nuggets
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class HoldingsEvent:
    """A player's count of what they hold, usually at the end (the quick count): it sets their tokens of
    every kind and their gold nuggets to what they counted, whatever the earlier events gave them. Their
    objective cards are an ``objectives`` event, which stays secret until the end."""

    player: str
    rewards: Bag = field(default_factory=dict)
    nuggets: int = 0
    type: ClassVar = EventType.HOLDINGS

    @property
    def title(self) -> tuple[str, dict[str, Param]]:
        """The title of its explanation, a template (``{index}``: its place in the log) and its params."""
        return _("Event {index}: final count of {player}"), {"player": self.player}

    def to_json(self) -> dict[str, object]:
        """The event as the record's JSON object."""
        return {"type": self.type, "player": self.player, "rewards": bag_to_json(self.rewards), "nuggets": self.nuggets}


type Event = TerritoryEvent | PromoEvent | ObjectivesEvent | RoundEndEvent | AdjustEvent | HoldingsEvent


@dataclass(frozen=True)
class Record:
    """A whole game: the players in turn order, the options and the events in table order."""

    players: tuple[str, ...]
    options: Options = Options()
    events: tuple[Event, ...] = ()
    hidden_objectives: Mapping[str, int] | None = None
    """``None`` when the record holds every objective card. An export of a game in progress leaves the
    cards out, secret until the end: then how many each player holds, every player in seat order (the
    record's ``"hidden": {"objective_cards": {...}}``, our extension of the format). Scoring ignores it:
    the cards are simply not there."""

    def to_json(self) -> dict[str, object]:
        """The record as ``okanagan-record/1`` JSON."""
        out: dict[str, object] = {
            "format": FORMAT,
            "players": list(self.players),
            "options": self.options.to_json(),
        }
        if self.hidden_objectives is not None:
            out["hidden"] = {"objective_cards": dict(self.hidden_objectives)}
        out["events"] = [event.to_json() for event in self.events]
        return out


def hide_objectives(record: Record) -> Record:
    """``record`` as a game in progress is exported: without its ``objectives`` events, and with how many
    cards each player holds after the last event (0 for a player with no cards recorded).

    A record whose cards are already hidden keeps its counts, except where a later event replaced them.
    """
    held = dict.fromkeys(record.players, 0) | dict(record.hidden_objectives or {})
    for event in record.events:
        if isinstance(event, ObjectivesEvent):
            held[event.player] = len(event.cards)
    events = tuple(event for event in record.events if not isinstance(event, ObjectivesEvent))
    return replace(record, events=events, hidden_objectives=held)


# Parsing -----------------------------------------------------------------------------------------


def check_event_count(count: int) -> None:
    """Raise :class:`RecordError` (at ``events``) when a game of ``count`` events is longer than a record may be
    (:data:`MAX_EVENTS`): a record's import, and an event saved at the table, which the game's own backup
    must be able to restore.

    >>> check_event_count(501)
    Traceback (most recent call last):
    rules.errors.RecordError: events: a game has at most 500 events, not 501
    """
    if count > MAX_EVENTS:
        message = Message(_("a game has at most {limit} events, not {count}"), limit=MAX_EVENTS, count=count)
        raise RecordError(message, ("events",))


def parse_record(data: object) -> Record:
    """Parse an ``okanagan-record/1`` JSON value into a :class:`Record`.

    Raises :class:`RecordError` naming the field, or the event index and type, that is wrong.
    """
    fields = Fields(data, RecordError)
    record_format = fields.raw("format")
    if record_format != FORMAT:
        raise fields.fail(
            "format", Message(_("must be '{format}', not {value}"), format=FORMAT, value=describe(record_format))
        )
    players = parse_players(fields.array("players"))
    options = parse_options(fields.nested("options")) if fields.has("options") else Options()
    reader = _EventReader(players)
    hidden = reader.hidden(fields.nested("hidden")) if fields.has("hidden") else None
    events_value = fields.array("events")
    check_event_count(len(events_value))
    events = tuple(reader.event(index, value) for index, value in enumerate(events_value))
    fields.done()
    return Record(players, options, events, hidden)


def parse_event(players: tuple[str, ...], value: object, index: int = 0) -> Event:
    """Parse one event of a record whose players are ``players`` (``index`` is its place, for errors)."""
    return _EventReader(players).event(index, value)


def parse_territory_so_far(players: tuple[str, ...], value: object, *, action: bool = True) -> TerritorySoFar:
    """Parse a territory event as far as it is entered: as :func:`parse_event` reads a territory, except that
    the closer, the tie-break, the lone choice, the special action and the picks may be missing yet. With
    ``action`` false, the special action is being chosen and is left out unread (it is checked once complete).

    Raises :class:`RecordError` at the field that is wrong (no event index: the event is not in a log yet).
    """
    fields = Fields(value, RecordError)
    if fields.choice("type", EventType) is not EventType.TERRITORY:
        raise ValueError(f"not a territory event: {value!r}")  # the caller's mistake, not the player's
    so_far = _EventReader(players).territory_so_far(fields, action=action)
    fields.done()
    return so_far


def check_entered(players: tuple[str, ...], value: object, index: int = 0) -> None:
    """Check an event being entered field by field as far as it goes, as :func:`parse_event` reads it, its
    fields in the order they are entered: its player first, then each field entered, up to the first not
    entered yet (a Volcano's special action, a Beaver Dam's token, a player's objective cards). A territory is
    answered by :func:`rules.partial.answer_territory`.

    Raises :class:`RecordError` at the field entered that is wrong.
    """
    try:
        _EventReader(players).event(index, value, _EnteredFields)
    except _NotEntered:
        return


class _NotEntered(Exception):
    """A field of an event being entered is not entered yet (see :func:`check_entered`)."""


class _EnteredFields(Fields):
    """The fields of an event being entered: reading one not entered yet ends the check."""

    def raw(self, key: str) -> object:
        if self.value.get(key) is None:
            raise _NotEntered(key)
        return super().raw(key)


def parse_special_action(players: tuple[str, ...], value: object) -> SpecialAction:
    """Parse a special action taken in a game whose players are ``players``."""
    return _EventReader(players).special_action(Fields(value, RecordError, ("special_action",)))


def parse_players(value: list[object]) -> tuple[str, ...]:
    """2 to 4 names, each a valid name and no two the same player (:func:`rules.text.names_problem`)."""
    if len(value) not in PLAYER_COUNTS:
        raise RecordError(Message(_("there must be 2 to 4 players, not {count}"), count=len(value)), ("players",))
    names = []
    for name in value:
        if not isinstance(name, str):
            raise RecordError(
                Message(_("a player's name must be a text, not {value}"), value=describe(name)), ("players",)
            )
        names.append(name)
    problem = names_problem(names)
    if problem is not None:
        raise RecordError(problem, ("players",))
    return tuple(names)


def parse_options(fields: Fields) -> Options:
    """The options object; absent keys take their defaults."""
    defaults = Options()
    options = Options(
        reward_supply=fields.whole(
            "reward_supply", REWARD_SUPPLY_RANGE[0], REWARD_SUPPLY_RANGE[-1], default=defaults.reward_supply
        ),
        nugget_supply=fields.whole(
            "nugget_supply", NUGGET_SUPPLY_RANGE[0], NUGGET_SUPPLY_RANGE[-1], default=defaults.nugget_supply
        ),
        nugget_ladder=(
            fields.choice("nugget_ladder", NuggetLadder) if fields.has("nugget_ladder") else defaults.nugget_ladder
        ),
    )
    fields.done()
    return options


def parse_bag(value: object, where: tuple[str, ...], *, signed: bool = False) -> dict[Reward, int]:
    """A bag of rewards: reward → positive count (or, when ``signed``, any non-zero count), in the rewards'
    order (a JSON object's keys have none: a database may store them in another)."""
    fields = Fields(value, RecordError, where)
    bag: dict[Reward, int] = {}
    for key in fields.value:
        reward = identifier(key, Reward, lambda message: RecordError(message, where))
        count = fields.whole(key, -MAX_WHOLE if signed else 1, MAX_WHOLE)
        if count == 0:
            raise fields.fail(key, Message(_("a count must not be 0")))
        bag[reward] = count
    return in_order(bag, list(Reward))


def in_order[K, V](mapping: dict[K, V], order: Sequence[K]) -> dict[K, V]:
    """``mapping`` with its keys in ``order`` (the players' seats, the rewards' order): what the engine says
    never depends on the order of a JSON object's keys, which has none."""
    return {key: mapping[key] for key in order if key in mapping}


class _EventReader:
    """Parses the events of one record, and its other fields that name players, knowing its players."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.building_limits = whole_game_buildings(len(players))

    def event(self, index: int, value: object, fields_of: type[Fields] = Fields) -> Event:
        label = ""
        try:
            fields = fields_of(value, RecordError)
            event_type = fields.choice("type", EventType)
            label = event_type.value
            event = _EVENT_PARSERS[event_type](self, fields)
            fields.done()
            return event
        except RecordError as error:
            raise error.in_event(index, label) from None

    def player(self, fields: Fields, key: str) -> str:
        name = fields.raw(key)
        return self.known(name, lambda message: fields.fail(key, message))

    def known(self, name: object, fail: _Fail) -> str:
        if not isinstance(name, str) or name not in self.players:
            raise fail(
                Message(
                    _("{value} is not a player of this game ({players})"),
                    value=describe(name),
                    players=Players(self.players),
                )
            )
        return name

    def hidden(self, fields: Fields) -> dict[str, int]:
        """The record's ``hidden``: how many objective cards each player holds (absent: 0)."""
        counts = fields.nested("objective_cards")
        held = dict.fromkeys(self.players, 0)
        for name in counts.value:
            player = self.known(name, lambda message: RecordError(message, counts.where))
            held[player] = counts.whole(name, 0, MAX_OBJECTIVE_CARDS)
        fields.done()
        return held

    def territory(self, fields: Fields) -> TerritoryEvent:
        so_far = self.territory_so_far(fields, action=True)
        return TerritoryEvent(
            territory=so_far.territory,
            closed_by=self.player(fields, "closed_by"),
            rewards=so_far.rewards,
            buildings=so_far.buildings,
            order=so_far.order,
            lone_choice=so_far.lone_choice,
            special_action=so_far.special_action,
            picks=so_far.picks,
        )

    def territory_so_far(self, fields: Fields, *, action: bool) -> TerritorySoFar:
        buildings = {
            self.known(player, lambda message: fields.fail("buildings", message)): self.buildings_of(player, counts)
            for player, counts in fields.mapping("buildings").items()
        }
        buildings = in_order(buildings, self.players)
        order = None
        if fields.has("order"):
            order = tuple(
                self.known(name, lambda message: fields.fail("order", message)) for name in fields.array("order")
            )
        special = None
        if fields.has("special_action") and action:
            special = self.special_action(fields.nested("special_action"))
        picks = {}
        if fields.has("picks"):
            picks = {
                self.known(player, lambda message: fields.fail("picks", message)): parse_bag(bag, ("picks", player))
                for player, bag in fields.mapping("picks").items()
            }
            picks = in_order(picks, self.players)
        return TerritorySoFar(
            territory=fields.choice("territory", Territory),
            closed_by=self.player(fields, "closed_by") if fields.has("closed_by") else None,
            rewards=parse_bag(fields.raw("rewards"), ("rewards",)),
            buildings=buildings,
            order=order,
            lone_choice=fields.choice("lone_choice", LoneChoice) if fields.has("lone_choice") else None,
            special_action=special,
            picks=picks,
        )

    def buildings_of(self, player: str, value: object) -> dict[Building, int]:
        fields = Fields(value, RecordError, ("buildings", player))
        counts: dict[Building, int] = {}
        for key in fields.value:
            building = identifier(key, Building, lambda message: RecordError(message, ("buildings", player)))
            limit = self.building_limits[building]
            count = fields.whole(key)
            if count > limit:
                plural = {
                    Building.FARM: _("a player has {limit} farms in a {players}-player game, not {count}"),
                    Building.WAREHOUSE: _("a player has {limit} warehouses in a {players}-player game, not {count}"),
                    Building.SILO: _("a player has {limit} silos in a {players}-player game, not {count}"),
                }
                raise fields.fail(key, Message(plural[building], limit=limit, players=len(self.players), count=count))
            counts[building] = count
        return in_order(counts, list(Building))

    def objectives(self, fields: Fields) -> ObjectivesEvent:
        player = self.player(fields, "player")
        cards_value = fields.array("cards")
        if len(cards_value) > MAX_OBJECTIVE_CARDS:
            raise fields.fail(
                "cards",
                Message(
                    _("a player keeps at most {limit} cards, not {count}"),
                    limit=MAX_OBJECTIVE_CARDS,
                    count=len(cards_value),
                ),
            )
        cards = tuple(self.card(card, ("cards", str(number))) for number, card in enumerate(cards_value))
        return ObjectivesEvent(player, cards)

    def card(self, value: object, where: tuple[str, ...]) -> ObjectiveCard:
        fields = Fields(value, RecordError, where)
        rewards = tuple(
            identifier(reward, Reward, lambda message: fields.fail("rewards", message))
            for reward in fields.array("rewards")
        )
        card = ObjectiveCard(fields.choice("kind", ObjectiveKind), rewards)
        fields.done()
        problem = check_card(card)
        if problem:
            raise RecordError(problem, where)
        return card

    def round_end(self, fields: Fields) -> RoundEndEvent:
        return RoundEndEvent()

    def adjust(self, fields: Fields) -> AdjustEvent:
        note = fields.raw("note") if fields.has("note") else ""
        if not isinstance(note, str):
            raise fields.fail("note", Message(_("must be a text, not {value}"), value=describe(note)))
        problem = note_problem(note)
        if problem is not None:
            raise fields.fail("note", problem)
        return AdjustEvent(
            player=self.player(fields, "player"),
            rewards=parse_bag(fields.raw("rewards"), ("rewards",), signed=True) if fields.has("rewards") else {},
            nuggets=fields.whole("nuggets", -MAX_WHOLE, MAX_WHOLE, default=0),
            note=note,
        )

    def holdings(self, fields: Fields) -> HoldingsEvent:
        return HoldingsEvent(
            player=self.player(fields, "player"),
            rewards=parse_bag(fields.raw("rewards"), ("rewards",)),
            nuggets=fields.whole("nuggets", 0, MAX_WHOLE),
        )

    def special_action(self, fields: Fields) -> SpecialAction:
        kind = fields.choice("action", SpecialActionKind)
        action: SpecialAction
        match kind:
            case SpecialActionKind.GOLD_NUGGET:
                action = GoldNugget()
            case SpecialActionKind.CHOOSE_FIRST:
                action = ChooseFirst()
            case SpecialActionKind.NEW_OBJECTIVES:
                action = NewObjectives()
            case SpecialActionKind.NEW_TILES:
                action = NewTiles()
            case SpecialActionKind.REWARD_OF_SHAPE:
                shape, reward = fields.choice("shape", Shape), fields.choice("reward", Reward)
                if reward.shape is not shape:
                    raise fields.fail("reward", Message(_("{reward} is not a {shape}"), reward=reward, shape=shape))
                action = RewardOfShape(shape, reward)
            case SpecialActionKind.TWO_REWARDS:
                action = TwoRewards(fields.choice("reward", Reward))
            case SpecialActionKind.GIFTS:
                givers = fields.mapping("from")
                gifts = {
                    self.known(giver, lambda message: fields.fail("from", message)): identifier(
                        reward, Reward, lambda message: fields.fail("from", message)
                    )
                    for giver, reward in givers.items()
                }
                action = Gifts(in_order(gifts, self.players))
            case SpecialActionKind.TRADE:
                action = Trade(self.player(fields, "with"), fields.choice("give", Reward), fields.choice("get", Reward))
            case SpecialActionKind.EXCHANGE_SHAPE | SpecialActionKind.EXCHANGE_COLOUR:
                action = Exchange(kind, self.swaps(fields))
        fields.done()
        return action

    def swaps(self, fields: Fields) -> tuple[tuple[Reward, Reward], ...]:
        swaps_value = fields.array("swaps")
        if not 1 <= len(swaps_value) <= MAX_SWAPS:
            raise fields.fail(
                "swaps", Message(_("an exchange makes 1 or 2 swaps, not {count}"), count=len(swaps_value))
            )
        swaps = []
        for swap in swaps_value:
            if not isinstance(swap, list) or len(swap) != 2:
                raise fields.fail("swaps", Message(_("each swap is [given, taken], not {value}"), value=describe(swap)))
            given, taken = (identifier(item, Reward, lambda message: fields.fail("swaps", message)) for item in swap)
            swaps.append((given, taken))
        return tuple(swaps)


type _Fail = Callable[[Message], RulesError]


def _promo_reader(tile: type[PromoEvent]) -> Callable[[_EventReader, Fields], Event]:
    """How a promo tile's event is read (:mod:`rules.promos`)."""
    return tile.read


_EVENT_PARSERS: Final[dict[EventType, Callable[[_EventReader, Fields], Event]]] = {
    EventType.TERRITORY: _EventReader.territory,
    EventType.OBJECTIVES: _EventReader.objectives,
    EventType.ROUND_END: _EventReader.round_end,
    EventType.ADJUST: _EventReader.adjust,
    EventType.HOLDINGS: _EventReader.holdings,
    **{tile.type: _promo_reader(tile) for tile in PROMO_TILES},
}
