"""Every identifier the site shows comes from ``rules``, and every one has the site's word for it."""

from __future__ import annotations

import ast
import re
from enum import StrEnum
from pathlib import Path

import pytest

import rules
from rules import (
    FORMATS,
    PARTS,
    Building,
    Colour,
    EventType,
    Game,
    LoneChoice,
    NuggetLadder,
    ObjectiveKind,
    Shape,
    Source,
    SpecialActionKind,
    Territory,
    score_document,
)
from rules.cooper_island import LEFTOVERS
from rules.reference import EXAMPLES
from scoring import wording
from scoring.models import Game as StoredGame
from scoring.table.entry import EVENT_KINDS, STAGES

ROOT = Path(__file__).resolve().parents[2]

TABLES: list[tuple[type[StrEnum], dict[object, object]]] = [
    (Colour, wording.COLOURS),
    (Shape, wording.SHAPES),
    (Territory, wording.TERRITORIES),
    (Territory, wording.TERRITORY_NAMES),
    (Building, wording.BUILDINGS),
    (Building, wording.BUILDING_NAMES),
    (SpecialActionKind, wording.ACTIONS),
    (EventType, wording.EVENTS),
    (ObjectiveKind, wording.OBJECTIVE_KINDS),
    (ObjectiveKind, wording.CARDS),
    (NuggetLadder, wording.NUGGET_LADDERS),
    (Source, wording.SOURCES),
    (Game, wording.GAMES),
]


@pytest.mark.parametrize(("enum", "table"), TABLES, ids=lambda item: getattr(item, "__name__", ""))
def test_every_member_of_a_rules_enum_has_exactly_one_word(enum: type[StrEnum], table: dict[object, object]) -> None:
    assert list(table) == list(enum)


def test_every_full_set_button_has_its_words() -> None:
    assert set(wording.FULL_SETS) == {*Colour, *Shape}


def test_every_part_of_every_games_score_has_a_word() -> None:
    assert set(FORMATS) == set(Game) == set(PARTS)
    assert set(wording.PARTS) == {part for parts in PARTS.values() for part in parts}


def test_the_parts_rules_lists_are_those_its_results_have() -> None:
    documents = {
        Game.OKANAGAN: EXAMPLES[0].record,
        Game.SMALL_ISLANDS: {"format": FORMATS[Game.SMALL_ISLANDS], "players": [_islander("Ann"), _islander("Ben")]},
        Game.COOPER_ISLAND: {"format": FORMATS[Game.COOPER_ISLAND], "players": [_settler("Ann"), _settler("Ben")]},
    }
    for game, document in documents.items():
        player = score_document(document).to_json()["players"][0]
        assert isinstance(player, dict)
        assert tuple(key for key in player if key.endswith("_points")) == PARTS[game]


def _islander(name: str) -> dict[str, object]:
    return {"name": name, "prestige": 10, "discoveries": [3], "ship_placed": True, "ports": 2, "houses": 4}


def _settler(name: str) -> dict[str, object]:
    return {
        "name": name,
        "logbooks": 1,
        "spaces_past_logbook": [0, 0],
        "royal_orders": {},
        "buildings": 3,
        "leftovers": dict.fromkeys(LEFTOVERS, 0),
        "anchors": 0,
        "empty_spaces": 2,
    }


def test_what_a_phone_is_entering_is_worded_for_every_kind_and_territory() -> None:
    assert list(wording.ENTERING) == list(EventType)
    assert list(wording.SCORING) == list(Territory)


def test_the_entrys_kinds_of_event_are_the_records() -> None:
    assert tuple(EventType) == EVENT_KINDS
    assert set(STAGES) == set(EventType)
    assert set(wording.STAGES) == {stage for stages in STAGES.values() for stage in stages}


def test_the_stored_kinds_of_game_are_the_rules_games() -> None:
    assert [kind.value for kind in StoredGame.Kind] == [game.value for game in Game]


# A quoted identifier of ``rules`` written out again in the site's Python (a dictionary key, a comparison):
# it must come from the rules' enums and constants instead.
RESPELLED = {
    *(kind.value for kind in EventType if kind is not EventType.TERRITORY),
    *(f"{game}" for game in FORMATS.values()),
    rules.ALEXIS,
    *(part for parts in PARTS.values() for part in parts),
    *(kind.value for kind in SpecialActionKind),
    *(ladder.value for ladder in NuggetLadder),
    *(source.value for source in Source),
}


def _strings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


# Every template: the project's and each app's.
TEMPLATES = sorted([*(ROOT / "templates").rglob("*.html"), *(ROOT / "scoring").rglob("*.html")])

# Not identifiers of rules: a message's param that happens to share an action's name.
PARAMS = {("scoring/wording.py", "gifts"), ("scoring/table/urls.py", "round_end")}  # and a URL's name


def test_the_site_does_not_spell_the_rules_identifiers_again() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {value!r}"
        for path in sorted((ROOT / "scoring").rglob("*.py"))
        if "migrations" not in path.parts
        for line, value in _strings(path)
        if value in RESPELLED and (str(path.relative_to(ROOT)), value) not in PARAMS
    ]
    assert found == []


def test_no_template_compares_with_or_links_to_a_rules_identifier_spelled_out() -> None:
    enums: list[type[StrEnum]] = [EventType, Territory, SpecialActionKind, LoneChoice, Game, ObjectiveKind]
    ids = "|".join(sorted({member.value for enum in enums for member in enum}))
    pattern = re.compile(rf"""(==|!=|\.pk)\s*["']({ids})["']""")
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in TEMPLATES
        for match in pattern.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def _is_views(module: str) -> bool:
    return module.startswith("scoring.") and "views" in module.split(".")


def test_no_view_module_imports_another() -> None:
    found = []
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        if not _is_views(".".join(path.relative_to(ROOT).with_suffix("").parts)):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                names = {alias.name for alias in node.names}
                if node.level or _is_views(module) or any(_is_views(f"{module}.{name}") for name in names):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module or '.'} {sorted(names)}")
    assert found == []


def test_an_explanation_is_listed_by_the_steps_tag_alone() -> None:
    pasted = re.compile(r"{%\s*for\s+\w+\s+in\s+[\w.]*steps\s*%}")
    found = [
        path.name
        for path in TEMPLATES
        if path.name != "_steps.html" and pasted.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_architecture_names_every_module() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    architecture = page.split("## Module by module\n")[1].split("\n## ")[0]
    packages = [
        path.parent
        for top in ("rules", "scoring")
        for path in sorted((ROOT / top).rglob("__init__.py"))
        if not {"migrations", "management"} & set(path.parts)
    ]
    modules = [
        path.stem
        for package in packages
        for path in sorted(package.glob("*.py"))
        if path.stem not in {"__init__", "__main__", "apps", "urls"}
    ]
    assert [module for module in modules if f"`{module}`" not in architecture] == []
    named = {f"{package.name}/" for package in packages if package.name not in {"rules", "scoring"}}
    assert [package for package in sorted(named) if f"`{package}`" not in architecture] == []
