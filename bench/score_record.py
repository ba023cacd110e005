"""Benchmark: score a 4-player record of 40 territory events plus 20 other events.

Prints the time to parse, replay and score it (the target is under 5 ms), and with the JSON text
decoding included. Run with ``make bench`` or ``.venv/bin/python bench/score_record.py``.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import score_okanagan  # noqa: E402
from support.random_games import RandomChooser, random_record  # noqa: E402

RUNS = 300


def measure(action: object, runs: int = RUNS) -> list[float]:
    """Milliseconds per call of ``action``, one figure per run."""
    assert callable(action)
    figures = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        figures.append((time.perf_counter() - start) * 1000)
    return figures


def report(label: str, figures: list[float]) -> None:
    figures = sorted(figures)
    p95 = figures[int(len(figures) * 0.95) - 1]
    print(f"{label:<38} median {statistics.median(figures):6.3f} ms   p95 {p95:6.3f} ms   min {figures[0]:6.3f} ms")


def main() -> None:
    record = random_record(RandomChooser(2026), players=4, territories=40, others=20)
    document = record.to_json()
    text = json.dumps(document)
    events = document["events"]
    assert isinstance(events, list)
    print(
        f"record: 4 players, {len(events)} events ({sum(e['type'] == 'territory' for e in events)} territories), "
        f"{len(text)} bytes of JSON; {RUNS} runs each; Python {sys.version.split()[0]}"
    )
    score_okanagan(document)  # warm up
    report("parse + replay + score (dict)", measure(lambda: score_okanagan(document)))
    report("json.loads + parse + replay + score", measure(lambda: score_okanagan(json.loads(text))))
    report(
        "... + result JSON + explanation text",
        measure(lambda: [step.text for section in score_okanagan(document).sections for step in section.steps]),
    )
    print("target: under 5 ms for parse + replay + score")


if __name__ == "__main__":
    main()
