"""Every document in ``tests/data`` scores to its ``.expected.json``, or fails with its ``.error`` line.

The expected files were produced once by the engine and every figure in them checked by hand.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rules.cli import main

DATA = Path(__file__).parent.parent / "data"
DOCUMENTS = sorted(path for path in DATA.glob("*.json") if not path.name.endswith(".expected.json"))


def test_there_are_at_least_15_documents_with_known_results() -> None:
    assert len(DOCUMENTS) >= 15


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.stem)
def test_the_cli_gives_the_known_result(document: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = main(["score", str(document)], stdout=out, stderr=err)
    expected = document.with_suffix(".expected.json")
    if expected.exists():
        assert (status, err.getvalue()) == (0, "")
        assert json.loads(out.getvalue()) == json.loads(expected.read_text())
    else:
        assert (status, out.getvalue()) == (2, "")
        assert err.getvalue() == document.with_suffix(".error").read_text()
