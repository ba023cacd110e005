"""What ``rules`` decides for a partly entered event, so that the entry can skip taps: a tie-break tapped
player by player, a collector's pick that leaves nothing to choose, an objective card read from its icons."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import (
    Building,
    CollectionTurn,
    Colour,
    ObjectiveKind,
    RecordError,
    Reward,
    Shape,
    Territory,
    assess_influence,
    card_of_rewards,
    full_set_card,
    on_one_card,
)

PLAYERS = ("Ann", "Ben", "Cy", "Dee")
BUILDINGS = st.dictionaries(
    st.sampled_from(PLAYERS),
    st.dictionaries(st.sampled_from(list(Building)), st.integers(1, 2), min_size=1),
    max_size=4,
)
POOLS = st.dictionaries(st.sampled_from(list(Reward)), st.integers(1, 4), max_size=5)


@given(BUILDINGS, st.data())
def test_tapping_the_tied_players_in_any_order_gives_a_legal_order(
    buildings: dict[str, dict[Building, int]], data: st.DataObject
) -> None:
    report = assess_influence(PLAYERS, Territory.FOREST, "Ann", buildings)
    tied = [player for level in report.ties for player in level]
    chosen: list[str] = []
    tie = report.tie_order(chosen)
    while tie.order is None:
        assert tie.undecided and set(tie.undecided) <= set(tied)
        chosen.append(data.draw(st.sampled_from(tie.undecided)))
        tie = report.tie_order(chosen)
    order, _steps = report.check_order(tie.order if report.ties else None)  # the rules accept it
    assert order == tie.order
    # Each tied group in the order tapped; no more taps than the tied players less one per group.
    assert len(chosen) == sum(len(level) - 1 for level in report.ties)
    for level in report.ties:
        assert [player for player in order if player in level][: len(level) - 1] == [p for p in chosen if p in level]


def test_a_player_who_is_not_tied_or_tapped_twice_is_refused() -> None:
    report = assess_influence(PLAYERS, Territory.LAKE, "Ann", {p: {Building.SILO: 1} for p in ("Ann", "Ben", "Cy")})
    assert report.tie_order(["Ben"]).undecided == ("Ann", "Cy")
    assert report.tie_order(["Ben", "Cy"]).order == ("Ben", "Cy", "Ann")
    for chosen in (["Dee"], ["Ben", "Ben"]):
        with pytest.raises(RecordError, match="not among the tied players"):
            report.tie_order(chosen)


@given(POOLS, st.integers(0, 6), st.data())
def test_a_settled_pick_is_the_only_legal_one(pool: dict[Reward, int], influence: int, data: st.DataObject) -> None:
    """``settled`` fills a pick in exactly when one pick is possible from what was tapped, and that pick is
    legal: the entitlement, from the pool."""
    turn = CollectionTurn("Ann", influence, pool)
    partial: dict[Reward, int] = {}
    while True:
        picks = _legal_picks(turn, partial)
        settled = turn.settled(partial)
        if settled is not None:
            assert picks == [settled]
            return
        assert len(picks) > 1
        reward = data.draw(st.sampled_from(sorted(turn.still_allowed(partial))))
        partial[reward] = partial.get(reward, 0) + 1


def _legal_picks(turn: CollectionTurn, partial: dict[Reward, int]) -> list[dict[Reward, int]]:
    """Every pick of exactly the entitlement from the pool that contains ``partial`` (brute force)."""
    kinds = list(turn.left)
    picks = []
    for counts in itertools.product(*(range(turn.left[kind] + 1) for kind in kinds)):
        pick = {kind: count for kind, count in zip(kinds, counts, strict=True) if count}
        if sum(counts) == turn.may_take and all(pick.get(kind, 0) >= count for kind, count in partial.items()):
            picks.append(pick)
    return picks


@pytest.mark.parametrize(
    ("icons", "kind", "complete"),
    [
        (["blue-circle"], ObjectiveKind.SPECIFIC, True),
        (["blue-circle", "blue-square"], ObjectiveKind.TERRITORY, False),
        (["blue-circle", "blue-square", "blue-hexagon"], ObjectiveKind.TERRITORY, True),
        (["blue-circle", "green-circle"], ObjectiveKind.SHAPE, False),
        (["blue-circle", "green-circle", "black-circle", "yellow-circle"], ObjectiveKind.SHAPE, True),
    ],
)
def test_a_cards_kind_follows_from_its_icons(icons: list[str], kind: ObjectiveKind, complete: bool) -> None:
    card = card_of_rewards([Reward(icon) for icon in icons])
    assert card.kind is kind and card.complete is complete
    assert sorted(reward.value for reward in card.rewards) == sorted(icons)


@pytest.mark.parametrize("icons", [[], ["blue-circle", "green-square"], ["blue-circle", "blue-circle"]])
def test_icons_no_card_shows_are_refused(icons: list[str]) -> None:
    with pytest.raises(RecordError):
        card_of_rewards([Reward(icon) for icon in icons])


@given(st.sets(st.sampled_from(list(Reward)), min_size=1))
def test_rewards_fit_on_one_card_exactly_when_a_card_shows_them(icons: set[Reward]) -> None:
    """The entry starts a new card when a tapped icon cannot join the card so far: that must mean no card,
    however many icons were added later, could show them all."""
    fits = on_one_card(sorted(icons))
    assert fits == (len(icons) == 1 or len({r.colour for r in icons}) == 1 or len({r.shape for r in icons}) == 1)
    if not fits:
        for more in range(1, 4):
            for extra in itertools.combinations(sorted(set(Reward) - icons), more):
                assert not on_one_card([*icons, *extra])


def test_no_icons_fit_on_no_card() -> None:
    assert not on_one_card([])


@pytest.mark.parametrize("colour", list(Colour))
def test_a_colours_full_set_is_its_complete_territory_card(colour: Colour) -> None:
    card = full_set_card(colour)
    assert card.kind is ObjectiveKind.TERRITORY and card.complete
    assert {reward.colour for reward in card.rewards} == {colour} and len(card.rewards) == 3


@pytest.mark.parametrize("shape", list(Shape))
def test_a_shapes_full_set_is_its_complete_shape_card(shape: Shape) -> None:
    card = full_set_card(shape)
    assert card.kind is ObjectiveKind.SHAPE and card.complete
    assert {reward.shape for reward in card.rewards} == {shape} and len(card.rewards) == 4
