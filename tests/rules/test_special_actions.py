"""Each special action's effect and checks, and the choices offered for it."""

from __future__ import annotations

import itertools

import pytest

from rules import (
    GameState,
    RecordError,
    Reward,
    SpecialActionKind,
    apply_special_action,
    exchange_options,
    new_game,
    parse_record,
    replay,
    special_action_options,
)
from rules.actions import Exchange
from tests.rules.builders import Json, error_of, give, player, record, score

PLAYERS = ("Ann", "Ben", "Cy")


def volcano(action: Json, by: str = "Ann") -> Json:
    return {"type": "volcano", "player": by, "special_action": action}


def test_gold_nugget_draws_a_card_while_cards_are_left() -> None:
    result = score(record(volcano({"action": "gold_nugget"}), volcano({"action": "gold_nugget"}), nugget_supply=1))
    assert player(result, "Ann")["nuggets"] == 1
    assert result.to_json()["supply"]["nuggets"] == 0
    assert "no cards are left: nothing" in result.sections[1].steps[1].text


def test_reward_of_shape_takes_one_token_of_that_shape_from_the_supply() -> None:
    result = score(record(volcano({"action": "reward_of_shape", "shape": "circle", "reward": "blue-circle"})))
    assert player(result, "Ann")["rewards"] == {"blue-circle": 1}
    assert "blue-square is not a circle" in error_of(
        record(volcano({"action": "reward_of_shape", "shape": "circle", "reward": "blue-square"}))
    )
    exhausted = record(
        give("Ben", blue_circle=1),
        volcano({"action": "reward_of_shape", "shape": "circle", "reward": "blue-circle"}),
        reward_supply=1,
    )
    assert error_of(exhausted) == (
        "event 1 (volcano): special_action: no blue-circle is left in the supply: choose another circle"
    )


def test_two_rewards_takes_two_or_what_is_left() -> None:
    result = score(
        record(
            volcano({"action": "two_rewards", "reward": "black-hexagon"}),
            volcano({"action": "two_rewards", "reward": "black-hexagon"}, by="Ben"),
            reward_supply=3,
        )
    )
    assert player(result, "Ann")["rewards"] == {"black-hexagon": 2}
    assert player(result, "Ben")["rewards"] == {"black-hexagon": 1}
    assert result.sections[1].steps[-1].rule == "okanagan.special.two_rewards.shortage"


def test_choose_first_is_not_allowed_on_the_volcano() -> None:
    assert "'choose_first' can only be taken in a completed territory" in error_of(
        record(volcano({"action": "choose_first"}))
    )


def test_gifts_come_from_every_other_player_holding_a_token() -> None:
    document = record(
        give("Ben", green_square=1),
        give("Cy", blue_circle=2),
        volcano({"action": "gifts", "from": {"Ben": "green-square", "Cy": "blue-circle"}}),
    )
    result = score(document)
    assert player(result, "Ann")["rewards"] == {"green-square": 1, "blue-circle": 1}
    assert player(result, "Ben")["tokens"] == 0
    assert player(result, "Cy")["rewards"] == {"blue-circle": 1}


def test_gifts_are_checked_against_what_each_player_holds() -> None:
    ben_holds = give("Ben", green_square=1)
    assert "Ben holds tokens and must give one to Ann" in error_of(
        record(ben_holds, volcano({"action": "gifts", "from": {}}))
    )
    assert "Cy holds no token and gives nothing" in error_of(
        record(ben_holds, volcano({"action": "gifts", "from": {"Ben": "green-square", "Cy": "blue-circle"}}))
    )
    assert "Ben holds no blue-circle to give" in error_of(
        record(ben_holds, volcano({"action": "gifts", "from": {"Ben": "blue-circle"}}))
    )
    assert "Ann cannot give a gift to themself" in error_of(
        record(give("Ann", green_square=1), volcano({"action": "gifts", "from": {"Ann": "green-square"}}))
    )


def test_trade_swaps_one_token_each() -> None:
    document = record(
        give("Ann", green_square=1),
        give("Ben", yellow_hexagon=1),
        volcano({"action": "trade", "with": "Ben", "give": "green-square", "get": "yellow-hexagon"}),
    )
    result = score(document)
    assert player(result, "Ann")["rewards"] == {"yellow-hexagon": 1}
    assert player(result, "Ben")["rewards"] == {"green-square": 1}
    assert "Ben holds no black-circle to give" in error_of(
        record(
            give("Ann", green_square=1),
            volcano({"action": "trade", "with": "Ben", "give": "green-square", "get": "black-circle"}),
        )
    )
    assert "Ann cannot trade with themself" in error_of(
        record(
            give("Ann", green_square=2),
            volcano({"action": "trade", "with": "Ann", "give": "green-square", "get": "green-square"}),
        )
    )


def test_exchanges_swap_with_the_supply_keeping_colour_or_shape() -> None:
    document = record(
        give("Ann", green_square=2),
        volcano(
            {"action": "exchange_shape", "swaps": [["green-square", "green-circle"], ["green-square", "green-hexagon"]]}
        ),
        volcano({"action": "exchange_colour", "swaps": [["green-circle", "black-circle"]]}),
    )
    assert player(score(document), "Ann")["rewards"] == {"green-hexagon": 1, "black-circle": 1}
    assert "green-square for blue-square is not the same colour and another shape" in error_of(
        record(
            give("Ann", green_square=1),
            volcano({"action": "exchange_shape", "swaps": [["green-square", "blue-square"]]}),
        )
    )
    assert "an exchange makes 1 or 2 swaps, not 3" in error_of(
        record(volcano({"action": "exchange_colour", "swaps": [["green-square", "blue-square"]] * 3}))
    )
    assert "Ann holds no green-square to give" in error_of(
        record(volcano({"action": "exchange_colour", "swaps": [["green-square", "blue-square"]]}))
    )


def test_actions_without_effect_on_the_score_are_accepted() -> None:
    result = score(record(volcano({"action": "new_tiles"}), volcano({"action": "new_objectives"})))
    assert player(result, "Ann")["total"] == player(result, "Ben")["total"]


def test_the_options_offer_only_legal_choices() -> None:
    state = replay(parse_record(record(give("Ann", green_square=1), give("Ben", blue_circle=1), reward_supply=1)))
    options = special_action_options(state, "Ann")
    assert SpecialActionKind.TRADE in options.possible
    assert dict(options.holders) == {"Ben": (Reward("blue-circle"),)}
    assert Reward("green-square") not in options.supply
    assert dict(options.exchange_shape) == {Reward("green-square"): (Reward("green-hexagon"), Reward("green-circle"))}
    assert SpecialActionKind.CHOOSE_FIRST not in special_action_options(state, "Ann", collects=False).possible


def test_a_player_with_no_token_is_not_offered_a_trade_or_an_exchange() -> None:
    options = special_action_options(new_game(PLAYERS), "Cy")
    assert SpecialActionKind.TRADE not in options.possible
    assert SpecialActionKind.EXCHANGE_SHAPE not in options.possible
    assert SpecialActionKind.GOLD_NUGGET in options.possible


def test_the_second_swap_may_give_the_token_the_first_one_took() -> None:
    state = replay(parse_record(record(give("Ann", green_circle=1))))
    first = (Reward("green-circle"), Reward("blue-circle"))
    assert exchange_options(state, "Ann", SpecialActionKind.EXCHANGE_COLOUR) == dict(
        special_action_options(state, "Ann").exchange_colour
    )
    after_first = exchange_options(state, "Ann", SpecialActionKind.EXCHANGE_COLOUR, [first])
    # Ann now holds the blue circle only; the green circle is back in the supply.
    assert after_first == {
        Reward("blue-circle"): (Reward("green-circle"), Reward("yellow-circle"), Reward("black-circle"))
    }
    assert state.holdings["Ann"].held() == {Reward("green-circle"): 1}  # the state is not changed
    # The engine agrees: the record of both swaps is legal.
    swaps = [["green-circle", "blue-circle"], ["blue-circle", "black-circle"]]
    document = record(give("Ann", green_circle=1), volcano({"action": "exchange_colour", "swaps": swaps}))
    assert player(score(document), "Ann")["rewards"] == {"black-circle": 1}


def test_the_next_swap_sees_the_supply_the_swaps_so_far_left() -> None:
    # One token of each kind: Ann's green square emptied its kind, which stays gone once given back.
    state = replay(parse_record(record(give("Ann", green_square=1), reward_supply=1)))
    first = (Reward("green-square"), Reward("green-circle"))  # green circle: the last one
    assert exchange_options(state, "Ann", SpecialActionKind.EXCHANGE_SHAPE, [first]) == {
        Reward("green-circle"): (Reward("green-hexagon"),)
    }
    second = (Reward("green-circle"), Reward("green-hexagon"))
    assert exchange_options(state, "Ann", SpecialActionKind.EXCHANGE_SHAPE, [first, second]) == {}


def test_the_next_swap_offers_exactly_what_the_engine_accepts() -> None:
    state = replay(parse_record(record(give("Ann", green_square=1, blue_circle=1), give("Ben", black_circle=2))))
    state.exhausted.add(Reward("yellow-circle"))
    for kind in (SpecialActionKind.EXCHANGE_SHAPE, SpecialActionKind.EXCHANGE_COLOUR):
        for given, takens in exchange_options(state, "Ann", kind).items():
            for taken in takens:
                first = (given, taken)
                offered = {
                    (next_given, next_taken)
                    for next_given, next_takens in exchange_options(state, "Ann", kind, [first]).items()
                    for next_taken in next_takens
                }
                accepted = {
                    second for second in itertools.product(Reward, Reward) if _legal(state, kind, [first, second])
                }
                assert offered == accepted, (kind, first)


def _legal(state: GameState, kind: SpecialActionKind, swaps: list[tuple[Reward, Reward]]) -> bool:
    try:
        apply_special_action(state.copy(), "Ann", Exchange(kind, tuple(swaps)), in_territory=False)
    except RecordError:
        return False
    return True


def test_the_next_swap_refuses_swaps_that_do_not_hold() -> None:
    state = replay(parse_record(record(give("Ann", green_square=1))))
    with pytest.raises(RecordError, match="Ann holds no blue-square to give") as error:
        exchange_options(
            state, "Ann", SpecialActionKind.EXCHANGE_COLOUR, [(Reward("blue-square"), Reward("green-square"))]
        )
    assert error.value.where == ("swaps",)
    three = [(Reward("green-square"), Reward("green-circle"))] * 3
    with pytest.raises(RecordError, match="an exchange makes 1 or 2 swaps, not 3"):
        exchange_options(state, "Ann", SpecialActionKind.EXCHANGE_SHAPE, three)
    with pytest.raises(ValueError, match="trade is not an exchange"):
        exchange_options(state, "Ann", SpecialActionKind.TRADE)
