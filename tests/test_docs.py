"""The README and docs/ are true: each ``$ python -m rules ...`` example is rerun, and every relative link
between them leads to a file that exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [
    (page.relative_to(ROOT).as_posix(), command, expected)
    for page in PAGES
    for command, expected in re.findall(r"```console\n\$ (python -m rules [^\n]+)\n(.*?)```", page.read_text(), re.S)
]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_readme_starts_with_the_three_commands() -> None:
    first_block = (ROOT / "README.md").read_text().split("```sh\n")[1].split("```")[0]
    commands = [line.split()[:2] for line in first_block.splitlines()]
    assert commands == [["make", "run"], ["make", "test"], ["make", "serve"]]


def test_the_readme_is_a_front_door() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200


def test_the_examples_are_found() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize(
    ("page", "command", "expected"), BLOCKS, ids=[f"{page}: {command}" for page, command, _ in BLOCKS]
)
def test_an_example_prints_what_its_page_shows(page: str, command: str, expected: str) -> None:
    run = subprocess.run([sys.executable, *command.split()[1:]], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.stdout + run.stderr == expected


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_every_relative_link_leads_to_a_file_and_its_heading() -> None:
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_every_page_of_docs_is_linked_from_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    assert [page.name for page in PAGES[1:] if f"](docs/{page.name})" not in readme] == []
