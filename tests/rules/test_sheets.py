"""Small Islands and Cooper Island, scored from their end-of-game sheets."""

from __future__ import annotations

from typing import Any

import pytest

from rules import CooperIslandError, SmallIslandsError, score_cooper_island, score_small_islands
from rules.explanation import Figure


def islander(
    name: str,
    prestige: int = 30,
    discoveries: list[int] | None = None,
    ship: bool = True,
    ports: int = 0,
    houses: int = 8,
) -> dict[str, Any]:
    return {
        "name": name,
        "prestige": prestige,
        "discoveries": discoveries or [],
        "ship_placed": ship,
        "ports": ports,
        "houses": houses,
    }


def islands(*players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"format": "small-islands-sheet/1", "players": list(players), **extra}


def test_small_islands_total_is_prestige_plus_discoveries_plus_ports_around_the_own_ship() -> None:
    result = score_small_islands(
        islands(islander("Ann", 34, [3, 5], ports=4), islander("Ben", 30, ports=5, ship=False))
    )
    ann, ben = result.to_json()["players"]
    assert ann == {
        "name": "Ann",
        "prestige_points": 34,
        "discovery_points": 8,
        "port_points": 4,
        "total": 46,
        "rank": 1,
    }
    assert (ben["port_points"], ben["total"]) == (0, 30)
    assert any(step.rule == "small_islands.ports" for step in result.sections[0].steps)


def test_small_islands_ties_go_to_houses_then_ports_then_the_last_tile() -> None:
    by_houses = score_small_islands(islands(islander("Ann", houses=7), islander("Ben", houses=8)))
    assert by_houses.to_json()["winners"] == ["Ben"]
    by_ports = score_small_islands(islands(islander("Ann", 30, ports=2), islander("Ben", 29, [1], ports=1)))
    assert [p["total"] for p in by_ports.to_json()["players"]] == [32, 31]
    level = islands(islander("Ann", 28, ports=2), islander("Ben", 28, ports=2), islander("Cy", 20))
    assert score_small_islands(level).to_json()["winners"] == ["Ann", "Ben"]
    assert [p["rank"] for p in score_small_islands(level).to_json()["players"]] == [1, 1, 3]
    decided = score_small_islands({**level, "last_tile_by": "Ben"})
    assert decided.to_json()["winners"] == ["Ben"]
    assert [p["rank"] for p in decided.to_json()["players"]] == [2, 1, 3]
    assert [step.rule for step in decided.sections[0].steps][-3:] == [
        "small_islands.tie.houses",
        "small_islands.tie.ports",
        "small_islands.tie.last_tile",
    ]


def test_the_decider_is_the_tie_break_that_settled_the_first_place() -> None:
    plain = score_small_islands(islands(islander("Ann", 31), islander("Ben", 30)))
    assert plain.decider is None  # the most points decided
    by_houses = score_small_islands(islands(islander("Ann", houses=7), islander("Ben", houses=8)))
    assert by_houses.decider is not None and by_houses.decider.rule == "small_islands.tie.houses"
    assert by_houses.decider.params["values"] == (Figure("Ann", 7), Figure("Ben", 8))
    # Ann and Ben tie for first down to the last tile; Cy and Dee tie lower down, on houses, which decides nothing
    # at the top.
    level = islands(
        islander("Ann", 28, ports=2), islander("Ben", 28, ports=2), islander("Cy", 20), islander("Dee", 20, houses=7)
    )
    decided = score_small_islands({**level, "last_tile_by": "Ben"})
    assert decided.decider is not None and decided.decider.rule == "small_islands.tie.last_tile"
    assert decided.decider.params["players"] == ("Ann", "Ben")
    shared = score_small_islands(level)
    assert shared.decider is not None and shared.decider.message == "{players} are still tied and share the place."


def test_small_islands_solo_against_alexis() -> None:
    sheet = islands(islander("Ann", 40, houses=6), alexis={"base": 40, "per_house": 1, "houses": 6})
    result = score_small_islands(sheet)
    assert result.to_json()["winners"] == ["Alexis"]
    assert result.to_json()["alexis"] == {"total": 46, "houses": 6}
    assert result.to_json()["players"][0]["rank"] == 2
    assert score_small_islands({**sheet, "alexis": {"base": 30, "per_house": 1, "houses": 6}}).to_json()["winners"] == [
        "Ann"
    ]


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (islands(islander("Ann")), "a solo game needs the Alexis card"),
        (
            islands(islander("Ann"), islander("Ben"), alexis={"base": 1, "per_house": 1, "houses": 1}),
            "alexis: Alexis plays only in a solo game",
        ),
        (islands(islander("Ann", ports=17), islander("Ben")), "Ann: ports: must be from 0 to 16, not 17"),
        (islands(islander("Ann", houses=9), islander("Ben")), "Ann: houses: must be from 0 to 8, not 9"),
        (islands(islander("Ann", -1), islander("Ben")), "Ann: prestige: must be from 0"),
        (
            islands(islander("Ann", discoveries=[1] * 7), islander("Ben", discoveries=[2] * 6)),
            "players: the box holds 12 discovery tokens, but the players hold 13",
        ),
        (islands(islander("Ann", discoveries=[-1]), islander("Ben")), "Ann: discoveries: each value must be"),
        (islands(islander("Ann"), islander("Ann")), "players: 'Ann' is named twice"),
        (islands(islander("Ann"), islander("Ben"), last_tile_by="Cy"), "last_tile_by: 'Cy' is not a player"),
        (islands(islander("Ann"), {**islander("Ben"), "ship": True}), "Ben: unknown field 'ship'"),
        (islands(islander("Ann"), {"name": "Ben"}), "Ben: the field 'prestige' is missing"),
        (islands(*[islander(name) for name in "ABCDE"]), "players: there must be 1 to 4 players, not 5"),
    ],
)
def test_a_bad_small_islands_sheet_names_the_player_and_field(sheet: dict[str, Any], message: str) -> None:
    with pytest.raises(SmallIslandsError) as caught:
        score_small_islands(sheet)
    assert message in str(caught.value)


def settler(
    name: str,
    logbooks: int = 5,
    spaces: tuple[int, int] = (2, 3),
    orders: dict[str, int] | None = None,
    buildings: int = 7,
    leftovers: tuple[int, int, int, int] = (3, 4, 2, 1),
    anchors: int = 2,
    empty: int = 3,
) -> dict[str, Any]:
    return {
        "name": name,
        "logbooks": logbooks,
        "spaces_past_logbook": list(spaces),
        "royal_orders": orders if orders is not None else {},
        "buildings": buildings,
        "leftovers": dict(zip(("coins", "resources", "cartographer", "tiles"), leftovers, strict=True)),
        "anchors": anchors,
        "empty_spaces": empty,
    }


def cooper(*players: dict[str, Any]) -> dict[str, Any]:
    return {"format": "cooper-island-sheet/1", "players": list(players)}


def test_cooper_island_total_adds_each_component_and_subtracts_anchors() -> None:
    result = score_cooper_island(cooper(settler("Ann", orders={"3": 6, "5": 4}), settler("Ben", orders={"1": 2})))
    ann = result.to_json()["players"][0]
    assert ann == {
        "name": "Ann",
        "logbook_points": 25,
        "sailing_points": 5,
        "royal_order_points": 10,
        "building_points": 7,
        "leftover_points": 2,
        "anchor_points": -2,
        "total": 47,
        "rank": 1,
    }


def test_cooper_island_leftovers_give_one_point_per_full_five_together() -> None:
    result = score_cooper_island(cooper(settler("Ann", leftovers=(1, 1, 1, 1)), settler("Ben", leftovers=(4, 0, 0, 1))))
    assert [p["leftover_points"] for p in result.to_json()["players"]] == [0, 1]


def test_cooper_island_ties_go_to_fewer_empty_spaces_then_are_shared() -> None:
    result = score_cooper_island(cooper(settler("Ann", empty=4), settler("Ben", empty=2), settler("Cy", empty=4)))
    assert result.to_json()["winners"] == ["Ben"]
    assert [p["rank"] for p in result.to_json()["players"]] == [2, 1, 2]
    assert [step.rule for step in result.sections[0].steps][-2:] == ["cooper_island.tie", "cooper_island.tie"]

    # The tie-break that decided the first place: fewer empty spaces among the three.
    assert result.decider is not None and result.decider.rule == "cooper_island.tie"
    assert result.decider.params["values"] == (Figure("Ann", 4), Figure("Ben", 2), Figure("Cy", 4))
    plain = score_cooper_island(cooper(settler("Ann", logbooks=6), settler("Ben", empty=2), settler("Cy", empty=4)))
    assert plain.to_json()["winners"] == ["Ann"] and plain.decider is None  # Ben and Cy's tie decides no winner


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (cooper(settler("Ann", orders={"8": 3}), settler("Ben")), "Ann: royal_orders: card 8 is not in play with 2"),
        (
            cooper(settler("Ann", orders={"1": 3, "2": 1, "3": 1}), settler("Ben", orders={"4": 1, "5": 2})),
            "Ben: royal_orders: only 4 royal order cards are in play with 2 players, and card 5 would be one more",
        ),
        (
            cooper(settler("Ann", orders={"2": 3}), settler("Ben", orders={"2": 1}), settler("Cy")),
            "Ben: royal_orders: card 2 holds one worker, already Ann's",
        ),
        (cooper(settler("Ann", orders={"9": 3})), "Ann: royal_orders: '9' is not a royal order card (1 to 8)"),
        (cooper(settler("Ann", orders={"1": -3})), "Ann: royal_orders: must be from 0 to 999, not -3"),
        (
            cooper(settler("Ann", spaces=(1, 2)) | {"spaces_past_logbook": [1, 2, 3]}),
            "Ann: spaces_past_logbook: one number per ship (2), not 3",
        ),
        (cooper({**settler("Ann"), "leftovers": {"coins": 1}}), "Ann: leftovers: the field 'resources' is missing"),
        (cooper({**settler("Ann"), "anchors": "two"}), "Ann: anchors: must be a whole number, not 'two'"),
        ({"format": "cooper-island-sheet/1", "players": []}, "players: there must be 1 to 4 players, not 0"),
    ],
)
def test_a_bad_cooper_island_sheet_names_the_player_and_field(sheet: dict[str, Any], message: str) -> None:
    with pytest.raises(CooperIslandError) as caught:
        score_cooper_island(sheet)
    assert message in str(caught.value)


def test_with_three_players_any_six_of_the_eight_cards_may_be_used() -> None:
    sheet = cooper(
        settler("Ann", orders={"1": 1, "8": 1}),
        settler("Ben", orders={"2": 1, "7": 1}),
        settler("Cy", orders={"3": 1, "6": 1}),
    )
    assert score_cooper_island(sheet).to_json()["players"][0]["royal_order_points"] == 2


def test_the_last_tile_candidates_are_the_players_tied_for_the_win_on_points_houses_and_ports() -> None:
    from rules import last_tile_candidates, last_tile_needed, parse_small_islands

    def islander(name: str, prestige: int, houses: int) -> dict[str, object]:
        return {
            "name": name,
            "prestige": prestige,
            "discoveries": [],
            "ship_placed": False,
            "ports": 0,
            "houses": houses,
        }

    sheet = {"format": "small-islands-sheet/1", "players": [islander("Ann", 20, 5), islander("Ben", 20, 5),
                                                             islander("Cy", 20, 4), islander("Dee", 9, 5)]}  # fmt: skip
    assert last_tile_candidates(parse_small_islands(sheet)) == ("Ann", "Ben")
    sheet["players"][1]["houses"] = 6  # type: ignore[index]
    assert last_tile_candidates(parse_small_islands(sheet)) == ()
    # A tie below the first place does not decide the winner: no question (it stays shared).
    sheet = {"format": "small-islands-sheet/1", "players": [islander("Ann", 20, 5), islander("Ben", 20, 5),
                                                             islander("Cy", 44, 4)]}  # fmt: skip
    assert last_tile_candidates(parse_small_islands(sheet)) == ()
    assert not last_tile_needed(parse_small_islands(sheet))
