"""``python -m rules score|explain FILE``: the result on stdout, or exit 2 with one line on stderr."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.cli import main

DATA = Path(__file__).parent.parent / "data"
FOREST = DATA / "okanagan-forest-example.json"


def cooper_sheet(royal_orders: dict[str, int]) -> dict[str, object]:
    """The spec's Cooper Island sheet with other royal-order keys."""
    sheet = json.loads((DATA / "cooper-island-spec-example.json").read_text())
    sheet["players"][0]["royal_orders"] = royal_orders
    return dict(sheet)


def test_whole_numbers_written_as_decimals_are_whole_numbers() -> None:
    sheet = cooper_sheet({"3": 6.0, "5": 4})
    status, out, _err = run("score", "-", stdin=json.dumps(sheet))
    assert status == 0
    assert json.loads(out)["players"][0]["royal_order_points"] == 10


def test_a_file_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"format": "\xe9"}')
    assert main(["score", str(path)], stdout=io.StringIO(), stderr=(err := io.StringIO())) == 2
    assert err.getvalue() == "error: the file is not UTF-8 text (byte 12)\n"


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(args), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_score_prints_the_result_json() -> None:
    status, out, err = run("score", str(FOREST))
    assert (status, err) == (0, "")
    assert json.loads(out)["format"] == "okanagan-result/1"


def test_score_reads_standard_input_for_a_dash() -> None:
    status, out, _err = run("score", "-", stdin=FOREST.read_text())
    assert status == 0
    assert json.loads(out)["territories"][0]["special_action_to"] == "Red"


def test_a_record_with_hidden_cards_scores_without_them_and_says_so_on_stderr() -> None:
    record = json.loads(FOREST.read_text()) | {"hidden": {"objective_cards": {"White": 3, "Red": 1}}}
    status, out, err = run("score", "-", stdin=json.dumps(record))
    assert status == 0
    assert json.loads(out) == json.loads(run("score", str(FOREST))[1])
    assert err == (
        "note: this record leaves out the objective cards (cards held: White 3, Red 1, Yellow 0); "
        "they score nothing here\n"
    )


def test_explain_prints_titled_steps_with_rule_ids() -> None:
    status, out, _err = run("explain", str(FOREST))
    assert status == 0
    assert out.splitlines()[0] == "Event 0: forest closed by Red"
    assert "  - Red, last in the order, takes the special action. [okanagan.special.lowest]" in out.splitlines()


@pytest.mark.parametrize(
    ("stdin", "error"),
    [
        ("{", "error: not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2\n"),
        (
            '{"format": "chess-pgn"}',
            "error: the document's 'format' must be one of okanagan-record/1, "
            "small-islands-sheet/1, or cooper-island-sheet/1, not 'chess-pgn'\n",
        ),
        (
            '{"format": "okanagan-record/1", "players": ["A", "B"], "events": [{"type": "round_end"}, '
            '{"type": "round_end"}]}',
            "error: event 1 (round_end): round 1 has already ended: a game has two rounds\n",
        ),
        ("[" * 100_000 + "]" * 100_000, "error: the document is nested deeper than 12 levels\n"),
        ("[" * 13 + "]" * 13, "error: the document is nested deeper than 12 levels\n"),
        ('{"format": "a", "format": "b"}', "error: the key 'format' appears twice in one object\n"),
        ('{"count": NaN}', "error: NaN is not a number JSON allows\n"),
        ('{"format": "\\ud800"}', "error: the text '\\ud800' holds a character that is not valid Unicode\n"),
        ("[" + "9" * 5000 + "]", "error: not valid JSON: a number has too many digits\n"),
        *(
            (
                json.dumps(cooper_sheet(cards)),
                f"error: Ann: royal_orders: {key} is not a royal order card (1 to 8)\n",
            )
            for cards, key in (
                ({"²": 6}, "'²'"),
                ({"③": 6}, "'③'"),
                ({"٣": 6}, "'٣'"),
                ({"3": 5, "03": 4}, "'03'"),
                ({"9": 1}, "'9'"),
            )
        ),
    ],
)
def test_invalid_input_exits_2_with_one_line_on_stderr_and_nothing_on_stdout(stdin: str, error: str) -> None:
    assert run("score", "-", stdin=stdin) == (2, "", error)


def test_a_missing_file_is_one_line_too() -> None:
    status, out, err = run("explain", "/nonexistent/game.json")
    assert (status, out) == (2, "")
    assert err == "error: cannot read /nonexistent/game.json: No such file or directory\n"


def test_the_module_runs_as_a_program() -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "rules", "score", "-"],
        input='{"format": 1}',
        text=True,
        capture_output=True,
        check=False,
    )
    assert (bad.returncode, bad.stdout, len(bad.stderr.splitlines())) == (2, "", 1)
    good = subprocess.run(
        [sys.executable, "-m", "rules", "score", str(FOREST)], text=True, capture_output=True, check=True
    )
    assert json.loads(good.stdout)["winners"] == ["Red"]
