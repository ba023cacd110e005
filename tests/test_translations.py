"""The five languages: every catalogue complete (nothing untranslated or fuzzy) and up to date with the code."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = sorted((ROOT / "locale").glob("*/LC_MESSAGES/django.po"))
SOURCES = ("manage.py", "okanagan_site", "rules", "scoring", "templates")


def msgids(path: Path) -> set[str]:
    """The msgids (singular) of a .po file."""
    text = path.read_text(encoding="utf-8")
    found = set()
    for block in re.findall(r'^msgid ((?:".*"\n)+)', text, flags=re.M):
        msgid = "".join(json.loads(line) for line in re.findall(r'"(?:[^"\\]|\\.)*"', block))
        if msgid:
            found.add(msgid)
    return found


def test_the_four_translations_are_there() -> None:
    assert {path.parent.parent.name for path in CATALOGUES} == {"fr", "it", "ko", "zh_Hant"}


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda path: path.parent.parent.name)
def test_every_string_is_translated_and_none_is_fuzzy(catalogue: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "gettext's msgfmt is needed to compile the translations (apt-get install gettext)"
    run = subprocess.run(
        [msgfmt, "--check", "--statistics", "-o", os.devnull, str(catalogue)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "untranslated" not in run.stderr and "fuzzy" not in run.stderr, run.stderr


def test_the_catalogues_hold_every_string_of_the_code(tmp_path: Path) -> None:
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, tmp_path / name)
    shutil.copytree(ROOT / "locale", tmp_path / "locale")
    env = os.environ | {"DEBUG": "1", "DJANGO_SETTINGS_MODULE": "okanagan_site.settings"}
    run = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-obsolete"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    extracted = msgids(tmp_path / "locale/fr/LC_MESSAGES/django.po")
    committed = msgids(ROOT / "locale/fr/LC_MESSAGES/django.po")
    assert extracted == committed, (
        f"new: {sorted(extracted - committed)[:5]}, gone: {sorted(committed - extracted)[:5]}"
    )


def entries(path: Path) -> list[tuple[str, str, list[str]]]:
    """(msgid, msgid_plural, translations) of each entry of a .po file."""
    found = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):

        def field(name: str, block: str = block) -> str | None:
            match = re.search(rf"^{name} ((?:\".*\"\n?)+)", block + "\n", flags=re.M)
            return (
                "".join(json.loads(part) for part in re.findall(r'"(?:[^"\\]|\\.)*"', match.group(1)))
                if match
                else None
            )

        msgid = field("msgid")
        if msgid:
            single = field("msgstr")
            forms = [single] if single is not None else [f for n in range(6) if (f := field(rf"msgstr\[{n}\]"))]
            found.append((msgid, field("msgid_plural") or "", [form for form in forms if form is not None]))
    return found


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda path: path.parent.parent.name)
def test_every_translation_keeps_the_placeholders(catalogue: Path) -> None:
    placeholder = re.compile(r"\{\w+\}|%\(\w+\)[sd]")
    for msgid, plural, forms in entries(catalogue):
        wanted = set(placeholder.findall(msgid + plural))
        for form in forms:
            found = set(placeholder.findall(form))
            # A plural form may leave out the count ("1 card" said without the number).
            assert found == wanted or (plural and found <= wanted), f"{msgid!r} → {form!r}"
