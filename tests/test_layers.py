"""Tooling flows one way: the product (``rules``, ``scoring``, ``okanagan_site``) ← ``deploy`` ← ``support`` ←
``bench`` ← ``tests``. A package imports only those before it (and itself), in its code and in the scripts it
hands to ``manage.py shell``."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {"rules": 0, "scoring": 0, "okanagan_site": 0, "deploy": 1, "support": 2, "bench": 3, "tests": 4}
"""Each top-level package's place in the flow: it may import the packages of its place or before."""
SCRIPT_IMPORT = re.compile(r"^\s*(?:from|import)\s+(\w+)", re.M)


def imported(path: Path) -> Iterator[tuple[int, str]]:
    """The top-level packages ``path`` imports, with their lines: its import statements (relative ones stay in
    its package) and the imports of any Python it holds in a string."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module.split(".")[0]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield from ((node.lineno, name) for name in SCRIPT_IMPORT.findall(node.value))


def backward_imports(package: str) -> list[str]:
    """Where ``package`` imports a package after it in the flow."""
    place = LAYERS[package]
    return [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in imported(path)
        if LAYERS.get(name, place) > place
    ]


@pytest.mark.parametrize("package", [name for name, place in LAYERS.items() if place < LAYERS["tests"]])
def test_a_package_imports_nothing_after_it_in_the_flow(package: str) -> None:
    assert backward_imports(package) == []


def test_the_check_sees_an_import_of_the_tests_in_a_shell_script(tmp_path: Path) -> None:
    script = 'manage(env, "shell", "-c", """\nfrom tests.x import y\nprint(y)\n""")\nimport bench.load\n'
    (tmp_path / "module.py").write_text(script)
    assert sorted(name for _line, name in imported(tmp_path / "module.py")) == ["bench", "tests"]


CONCERNS = {"table": 4, "results": 3, "history": 2, "sheets": 2, "help": 2, "site": 1}
"""Each concern of ``scoring`` and its place: it imports the shared modules (place 0) and the concerns below it,
never one beside or above it (docs/architecture.md, "The tree")."""


def concern(module: str) -> str:
    """The concern of a ``scoring`` module, or ``""`` for a shared one."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in CONCERNS else ""


def crossing_imports() -> list[str]:
    """Where a module of ``scoring`` imports a concern beside or above its own."""
    found = []
    for path in sorted((ROOT / "scoring").rglob("*.py")):
        if "migrations" in path.parts:
            continue  # a data migration may run a concern's pure code; no module imports a migration
        own = concern(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            modules = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [f"{node.module}.{alias.name}" for alias in node.names]
                if isinstance(node, ast.ImportFrom) and node.module and not node.level
                else []
            )
            for module in modules:
                other = concern(module) if module.startswith("scoring.") else ""
                if other and other != own and CONCERNS[other] >= CONCERNS.get(own, 0):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {module}")
    return found


def test_a_concern_of_scoring_imports_only_the_shared_modules_and_the_concerns_below_it() -> None:
    assert crossing_imports() == []
