"""How many territories a player's buildings can count in: the checks that catch impossible records.

A building counts once in every territory it stands in: a farm in its own, a warehouse in the two it stands
between, a silo in every territory touching its tile's centre (:data:`~rules.components.BUILDING_TERRITORIES`).
A territory is resolved once, but one building may count in several of them, so only the sums over the
territories are bounded: a player's farms over every territory resolved cannot be more than the farms they
have, and so on, and before the end of round 1 only the round-1 buildings are on the board. A record past
these bounds has an entry mistake (a building counted in a territory it is not in, or the end of round 1
recorded late). Around one territory a player cannot show more buildings of a type than they have at that
point of the game: the round-1 buildings before the end of round 1 is recorded, the whole game's after (the
record's parser checks the whole game's, :func:`check_buildings_counted` the round-1 ones).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .components import BUILDING_TERRITORIES, Building, round_one_buildings, whole_game_buildings
from .errors import RecordError
from .explanation import Message, Plural, ngettext_lazy
from .game import GameState

_WHOLE_GAME: Final[dict[Building, Plural]] = {
    Building.FARM: ngettext_lazy(
        "{player}'s farms are counted in {count} territories up to this one, but a player has {limit} farm in "
        "a {players}-player game and a farm stands in 1 territory",
        "{player}'s farms are counted in {count} territories up to this one, but a player has {limit} farms in "
        "a {players}-player game and a farm stands in 1 territory",
        "limit",
    ),
    Building.WAREHOUSE: ngettext_lazy(
        "{player}'s warehouses are counted in {count} territories up to this one, but a player has {limit} "
        "warehouse in a {players}-player game and a warehouse counts in at most {most} territories",
        "{player}'s warehouses are counted in {count} territories up to this one, but a player has {limit} "
        "warehouses in a {players}-player game and a warehouse counts in at most {most} territories",
        "limit",
    ),
    Building.SILO: ngettext_lazy(
        "{player}'s silos are counted in {count} territories up to this one, but a player has {limit} silo in "
        "a {players}-player game and a silo counts in at most {most} territories",
        "{player}'s silos are counted in {count} territories up to this one, but a player has {limit} silos in "
        "a {players}-player game and a silo counts in at most {most} territories",
        "limit",
    ),
}

_ROUND_ONE: Final[dict[Building, Plural]] = {
    Building.FARM: ngettext_lazy(
        "round 1 cannot end here: {player}'s farms are counted in {count} territories before it (too many from "
        "event {event} on), but round 1 gives a player {limit} farm and a farm stands in 1 territory",
        "round 1 cannot end here: {player}'s farms are counted in {count} territories before it (too many from "
        "event {event} on), but round 1 gives a player {limit} farms and a farm stands in 1 territory",
        "limit",
    ),
    Building.WAREHOUSE: ngettext_lazy(
        "round 1 cannot end here: {player}'s warehouses are counted in {count} territories before it (too many "
        "from event {event} on), but round 1 gives a player {limit} warehouse and a warehouse counts in at most "
        "{most} territories",
        "round 1 cannot end here: {player}'s warehouses are counted in {count} territories before it (too many "
        "from event {event} on), but round 1 gives a player {limit} warehouses and a warehouse counts in at "
        "most {most} territories",
        "limit",
    ),
    Building.SILO: ngettext_lazy(
        "round 1 cannot end here: {player}'s silos are counted in {count} territories before it (too many from "
        "event {event} on), but round 1 gives a player {limit} silo and a silo counts in at most {most} "
        "territories",
        "round 1 cannot end here: {player}'s silos are counted in {count} territories before it (too many from "
        "event {event} on), but round 1 gives a player {limit} silos and a silo counts in at most {most} "
        "territories",
        "limit",
    ),
}


_ROUND_ONE_HERE: Final[dict[Building, Plural]] = {
    Building.FARM: ngettext_lazy(
        "{player} has {count} farms around this territory, but round 1 gives a player {limit} farm: if round 1 "
        "is over, record its end first",
        "{player} has {count} farms around this territory, but round 1 gives a player {limit} farms: if round 1 "
        "is over, record its end first",
        "limit",
    ),
    Building.WAREHOUSE: ngettext_lazy(
        "{player} has {count} warehouses around this territory, but round 1 gives a player {limit} warehouse in "
        "a {players}-player game: if round 1 is over, record its end first",
        "{player} has {count} warehouses around this territory, but round 1 gives a player {limit} warehouses in "
        "a {players}-player game: if round 1 is over, record its end first",
        "limit",
    ),
    Building.SILO: ngettext_lazy(
        "{player} has {count} silos around this territory, but round 1 gives a player {limit} silo: if round 1 "
        "is over, record its end first",
        "{player} has {count} silos around this territory, but round 1 gives a player {limit} silos: if round 1 "
        "is over, record its end first",
        "limit",
    ),
}

_ROUND_ONE_CROWDED: Final[dict[Building, Plural]] = {
    Building.FARM: ngettext_lazy(
        "round 1 cannot end here: {player} has {count} farms around the territory of event {event}, but round 1 "
        "gives a player {limit} farm",
        "round 1 cannot end here: {player} has {count} farms around the territory of event {event}, but round 1 "
        "gives a player {limit} farms",
        "limit",
    ),
    Building.WAREHOUSE: ngettext_lazy(
        "round 1 cannot end here: {player} has {count} warehouses around the territory of event {event}, but "
        "round 1 gives a player {limit} warehouse in a {players}-player game",
        "round 1 cannot end here: {player} has {count} warehouses around the territory of event {event}, but "
        "round 1 gives a player {limit} warehouses in a {players}-player game",
        "limit",
    ),
    Building.SILO: ngettext_lazy(
        "round 1 cannot end here: {player} has {count} silos around the territory of event {event}, but round 1 "
        "gives a player {limit} silo",
        "round 1 cannot end here: {player} has {count} silos around the territory of event {event}, but round 1 "
        "gives a player {limit} silos",
        "limit",
    ),
}


def territory_limits(state: GameState) -> dict[Building, int]:
    """The most buildings of each type one player can have around one territory at this point of the game: the
    round-1 buildings until the end of round 1 is recorded, then the whole game's.

    >>> from rules import new_game
    >>> territory_limits(new_game(("Ann", "Ben", "Cy", "Di")))
    {<Building.FARM: 'farm'>: 1, <Building.WAREHOUSE: 'warehouse'>: 2, <Building.SILO: 'silo'>: 2}
    """
    players = len(state.players)
    return round_one_buildings(players) if state.round == 1 else whole_game_buildings(players)


def most_counted(buildings: Mapping[Building, int]) -> dict[Building, int]:
    """How many territories ``buildings`` (a player's, by type) can count in at most, in all."""
    return {building: count * BUILDING_TERRITORIES[building] for building, count in buildings.items()}


def buildings_room(state: GameState, player: str, *, whole_game: bool = False) -> dict[Building, int]:
    """How many more territories ``player``'s buildings of each type can still count in: in round 1, within
    the round-1 buildings (so that the end of round 1 can still be recorded), then within the whole game's;
    with ``whole_game``, within the whole game's in either round (what a territory event is checked against).

    >>> from rules import new_game
    >>> buildings_room(new_game(("Ann", "Ben")), "Ann")
    {<Building.FARM: 'farm'>: 1, <Building.WAREHOUSE: 'warehouse'>: 6, <Building.SILO: 'silo'>: 8}
    """
    players = len(state.players)
    round_one = state.round == 1 and not whole_game
    bound = most_counted(round_one_buildings(players) if round_one else whole_game_buildings(players))
    counted = state.buildings_counted.get(player, {})
    return {building: max(0, most - counted.get(building, 0)) for building, most in bound.items()}


def territory_room(state: GameState, player: str) -> dict[Building, int]:
    """How many buildings of each type ``player`` can show around the territory being entered: no more than
    they have at this point of the game (:func:`territory_limits`), nor than their buildings can still count
    in over the whole game (0: none at all, whatever the round).

    >>> from rules import new_game
    >>> territory_room(new_game(("Ann", "Ben")), "Ann")
    {<Building.FARM: 'farm'>: 1, <Building.WAREHOUSE: 'warehouse'>: 3, <Building.SILO: 'silo'>: 2}
    """
    room = buildings_room(state, player, whole_game=True)
    return {building: min(most, room[building]) for building, most in territory_limits(state).items()}


def check_buildings_counted(state: GameState, buildings: Mapping[str, Mapping[Building, int]]) -> None:
    """Raise :class:`RecordError` (at ``buildings``, the player) when a player's buildings of a type, counted
    over the territories resolved so far and this one (``buildings``), are more than the whole game's
    buildings of that type can be counted in."""
    limits = whole_game_buildings(len(state.players))
    bound = most_counted(limits)
    for player, counts in buildings.items():
        counted = state.buildings_counted.get(player, {})
        for building, count in counts.items():
            total = counted.get(building, 0) + count
            if total > bound[building]:
                message = Message(
                    _WHOLE_GAME[building],
                    player=player,
                    count=total,
                    limit=limits[building],
                    players=len(state.players),
                    most=BUILDING_TERRITORIES[building],
                )
                raise RecordError(message, ("buildings", player))


def check_territory_buildings(state: GameState, buildings: Mapping[str, Mapping[Building, int]]) -> None:
    """Raise :class:`RecordError` (at ``buildings``, the player) when, before the end of round 1 is recorded, a
    player shows more buildings of a type around this territory (``buildings``) than round 1 gives them.

    A record may leave out the end of round 1 (such a territory may then be a round-2 one, and it is the end
    of round 1 recorded after it that is refused: :func:`check_round_one`); an entry at the table, where the
    end of round 1 is one tap, asks for it first."""
    players = len(state.players)
    if state.round != 1:
        return  # the whole game's buildings: the record's parser checks them
    limits = round_one_buildings(players)
    for player, counts in buildings.items():
        for building, count in counts.items():
            if count > limits[building]:
                message = Message(
                    _ROUND_ONE_HERE[building], player=player, count=count, limit=limits[building], players=players
                )
                raise RecordError(message, ("buildings", player))


def count_buildings(state: GameState, buildings: Mapping[str, Mapping[Building, int]], index: int) -> None:
    """Add the ``buildings`` of the territory resolved by event ``index`` to the players' sums, noting the event
    from which a sum is over what the round-1 buildings can be counted in, and the first territory around which
    a player shows more buildings of a type than round 1 gives (the end of round 1 names them)."""
    limits = round_one_buildings(len(state.players))
    bound = most_counted(limits)
    for player, counts in buildings.items():
        counted = state.buildings_counted.setdefault(player, {})
        for building, count in counts.items():
            counted[building] = counted.get(building, 0) + count
            if counted[building] > bound[building]:
                state.over_round_one.setdefault(player, {}).setdefault(building, index)
            if state.round == 1 and count > limits[building]:
                state.crowded_in_round_one.setdefault(player, {}).setdefault(building, (index, count))


def check_round_one(state: GameState) -> None:
    """Raise :class:`RecordError` when round 1 cannot end after the territories resolved so far: a player
    showed more buildings of a type around one territory than round 1 gives, or a player's buildings of a type
    are counted in more territories than the round-1 buildings can be. The message names the player and the
    territory event (the first with too many)."""
    players = len(state.players)
    limits = round_one_buildings(players)
    bound = most_counted(limits)
    for player in state.players:
        counted = state.buildings_counted.get(player, {})
        for building in limits:
            if building in state.crowded_in_round_one.get(player, {}):
                event, count = state.crowded_in_round_one[player][building]
                message = Message(
                    _ROUND_ONE_CROWDED[building],
                    player=player,
                    count=count,
                    event=event,
                    limit=limits[building],
                    players=players,
                )
                raise RecordError(message)
            if counted.get(building, 0) > bound[building]:
                message = Message(
                    _ROUND_ONE[building],
                    player=player,
                    count=counted[building],
                    event=state.over_round_one[player][building],
                    limit=limits[building],
                    most=BUILDING_TERRITORIES[building],
                )
                raise RecordError(message)
