"""The rules search on questions as players ask them (issue 14, point 5): the share that finds its rule
in the top 3 and in first place, per language and overall, and the answer time.

The questions are tests/data/search/rule-questions.json: "tuning" questions (written before the search
learned the players' words, then used to write them) and "held-out" ones (written afterwards, never
tuned on). Each is asked in the game context it names, as from that game's page.

In process, on a fresh SQLite database; or on the database of ``DATABASE_URL`` (migrated first). The
search holds its index in memory and asks no database, so both give the same answers (the last line is a
digest of every ranking); only the results fragment's request, through the site's middleware, touches it:

    .venv/bin/python bench/search_quality.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/search_bench .venv/bin/python bench/search_quality.py
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REPEATS = 5


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/search.sqlite3")
        os.environ |= {"DEBUG": "1"}
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okanagan_site.settings")
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client

        settings.ALLOWED_HOSTS = ["testserver"]
        call_command("migrate", verbosity=0)
        call_command("createcachetable")
        from scoring.help.search import search_rules

        questions = json.loads((ROOT / "tests" / "data" / "search" / "rule-questions.json").read_text())
        rows: dict[tuple[str, str], list[tuple[bool, bool]]] = {}
        digest = hashlib.sha256()
        for question in questions:
            hits = search_rules(question["question"], question["language"], game=question["game"])
            ids = [hit.rule.id for hit in hits]
            digest.update(repr((question["question"], ids)).encode())
            result = (any(i in question["expected"] for i in ids[:3]), bool(ids) and ids[0] in question["expected"])
            rows.setdefault((question["set"], question["language"]), []).append(result)
            rows.setdefault(("all", question["language"]), []).append(result)

        print(f"Rules search on {connection.vendor}: {len(questions)} questions as players ask them")
        print(f"{'set':<9} {'language':<8} {'questions':>9} {'top 3':>7} {'first':>7}")
        for subset in ("tuning", "held-out", "all"):
            every: list[tuple[bool, bool]] = []
            for language, _name in settings.LANGUAGES:
                results = rows.get((subset, language), [])
                every += results
                print(_line(subset, language, results))
            print(_line(subset, "overall", every))

        timings = []
        for _round in range(REPEATS):
            for question in questions:
                start = time.perf_counter()
                search_rules(question["question"], question["language"], game=question["game"])
                timings.append((time.perf_counter() - start) * 1000)
        client = Client()
        requests = []
        for question in questions:
            start = time.perf_counter()
            response = client.get(
                "/rules/",
                {"q": question["question"], "game": question["game"]},
                HTTP_HX_REQUEST="true",
                HTTP_ACCEPT_LANGUAGE=question["language"],
            )
            requests.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
        print(f"search_rules: p50 {_percentile(timings, 50):.1f} ms, p95 {_percentile(timings, 95):.1f} ms")
        print(
            f"/rules/ results fragment: p50 {_percentile(requests, 50):.1f} ms, p95 {_percentile(requests, 95):.1f} ms"
        )
        print(f"rankings digest: {digest.hexdigest()[:16]}")


def _line(subset: str, language: str, results: list[tuple[bool, bool]]) -> str:
    count = len(results) or 1
    top3, first = sum(r[0] for r in results), sum(r[1] for r in results)
    return f"{subset:<9} {language:<8} {len(results):>9} {100 * top3 / count:>6.1f}% {100 * first / count:>6.1f}%"


def _percentile(values: list[float], percent: int) -> float:
    return statistics.quantiles(values, n=100)[percent - 1] if len(values) > 1 else values[0]


if __name__ == "__main__":
    main()
