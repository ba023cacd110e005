"""What text a record or a sheet may hold: names, notes, and the limits on a record's size."""

from __future__ import annotations

import pytest

from rules import RulesError, score_document
from rules.reading import read_json
from rules.record import MAX_EVENTS
from rules.text import name_key, normal_text, same_name

from .builders import error_of, give, record, territory


@pytest.mark.parametrize(
    ("names", "error"),
    [
        (("Ann", "Ann\u200b"), "players: the name 'Ann\\u200b' contains an invisible character (U+200B)"),
        (("Ann", "\u200bAnn"), "players: the name '\\u200bAnn' contains an invisible character (U+200B)"),
        (("Ann", "A\x00n"), "players: the name 'A\\x00n' contains a control character (U+0000)"),
        (("Ann", "B\u202eNA"), "players: the name 'B\\u202eNA' contains a character that reverses the direction"),
        (("Ann", "\u3000"), "players: the name '\\u3000' shows nothing once blank and invisible characters"),
        (("Ann", "\u200d"), "players: the name '\\u200d' shows nothing once blank and invisible characters"),
        (("Ann", "B" * 41), "is longer than 40 characters"),
        (("Ann", " Ben"), "players: the name ' Ben' must be trimmed, in Unicode normal form C, with single spaces"),
        (("Ann", "Ben  Lee"), "must be trimmed, in Unicode normal form C, with single spaces"),
        (("Ann", "ANN"), "players: 'Ann' and 'ANN' would be the same player"),
        (("Ann", "Ａｎｎ"), "players: 'Ann' and 'Ａｎｎ' would be the same player"),
        (("Ann", "Ann"), "players: 'Ann' is named twice"),
        (("Ann", 3), "players: a player's name must be a text, not 3"),
        (("Ann", "Ann\ufff9"), "players: the name 'Ann\\ufff9' contains an invisible character (U+FFF9)"),
        (("Ann", "\U00013430"), "shows nothing once blank and invisible characters are left out"),
        (("Ann", "A\u0600nn"), "contains an invisible character (U+0600)"),
        (("Ann", "Ann\ue000"), "contains a character with no agreed look (U+E000)"),
        (("Ann", "Ann\u0378"), "contains a character with no agreed look (U+0378)"),
        (("Ann", "Ann\uffff"), "contains a character that is not valid Unicode (U+FFFF)"),
        (("Ann", "Ann\u200d"), "contains an invisible character (U+200D)"),
    ],
)
def test_names_that_hide_or_disguise_a_player_are_refused(names: tuple[object, ...], error: str) -> None:
    document = record(players=names)  # type: ignore[arg-type]
    assert error in error_of(document)


def test_the_same_name_in_either_unicode_form_is_one_player() -> None:
    composed, decomposed = "Zoé", "Zoe\u0301"
    assert same_name(composed, decomposed)
    # Read from a file, the two forms become one, so the events naming either find the player.
    document = read_json(
        '{"format": "okanagan-record/1", "players": ["Zo\\u00e9", "Ben"], '
        '"events": [{"type": "adjust", "player": "Zoe\\u0301", "nuggets": 1}]}'
    )
    assert score_document(document).to_json()["players"][0]["nuggets"] == 1
    # Given unread, the decomposed name is not the stored form: refused rather than stored twice.
    assert "normal form C" in error_of(record(players=(decomposed, "Ben")))


def test_names_people_really_have_are_accepted() -> None:
    england = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    names = ("Zoë Lee", "김민준", "👩\u200d🚀 Mia", "O'Brien-Ó")
    score_document(record(players=("Ann ❤\ufe0f", f"{england} Ben", "محمد\u200cعلی")))
    assert [entry["name"] for entry in score_document(record(players=names)).to_json()["players"]] == list(names)
    assert normal_text("  Zoë   Lee\n") == "Zoë Lee"
    assert name_key("ＡＮＮ\u200b") == name_key("ann")


@pytest.mark.parametrize(
    ("note", "error"),
    [
        ("\ud800", "note: contains a character that is not valid Unicode (U+D800)"),
        ("a\x00b", "note: contains a control character (U+0000)"),
        ("\u202eecnalab", "note: contains a character that reverses the direction of text (U+202E)"),
        ("   ", "note: shows nothing once blank and invisible characters are left out"),
        ("\ufff9", "note: shows nothing once blank and invisible characters are left out"),
        ("x" * 201, "note: is longer than 200 characters"),
        (7, "note: must be a text, not 7"),
    ],
)
def test_a_correction_note_must_be_visible_valid_text(note: object, error: str) -> None:
    event = give("Ann", nuggets=1) | {"note": note}
    assert error_of(record(event)) == f"event 0 (adjust): {error}"


def test_a_note_people_write_is_kept() -> None:
    event = give("Ann", nuggets=1) | {"note": "Ann's nugget — oublié 😅"}
    assert score_document(record(event)).to_json()["players"][0]["nuggets"] == 1


def test_a_record_has_at_most_so_many_events() -> None:
    events = [{"type": "adjust", "player": "Ann", "nuggets": 1}, {"type": "adjust", "player": "Ann", "nuggets": -1}]
    assert error_of(record(*events * (MAX_EVENTS // 2 + 1))) == (
        f"events: a game has at most {MAX_EVENTS} events, not {MAX_EVENTS + 2}"
    )
    score_document(record(*events * (MAX_EVENTS // 2)))


def test_an_order_where_nobody_has_influence_is_refused() -> None:
    empty = territory({}, {"green-square": 1}, closed_by="Ann", order=["Ben", "Ann"])
    assert error_of(record(empty)) == (
        "event 0 (territory): order: nobody has influence here, so there is no order: leave it out, not Ben and Ann"
    )


@pytest.mark.parametrize(
    "players",
    [
        [{"name": "Ann"}, {"name": "ann"}],
        [{"name": "Ann\u200b"}],
        [{"name": "\x07"}],
    ],
)
def test_score_sheets_follow_the_same_name_rules(players: list[dict[str, object]]) -> None:
    sheet = {"format": "small-islands-sheet/1", "players": players}
    with pytest.raises(RulesError, match="^players: "):
        score_document(sheet)
