"""Okanagan's components as data: the one place to correct a fact.

Every value here comes from ``shared/rules/okanagan-facts.md``. Facts that are not printed in the
rulebook carry their confidence tag in :data:`FACTS`, so that the rules page can show the reader
when a ruling is inferred. Reward names are mostly unknown, so a reward is identified by its colour
and shape (``blue-circle``); the 36 objective cards are not listed either, so a card is "a kind and
the rewards printed on it".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Confidence(StrEnum):
    """How sure we are of a fact: the tags of the facts file."""

    RULEBOOK = "R"
    """Printed in the rulebook (or its English game-help translation)."""
    REVIEWS = "V"
    """Seen in third-party reviews only."""
    INFERRED = "I"
    """Inferred; the reasoning is given with the fact."""
    UNKNOWN = "?"
    """Not known."""


class Colour(StrEnum):
    """The four reward colours, one per territory type."""

    GREEN = "green"
    BLUE = "blue"
    YELLOW = "yellow"
    BLACK = "black"


class Shape(StrEnum):
    """The three reward shapes."""

    SQUARE = "square"
    HEXAGON = "hexagon"
    CIRCLE = "circle"


class Territory(StrEnum):
    """The four territory types (the French rulebook's *prairie* is ``field``)."""

    FOREST = "forest"
    LAKE = "lake"
    FIELD = "field"
    MOUNTAIN = "mountain"

    @property
    def colour(self) -> Colour:
        """The colour of this territory's own rewards [I]."""
        return TERRITORY_COLOUR[self]


TERRITORY_COLOUR: Final[dict[Territory, Colour]] = {
    Territory.FOREST: Colour.GREEN,
    Territory.LAKE: Colour.BLUE,
    Territory.FIELD: Colour.YELLOW,
    Territory.MOUNTAIN: Colour.BLACK,
}


class Reward(StrEnum):
    """A kind of reward token: one of 4 colours × 3 shapes, written ``<colour>-<shape>``."""

    GREEN_SQUARE = "green-square"
    GREEN_HEXAGON = "green-hexagon"
    GREEN_CIRCLE = "green-circle"
    BLUE_SQUARE = "blue-square"
    BLUE_HEXAGON = "blue-hexagon"
    BLUE_CIRCLE = "blue-circle"
    YELLOW_SQUARE = "yellow-square"
    YELLOW_HEXAGON = "yellow-hexagon"
    YELLOW_CIRCLE = "yellow-circle"
    BLACK_SQUARE = "black-square"
    BLACK_HEXAGON = "black-hexagon"
    BLACK_CIRCLE = "black-circle"

    @property
    def colour(self) -> Colour:
        """The token's colour."""
        return Colour(self.value.split("-")[0])

    @property
    def shape(self) -> Shape:
        """The token's shape."""
        return Shape(self.value.split("-")[1])


class Building(StrEnum):
    """The three building types a player places."""

    FARM = "farm"
    WAREHOUSE = "warehouse"
    SILO = "silo"

    @property
    def influence(self) -> int:
        """Influence this building gives in each territory it counts in."""
        return BUILDING_INFLUENCE[self]


BUILDING_INFLUENCE: Final[dict[Building, int]] = {
    Building.FARM: 3,
    Building.WAREHOUSE: 2,
    Building.SILO: 1,
}

BUILDINGS_PER_ROUND: Final[dict[int, tuple[dict[Building, int], dict[Building, int]]]] = {
    2: (
        {Building.FARM: 1, Building.WAREHOUSE: 3, Building.SILO: 2},
        {Building.FARM: 2, Building.WAREHOUSE: 2, Building.SILO: 2},
    ),
    3: (
        {Building.FARM: 1, Building.WAREHOUSE: 3, Building.SILO: 2},
        {Building.FARM: 1, Building.WAREHOUSE: 2, Building.SILO: 2},
    ),
    4: (
        {Building.FARM: 1, Building.WAREHOUSE: 2, Building.SILO: 2},
        {Building.FARM: 1, Building.WAREHOUSE: 2, Building.SILO: 2},
    ),
}
"""Each player's buildings in round 1 and round 2, by player count [R]."""

MAX_PLAYERS: Final = 4
"""The most players a game or a score sheet has [R]."""
PLAYER_COUNTS: Final[range] = range(2, MAX_PLAYERS + 1)
"""The players an Okanagan game may have [R]."""

BUILDING_TERRITORIES: Final[dict[Building, int]] = {
    Building.FARM: 1,
    Building.WAREHOUSE: 2,
    Building.SILO: 4,
}
"""The most territories one building can count in over a game: a farm its own [R], a warehouse the two
it stands between [R], a silo every territory touching its tile's centre, at most 4 [I] (see FACTS)."""


def round_one_buildings(player_count: int) -> dict[Building, int]:
    """Each player's buildings in round 1 for ``player_count`` players."""
    return dict(BUILDINGS_PER_ROUND[player_count][0])


def whole_game_buildings(player_count: int) -> dict[Building, int]:
    """Each player's buildings over the whole game for ``player_count`` players."""
    first, second = BUILDINGS_PER_ROUND[player_count]
    return {building: first[building] + second[building] for building in Building}


class SpecialActionKind(StrEnum):
    """The ten special actions printed on the tile backs [R]."""

    REWARD_OF_SHAPE = "reward_of_shape"
    TWO_REWARDS = "two_rewards"
    CHOOSE_FIRST = "choose_first"
    GOLD_NUGGET = "gold_nugget"
    NEW_OBJECTIVES = "new_objectives"
    GIFTS = "gifts"
    TRADE = "trade"
    NEW_TILES = "new_tiles"
    EXCHANGE_SHAPE = "exchange_shape"
    EXCHANGE_COLOUR = "exchange_colour"


class ObjectiveKind(StrEnum):
    """The three kinds of objective card [R]."""

    SPECIFIC = "specific"
    """3 VP per token of the kind shown."""
    TERRITORY = "territory"
    """5 VP per set of the rewards shown, all of one colour."""
    SHAPE = "shape"
    """7 VP per set of the rewards shown, all of one shape."""


OBJECTIVE_POINTS: Final[dict[ObjectiveKind, int]] = {
    ObjectiveKind.SPECIFIC: 3,
    ObjectiveKind.TERRITORY: 5,
    ObjectiveKind.SHAPE: 7,
}

OBJECTIVE_REWARD_COUNTS: Final[dict[ObjectiveKind, range]] = {
    ObjectiveKind.SPECIFIC: range(1, 2),
    ObjectiveKind.TERRITORY: range(2, 4),
    ObjectiveKind.SHAPE: range(2, 5),
}
"""How many distinct rewards a card of each kind shows (the record format's bounds)."""

MAX_OBJECTIVE_CARDS: Final = 3
EXPLORER_POINTS_PER_SET: Final = 4
NUGGET_PLACE_POINTS: Final[tuple[int, ...]] = (10, 5, 2, 0)
"""Gold-nugget points for the most, second, third and fewest [R]."""

DEFAULT_REWARD_SUPPLY: Final = 12
"""Tokens of each kind in the box: 144 tokens / 12 kinds [I]."""
DEFAULT_NUGGET_SUPPLY: Final = 16
"""Gold nugget cards, one nugget each [R] 16 cards, [I] one nugget per card."""
REWARD_SUPPLY_RANGE: Final = range(1, 1000)
"""The tokens of each kind a record's ``reward_supply`` may give (the record format's bounds)."""
NUGGET_SUPPLY_RANGE: Final = range(0, 1000)
"""The gold nugget cards a record's ``nugget_supply`` may give (the record format's bounds)."""
MAX_SWAPS: Final = 2
"""The swaps of an exchange with the supply: "Deux fois" [R] (a record may give 1 or 2)."""


@dataclass(frozen=True)
class Fact:
    """A component fact that is not printed in the rulebook, with its tag and reasoning."""

    name: str
    confidence: Confidence
    reasoning: str


FACTS: Final[tuple[Fact, ...]] = (
    Fact(
        "territory colours",
        Confidence.INFERRED,
        "four colours for four territories: forest green and lake blue by theme, field yellow and "
        "mountain black by elimination",
    ),
    Fact("tokens per kind", Confidence.INFERRED, "144 tokens / 12 kinds = 12 of each"),
    Fact("one nugget per card", Confidence.INFERRED, "the rulebook counts cards, not nuggets"),
    Fact(
        "reward colours and shapes",
        Confidence.REVIEWS,
        "the rulebook prints 12 kinds; reviews show them as 4 colours × 3 shapes",
    ),
    Fact(
        "territories a silo counts in",
        Confidence.INFERRED,
        "at most 4: tiles join by their sides and 'corner connections do not count', so a tile is square; "
        "each side shows one territory, so at most 4 territories touch its centre (the real tiles may show "
        "fewer: 4 is the safe bound, which refuses no game played)",
    ),
    Fact("reward names", Confidence.UNKNOWN, "only the forest names are printed, without their shapes"),
    Fact(
        "objective cards",
        Confidence.UNKNOWN,
        "the list of the 36 cards is not known: a card is its kind and the rewards printed on it",
    ),
)
