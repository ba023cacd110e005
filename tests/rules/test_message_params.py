"""The engine's sentences carry values, not English it wrote out: every plain text param is a player's
name or a note a player typed, so that each edge can say the rest in its reader's words."""

from __future__ import annotations

from enum import StrEnum

import pytest

from rules import RecordError, score_okanagan
from rules.components import Reward
from rules.explanation import Message, Param, Players, Quoted, Series, Tokens, english
from rules.explanation import gettext_noop as _
from support.random_games import RandomChooser, random_record
from tests.rules.builders import record, territory


def plain_texts(value: Param) -> list[str]:
    """The plain ``str`` values inside ``value`` (a name, a note...), looking into lists and orders."""
    if isinstance(value, (Message, Quoted, StrEnum)):
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [text for item in value if isinstance(item, (str, tuple)) for text in plain_texts(item)]
    return []


@pytest.mark.parametrize("seed", range(8))
def test_every_plain_text_param_of_a_game_s_explanation_is_a_name_or_a_note(seed: int) -> None:
    document = random_record(RandomChooser(seed), players=4, territories=12, others=8).to_json()
    result = score_okanagan(document)
    typed = set(result.state.players) | {str(event.get("note", "")) for event in document["events"]}
    for section in result.sections:
        for step in section.steps:
            for key, value in step.params.items():
                for text in plain_texts(value):
                    assert text in typed, (step.message, key, text)


def test_a_list_param_is_typed_and_says_nobody_or_nothing_when_empty() -> None:
    assert english("{players}", {"players": Players(())}) == "nobody"
    assert english("{tokens}", {"tokens": Tokens.of({})}) == "nothing"
    assert english("{kinds}", {"kinds": Series((Reward.BLUE_CIRCLE, Reward.BLACK_SQUARE))}) == (
        "blue-circle and black-square"
    )


def test_an_error_s_message_is_a_template_with_typed_params() -> None:
    with pytest.raises(RecordError) as caught:
        score_okanagan(record(territory({"Ann": {"farm": 1}, "Ben": {"farm": 1}}, order=[])))
    message = caught.value.message
    assert message.template == _("must list every player with influence once ({expected}), not {given}")
    assert message.params == {"expected": ("Ann", "Ben"), "given": ()}
    assert isinstance(message.params["given"], Players)
    assert str(message) == "must list every player with influence once (Ann and Ben), not nobody"
