"""Properties of random legal games built through the step API, and of corrupted records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import (
    Building,
    GameState,
    LoneChoice,
    RecordError,
    Reward,
    Territory,
    apply_event,
    buildings_room,
    new_game,
    parse_record,
    replay,
    score_okanagan,
    score_record,
)
from rules.buildings import most_counted
from rules.components import whole_game_buildings
from rules.record import AdjustEvent, RoundEndEvent, TerritoryEvent
from support.random_games import random_record

SETTINGS = settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])


class DrawChooser:
    """Choices drawn from Hypothesis, so that failures shrink to small games."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick[T](self, options: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(list(options)))

    def number(self, low: int, high: int) -> int:
        return self.data.draw(st.integers(low, high))


games = st.builds(
    lambda data, players, territories, others: random_record(DrawChooser(data), players, territories, others),
    st.data(),
    st.integers(2, 4),
    st.integers(0, 12),
    st.integers(0, 6),
)


@SETTINGS
@given(games)
def test_tokens_and_nuggets_are_conserved_after_every_event(record: Any) -> None:
    state = new_game(record.players, record.options)
    for index, event in enumerate(record.events):
        apply_event(state, event, index)
        for reward in Reward:
            held = sum(holding.rewards[reward] for holding in state.holdings.values())
            assert state.supply[reward] + held == record.options.reward_supply
            assert state.supply[reward] >= 0
        nuggets = sum(holding.nuggets for holding in state.holdings.values())
        assert state.nuggets_left + nuggets == record.options.nugget_supply


@SETTINGS
@given(games)
def test_totals_equal_their_parts_and_ranks_follow_total_then_tokens(record: Any) -> None:
    result = score_record(record).to_json()
    players = result["players"]
    for entry in players:
        assert entry["objective_points"] == sum(card["points"] for card in entry["objectives"])
        assert entry["explorer_points"] == 4 * entry["explorer_sets"]
        assert entry["total"] == entry["explorer_points"] + entry["objective_points"] + entry["nugget_points"]
        assert entry["tokens"] == sum(entry["rewards"].values())
    for first in players:
        for second in players:
            key_first, key_second = (first["total"], first["tokens"]), (second["total"], second["tokens"])
            assert (first["rank"] < second["rank"]) == (key_first > key_second)
    assert result["winners"] == [entry["name"] for entry in players if entry["rank"] == 1]


@SETTINGS
@given(games)
def test_nobody_collects_more_than_their_influence_or_the_pool(record: Any) -> None:
    territories = score_record(record).to_json()["territories"]
    events = [event for event in record.events if isinstance(event, TerritoryEvent)]
    for entry, event in zip(territories, events, strict=True):
        for player, count in entry["collected"].items():
            assert count <= entry["influence"][player]
        assert sum(entry["collected"].values()) <= sum(event.rewards.values())
        order = entry["order"]
        assert [entry["influence"][p] for p in order] == sorted((entry["influence"][p] for p in order), reverse=True)


@SETTINGS
@given(games)
def test_replay_is_deterministic_and_the_record_round_trips(record: Any) -> None:
    text = json.dumps(record.to_json())
    assert parse_record(json.loads(text)) == record
    assert score_okanagan(json.loads(text)).to_json() == score_record(record).to_json()
    assert replay(record) == replay(record)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3),
    max_leaves=8,
)


def corrupt(document: Any, data: st.DataObject) -> Any:
    """Replace, delete or add one value somewhere in ``document``."""
    if isinstance(document, dict) and document and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(document)))
        action = data.draw(st.sampled_from(["descend", "replace", "delete"]))
        if action == "delete":
            return {k: v for k, v in document.items() if k != key}
        value = corrupt(document[key], data) if action == "descend" else data.draw(json_values)
        return {**document, key: value}
    if isinstance(document, list) and document and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(document) - 1))
        return [*document[:index], corrupt(document[index], data), *document[index + 1 :]]
    return data.draw(
        json_values
        | st.sampled_from(
            ["forest", "green-circle", "Ann", "farm", "gold_nugget", "territory", "rewards", -1, 0, 3, 99]
        )
    )


@SETTINGS
@given(games, st.data())
def test_a_corrupted_record_validates_or_raises_the_engines_error(record: Any, data: st.DataObject) -> None:
    document = record.to_json()
    for _ in range(data.draw(st.integers(1, 3))):
        document = corrupt(document, data)
    try:
        result = score_okanagan(document)
    except RecordError:
        return
    assert result.to_json()["format"] == "okanagan-result/1"


def alone(player: str, building: Building, count: int) -> TerritoryEvent:
    """A territory where only ``player`` built, who took the special action (not recorded)."""
    return TerritoryEvent(
        Territory.LAKE, player, {}, {player: {building: count}}, lone_choice=LoneChoice.SPECIAL_ACTION
    )


def beyond(state: GameState, player: str, building: Building, room: int) -> list[TerritoryEvent]:
    """Territories counting ``room + 1`` more of ``player``'s ``building``, each within one event's limit."""
    limit = whole_game_buildings(len(state.players))[building]
    events, left = [], room + 1
    while left:
        events.append(alone(player, building, min(limit, left)))
        left -= events[-1].buildings[player][building]
    return events


@SETTINGS
@given(games, st.data())
def test_a_building_counted_in_more_territories_than_it_can_be_is_refused_naming_the_event_and_player(
    record: Any, data: st.DataObject
) -> None:
    state = replay(record)
    player, building = data.draw(st.sampled_from(record.players)), data.draw(st.sampled_from(list(Building)))
    players = len(record.players)
    room = most_counted(whole_game_buildings(players))[building] - state.buildings_counted.get(player, {}).get(
        building, 0
    )
    events = beyond(state, player, building, room)
    with pytest.raises(RecordError) as refused:
        replay(replace(record, events=(*record.events, *events)))
    assert refused.value.event_index == len(record.events) + len(events) - 1
    assert refused.value.where[1:3] == ("buildings", player) and player in refused.value.message
    # up to the bound it is accepted: the last territory with one fewer
    *most, last = events
    count = last.buildings[player][building] - 1
    fewer = [*most, alone(player, building, count)] if count else most
    replay(replace(record, events=(*record.events, *fewer)))


@SETTINGS
@given(games, st.data())
def test_round_1_cannot_end_after_more_than_the_round_1_buildings_and_may_go_on_without_its_end(
    record: Any, data: st.DataObject
) -> None:
    state = replay(record)
    assume(state.round == 1)
    player, building = data.draw(st.sampled_from(record.players)), data.draw(st.sampled_from(list(Building)))
    events = beyond(state, player, building, buildings_room(state, player)[building])
    played = (*record.events, *events)
    replay(replace(record, events=played))  # legal: round 2 may have begun without its end recorded
    with pytest.raises(RecordError) as refused:
        replay(replace(record, events=(*played, RoundEndEvent())))
    assert refused.value.event_index == len(played) and refused.value.event_type == "round_end"
    assert player in refused.value.message


@SETTINGS
@given(games, st.data())
def test_two_corrections_move_any_held_token_to_another_player(record: Any, data: st.DataObject) -> None:
    state = replay(record)
    held = [(player, reward) for player in record.players for reward in state.holdings[player].held()]
    assume(held)
    giver, reward = data.draw(st.sampled_from(held))
    receiver = data.draw(st.sampled_from([player for player in record.players if player != giver]))
    moved = replay(
        replace(
            record,
            events=(*record.events, AdjustEvent(giver, {reward: -1}), AdjustEvent(receiver, {reward: 1})),
        )
    )
    assert moved.holdings[giver].rewards[reward] == state.holdings[giver].rewards[reward] - 1
    assert moved.holdings[receiver].rewards[reward] == state.holdings[receiver].rewards[reward] + 1
    assert (moved.supply, moved.exhausted) == (state.supply, state.exhausted)


def _shuffled(value: Any, data: st.DataObject) -> Any:
    """``value`` with the keys of every JSON object in another order (as a database may store them)."""
    if isinstance(value, dict):
        keys = data.draw(st.permutations(list(value)))
        return {key: _shuffled(value[key], data) for key in keys}
    if isinstance(value, list):
        return [_shuffled(item, data) for item in value]
    return value


@SETTINGS
@given(games, st.data())
def test_what_the_engine_says_does_not_depend_on_the_order_of_a_json_object_s_keys(
    record: Any, data: st.DataObject
) -> None:
    as_written = score_okanagan(record.to_json())
    shuffled = score_okanagan(_shuffled(record.to_json(), data))
    assert shuffled.to_json() == as_written.to_json()
    assert [step.text for section in shuffled.sections for step in section.steps] == [
        step.text for section in as_written.sections for step in section.steps
    ]
    assert [outcome.event.to_json() for outcome in shuffled.state.log] == [
        outcome.event.to_json() for outcome in as_written.state.log
    ]
