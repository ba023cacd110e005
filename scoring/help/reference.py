"""The rules reference, as the site shows it: the catalogue by game and section, the rulebook's worked
examples explained by the engine, and the open questions with the app's default."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from rules import RULES, Rule, Section, score_okanagan
from rules.catalogue import Game
from rules.reference import EXAMPLES, OPEN_QUESTIONS, OpenQuestion, WorkedExample


@dataclass(frozen=True)
class ExplainedExample:
    """A worked example and the engine's explanation of it."""

    example: WorkedExample
    sections: tuple[Section, ...]


def reference_context() -> dict[str, object]:
    """The games, each with its sections of rules; the examples; the open questions."""
    games: list[tuple[Game, list[tuple[str, list[Rule]]]]] = []
    for game, rules in itertools.groupby(RULES, key=lambda rule: rule.game):
        sections: dict[str, list[Rule]] = {}
        for rule in rules:
            sections.setdefault(rule.section, []).append(rule)
        games.append((game, list(sections.items())))
    examples = [ExplainedExample(example, score_okanagan(example.record).sections) for example in EXAMPLES]
    questions: tuple[OpenQuestion, ...] = OPEN_QUESTIONS
    return {"games": games, "examples": examples, "questions": questions}
