"""``python -m rules score FILE`` and ``python -m rules explain FILE`` (``-`` reads standard input).

Invalid input: exit status 2, nothing on standard output, one line on standard error. A record whose
objective cards are hidden (an export of a game in progress) is scored without them, with a note on
standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from .documents import score_document
from .errors import RulesError
from .explanation import explanation_text
from .okanagan import OkanaganResult
from .reading import read_json

INVALID = 2


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Score Okanagan records and the Small Islands and Cooper Island score sheets.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (("score", "print the result JSON"), ("explain", "print the explanation as text")):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("file", help="a record or score sheet (JSON); - for standard input")
    arguments = parser.parse_args(argv)
    try:
        result = score_document(_load(arguments.file, stdin))
    except (RulesError, OSError) as error:
        stderr.write(f"error: {_one_line(error)}\n")
        return INVALID
    if isinstance(result, OkanaganResult) and result.hidden_objectives is not None:
        stderr.write(_hidden_note(result.hidden_objectives))
    if arguments.command == "score":
        stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        stdout.write(explanation_text(result.sections))
    return 0


def _load(path: str, stdin: TextIO) -> object:
    if path == "-":
        return read_json(stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read())
    with open(path, "rb") as file:
        return read_json(file.read())


def _one_line(error: BaseException) -> str:
    if isinstance(error, OSError):
        return f"cannot read {error.filename}: {error.strerror}"
    return " ".join(str(error).split())


def _hidden_note(held: Mapping[str, int]) -> str:
    counts = ", ".join(f"{player} {count}" for player, count in held.items())
    return f"note: this record leaves out the objective cards (cards held: {counts}); they score nothing here\n"
