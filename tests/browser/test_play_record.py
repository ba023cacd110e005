"""The robot of ``bench/play_record.py`` plays records through the UI on a phone and finds the site's
final scores equal to the rules' (it starts its own site on a fresh database)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(
    ("record", "territories"),
    # The promo tiles: the Beaver Dam's reward is a token of the supply, named with how many are left. The
    # exhausted supply: the new-game form sets the reward supply.
    [
        ("okanagan-forest-example.json", 1),
        ("okanagan-gifts-and-trade.json", 1),
        ("okanagan-promo-tiles.json", 0),
        ("okanagan-exhausted-supply.json", 3),
    ],
)
def test_the_robot_plays_a_record_to_the_same_final_scores(browser: Any, record: str, territories: int) -> None:
    run = subprocess.run(
        [sys.executable, "bench/play_record.py", f"tests/data/{record}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    events = json.loads((ROOT / "tests" / "data" / record).read_text())["events"]
    assert [part["index"] for part in report["events"]] == ["setup", *range(len(events)), "end"]
    totals = report["totals"]
    assert totals["territories"] == territories
    assert totals["taps"] == sum(part["taps"] for part in report["events"]) > 0
    assert not territories or totals["territory_taps"]["min"] > 0


def test_the_dense_game_stays_within_issue_23_s_tap_targets(browser: Any) -> None:
    """The dense 4-player game (16 territories, 3–4 players building in most, ties of two and three, every
    special action): a median of at most 10 taps per territory, none over 16, at most 200 event taps."""
    record = "tests/data/okanagan-dense-four-players.json"
    run = subprocess.run(
        [sys.executable, "bench/play_record.py", "--totals", record],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr
    totals = json.loads(run.stdout)["totals"]
    taps = totals["territory_taps"]
    assert totals["territories"] == 16
    assert taps["median"] <= 10 and taps["max"] <= 16 and totals["event_taps"] <= 200, totals
