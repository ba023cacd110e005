"""Records a table cannot have played: buildings counted in more territories than they can touch, and a
correction that moves the last token of a kind from one player to another."""

from __future__ import annotations

from rules import parse_record, replay
from rules.components import Reward
from tests.rules.builders import error_of, give, player, record, score

BEAVER_DAM = {"type": "beaver_dam", "player": "Cy", "reward": "blue-circle"}


def test_a_correction_moves_the_last_token_of_a_kind_from_one_player_to_another() -> None:
    # Ann was given the last blue circle by mistake: Ben collected it. An adjust is one player's, so the
    # correction is two: Ann gives it back, then Ben takes it.
    document = record(
        give("Ann", blue_circle=2), give("Ann", blue_circle=-1), give("Ben", blue_circle=1), reward_supply=2
    )
    result = score(document)
    assert (player(result, "Ann")["rewards"], player(result, "Ben")["rewards"]) == (
        {"blue-circle": 1},
        {"blue-circle": 1},
    )
    assert [step.rule for step in result.sections[-2].steps] == ["okanagan.adjust", "okanagan.adjust.exhausted"]
    assert result.sections[-2].steps[1].text == (
        "Ben takes 1 × blue-circle that a correction gave back; the kind stays exhausted for the rest of the game."
    )
    state = replay(parse_record(document))
    assert Reward.BLUE_CIRCLE in state.exhausted
    assert (state.supply[Reward.BLUE_CIRCLE], state.available(Reward.BLUE_CIRCLE)) == (0, 0)


def test_only_what_corrections_gave_back_can_be_taken_again_and_the_kind_stays_exhausted() -> None:
    exhausted = give("Ann", blue_circle=2)
    back = give("Ann", blue_circle=-1)
    assert "the supply has 1 × blue-circle left, cannot give 2" in error_of(
        record(exhausted, back, give("Ben", blue_circle=2), reward_supply=2)
    )
    assert (
        error_of(record(exhausted, back, give("Ben", blue_circle=1), give("Cy", blue_circle=1), reward_supply=2))
        == "event 3 (adjust): rewards: the supply has 0 × blue-circle left, cannot give 1"
    )
    # the game itself never takes a token of an exhausted kind again, even one a correction gave back
    assert (
        error_of(record(exhausted, back, BEAVER_DAM, reward_supply=2))
        == "event 2 (beaver_dam): reward: no blue-circle is left in the supply"
    )
    # taking first, giving back after, is still refused: the supply is empty when Ben takes
    assert "the supply has 0 × blue-circle left, cannot give 1" in error_of(
        record(exhausted, give("Ben", blue_circle=1), back, reward_supply=2)
    )


def test_a_token_given_back_before_the_kind_ran_out_is_the_games_again() -> None:
    document = record(give("Ann", blue_circle=1), give("Ann", blue_circle=-1), BEAVER_DAM, reward_supply=2)
    assert player(score(document), "Cy")["rewards"] == {"blue-circle": 1}
    state = replay(parse_record(document))
    assert state.corrected_back == {}
