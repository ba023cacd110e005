"""The events besides territories: promo tiles, objectives, the end of round 1, corrections."""

from __future__ import annotations

from rules import parse_record, replay
from tests.rules.builders import error_of, give, player, record, score


def test_the_beaver_dam_takes_one_token_from_the_supply() -> None:
    result = score(record({"type": "beaver_dam", "player": "Cy", "reward": "yellow-square"}))
    assert player(result, "Cy")["rewards"] == {"yellow-square": 1}
    assert result.to_json()["supply"]["rewards"]["yellow-square"] == 11
    empty = record(
        give("Ann", yellow_square=1), {"type": "beaver_dam", "player": "Cy", "reward": "yellow-square"}, reward_supply=1
    )
    assert error_of(empty) == "event 1 (beaver_dam): reward: no yellow-square is left in the supply"


def test_objectives_replace_the_earlier_cards() -> None:
    first = {"type": "objectives", "player": "Ann", "cards": [{"kind": "specific", "rewards": ["blue-circle"]}]}
    second = {"type": "objectives", "player": "Ann", "cards": []}
    state = replay(parse_record(record(first, {"type": "round_end"}, second)))
    assert state.holdings["Ann"].objectives == ()
    assert state.round == 2


def test_objective_cards_are_checked_against_their_kind() -> None:
    def card_error(*cards: dict[str, object]) -> str:
        return error_of(record({"type": "objectives", "player": "Ann", "cards": list(cards)}))

    assert "a specific card shows 1 reward, not 2" in card_error(
        {"kind": "specific", "rewards": ["blue-circle", "blue-square"]}
    )
    assert "a territory card's rewards are all of one colour" in card_error(
        {"kind": "territory", "rewards": ["blue-circle", "green-circle"]}
    )
    assert "a shape card's rewards are all of one shape" in card_error(
        {"kind": "shape", "rewards": ["blue-circle", "blue-square"]}
    )
    assert "a card shows each reward once" in card_error({"kind": "shape", "rewards": ["blue-circle", "blue-circle"]})
    assert "a shape card shows 2 to 4 rewards, not 1" in card_error({"kind": "shape", "rewards": ["blue-circle"]})
    assert "a player keeps at most 3 cards, not 4" in card_error(
        *[{"kind": "specific", "rewards": ["blue-circle"]}] * 4
    )


def test_round_1_ends_at_most_once() -> None:
    assert error_of(record({"type": "round_end"}, {"type": "round_end"})) == (
        "event 1 (round_end): round 1 has already ended: a game has two rounds"
    )


def test_a_correction_moves_tokens_and_nuggets_within_the_limits() -> None:
    result = score(
        record(
            give("Ann", nuggets=2, blue_circle=2),
            {
                "type": "adjust",
                "player": "Ann",
                "rewards": {"blue-circle": -1},
                "nuggets": -1,
                "note": "forgot the fur",
            },
        )
    )
    assert (player(result, "Ann")["rewards"], player(result, "Ann")["nuggets"]) == ({"blue-circle": 1}, 1)
    assert result.sections[1].steps[0].text == "Correction for Ann: blue-circle -1 and nuggets -1 (forgot the fur)."
    assert "Ann holds 0 × blue-circle, cannot give back 1" in error_of(
        record({"type": "adjust", "player": "Ann", "rewards": {"blue-circle": -1}})
    )
    assert "the supply has 12 × blue-circle left, cannot give 13" in error_of(record(give("Ann", blue_circle=13)))
    assert "only 16 nugget cards are left, cannot take 17" in error_of(record(give("Ann", nuggets=17)))
    assert "Ann holds 0 nuggets, cannot give back 1" in error_of(record(give("Ann", nuggets=-1)))
