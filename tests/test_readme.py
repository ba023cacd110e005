"""The README's command-line examples are real: each ``$ python -m rules ...`` block is rerun."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
BLOCKS = re.findall(r"```console\n\$ (python -m rules [^\n]+)\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


def test_the_readme_starts_with_the_three_commands() -> None:
    first_block = (ROOT / "README.md").read_text().split("```sh\n")[1].split("```")[0]
    commands = [line.split()[:2] for line in first_block.splitlines()]
    assert commands == [["make", "run"], ["make", "test"], ["make", "serve"]]


@pytest.mark.parametrize(("command", "expected"), BLOCKS, ids=[command for command, _ in BLOCKS])
def test_a_readme_example_prints_what_the_readme_shows(command: str, expected: str) -> None:
    run = subprocess.run([sys.executable, *command.split()[1:]], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.stdout + run.stderr == expected
