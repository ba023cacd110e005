"""The rules' objects as JSON data (rules.data): every state and outcome of random games comes back equal and of
the same types, through JSON text; data that ``to_data`` did not write is refused with ``DataError``."""

from __future__ import annotations

import contextlib
import enum
import json
import sys
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules import apply_event, new_game, parse_record
from rules.data import ENUMS, DataError, param_from_data, param_to_data
from rules.explanation import Changes, Choices, Message, Order, Players, Plural, Quoted, Series, Tokens
from rules.game import EventOutcome, GameState, TerritoryOutcome
from support.random_games import RandomChooser, random_record
from tests.rules.test_properties import SETTINGS, games


def shape(value: object) -> object:
    """``value`` with the type of everything in it, so that equal shapes mean equal values of the same types
    (``Players(("Ann",)) == Series(("Ann",))``, as tuples, but their shapes differ)."""
    if isinstance(value, Plural):
        return ("Plural", str(value), value.plural, value.number)
    if isinstance(value, Message):
        return ("Message", value.template, shape(value.params))
    if isinstance(value, Mapping):  # a dict, or the immutable mapping of a step without params
        return ("mapping", [(shape(key), shape(item)) for key, item in value.items()])
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(repr(shape(item)) for item in value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [shape(item) for item in value])
    if hasattr(value, "__dataclass_fields__"):
        return (type(value).__name__, [(name, shape(getattr(value, name))) for name in value.__dataclass_fields__])
    return (type(value).__name__, value)


def through_json(data: object) -> Any:
    return json.loads(json.dumps(data))


def states_of(built: rules.Record) -> list[tuple[GameState, EventOutcome]]:
    """The state after each event of ``built`` and what the event did, its events as the record reads them (in
    the record's order of kinds, as a site reads them from its log)."""
    record = parse_record(built.to_json())
    state = new_game(record.players, record.options)
    out = []
    for index, event in enumerate(record.events):
        outcome = apply_event(state, event, index)
        out.append((state.copy(), outcome))
    return out


@SETTINGS
@given(games)
def test_every_state_and_outcome_of_a_random_game_comes_back_equal_and_of_the_same_types(record: Any) -> None:
    for state, outcome in states_of(record):
        back = GameState.from_data(through_json(state.to_data()))
        assert back == state
        assert shape(back) == shape(state)
        again = EventOutcome.from_data(through_json(outcome.to_data()), state.players)
        assert again == outcome
        assert shape(again) == shape(outcome)
    for territory in state.territories if record.events else ():
        assert shape(TerritoryOutcome.from_data(through_json(territory.to_data()))) == shape(territory)


def test_a_state_without_its_log_comes_back_without_it_and_the_next_event_applies_to_it_alike() -> None:
    record = random_record(RandomChooser(7), 3, 14, 8)
    state = new_game(record.players, record.options)
    for index, event in enumerate(record.events):
        stored = GameState.from_data(through_json(state.without_log().to_data()))
        assert apply_event(stored, event, index) == apply_event(state, event, index)
        assert stored.without_log() == state.without_log()


def test_every_identifier_of_the_rules_can_be_a_param() -> None:
    defined = {
        kind
        for name, module in sys.modules.items()
        if name.startswith("rules.")
        for kind in vars(module).values()
        if isinstance(kind, enum.EnumType) and issubclass(kind, enum.StrEnum) and kind.__module__ == name
    }
    assert defined == set(ENUMS.values())


@pytest.mark.parametrize(
    "param",
    [
        "Ann", 3, True, Quoted("12.5"), rules.Reward.BLUE_CIRCLE, Series(()), Choices(("a", rules.Shape.CIRCLE)),
        Players(("Ann", "Ben")), Tokens.of({rules.Reward.BLUE_CIRCLE: 2}), Changes(()),
        Order((Players(("Ann", "Ben")), rules.explanation.Figure("Cy", 2))),
        rules.explanation.Parts((rules.explanation.Part(2, rules.Building.FARM),)),
        rules.explanation.Change(None, -2), rules.explanation.Gift("Ben", rules.Reward.BLUE_CIRCLE),
        Message(rules.explanation.ngettext_lazy("{count} nugget", "{count} nuggets"), count=2, who=Players(("Ann",))),
    ],
)  # fmt: skip
def test_every_kind_of_param_comes_back_as_it_was(param: rules.explanation.Param) -> None:
    assert shape(param_from_data(through_json(param_to_data(param)))) == shape(param)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
)


@given(json_values)
def test_any_json_that_to_data_did_not_write_is_refused_with_a_data_error_and_nothing_else(data: Any) -> None:
    for read in (GameState.from_data, lambda value: EventOutcome.from_data(value, ("Ann", "Ben")), param_from_data):
        with contextlib.suppress(DataError):
            read(data)


@pytest.mark.parametrize(
    "change",
    [
        lambda data: data.pop("supply"),
        lambda data: data.update(nuggets_left="7"),
        lambda data: data.update(round=True),
        lambda data: data.update(exhausted=["gold"]),
        lambda data: data["holdings"].update(Ann={"rewards": {}, "nuggets": 0, "objectives": [{"kind": 3}]}),
        lambda data: data["log"].append({"index": 0, "event": {"type": "exec"}, "steps": []}),
        lambda data: data["log"].append(
            {"index": 0, "event": {"type": "round_end"}, "steps": [["r", "{p}", {"p": ["enum", "os", "system"]}]]}
        ),
        lambda data: data["log"].append(
            {"index": 0, "event": {"type": "round_end"}, "steps": [["r", "{p}", {"p": ["message", "{q.x}", {}]}]]}
        ),
    ],
)  # fmt: skip
def test_a_tampered_state_is_refused_with_a_data_error(change: Any) -> None:
    data = through_json(states_of(random_record(RandomChooser(2), 3, 6, 4))[-1][0].to_data())
    change(data)
    with pytest.raises(DataError):
        GameState.from_data(data)
