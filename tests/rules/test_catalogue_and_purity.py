"""The rules catalogue is complete for what the engine cites, and ``rules`` never touches Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from rules import CATALOGUE, RULES, Source, score_record
from rules.components import FACTS, Confidence
from support.random_games import RandomChooser, random_record

RULES_DIR = Path(__file__).parent.parent.parent / "rules"


def test_rule_ids_are_unique_and_each_rule_has_a_text_a_source_and_a_reference() -> None:
    assert len(CATALOGUE) == len(RULES)
    for rule in RULES:
        assert rule.text and rule.reference and rule.section
        if rule.source in {Source.INFERRED, Source.HOUSE_RULE}:
            assert rule.note, f"{rule.id} must say why or how to switch it"


def test_every_step_of_many_random_games_cites_a_rule_of_the_catalogue() -> None:
    cited: set[str] = set()
    for seed in range(80):
        result = score_record(random_record(RandomChooser(seed), 2 + seed % 3, 12, 6))
        for section in result.sections:
            for step in section.steps:
                assert step.rule in CATALOGUE
                assert step.text
                cited.add(step.rule)
    assert len(cited) >= 30


def test_facts_not_printed_in_the_rulebook_are_tagged() -> None:
    assert {fact.confidence for fact in FACTS} <= {Confidence.INFERRED, Confidence.REVIEWS, Confidence.UNKNOWN}


def test_no_module_of_rules_imports_django() -> None:
    for path in RULES_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names.append(node.module)
            assert not any(name.split(".")[0] == "django" for name in names), path


def test_importing_rules_loads_no_django_module() -> None:
    code = "import sys, rules, rules.cli; print(sorted(m for m in sys.modules if m.startswith('django')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
