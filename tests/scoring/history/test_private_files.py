"""Every file of a group's data (a backup, its plays as CSV or BG Stats file, a game's record and play file, the
table's QR code) is kept by no shared cache nor on the reader's disk: ``Cache-Control: private, no-store``."""

from __future__ import annotations

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from scoring.models import Group
from tests.scoring.results.test_bgstats import finished_okanagan


def file_urls(patterns: list[URLPattern | URLResolver] | None = None) -> dict[str, str]:
    """Each named URL of the site whose route is a file (its last part has an extension) of a group or a game
    (named by its id: the spectator's result image, named by the link's token, is public), by name."""
    found: dict[str, str] = {}
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            found |= file_urls(pattern.url_patterns)
        elif pattern.name and "<id:" in str(pattern.pattern) and "." in str(pattern.pattern).rsplit("/", 1)[-1]:
            found[pattern.name] = str(pattern.pattern)
    return found


def test_every_private_file_says_private_no_store(member_client: Client, group: Group) -> None:
    game = finished_okanagan(group, "okanagan-shared-victory")
    ids = {"<id:group_id>": str(group.pk), "<id:game_id>": str(game.pk)}
    routes = file_urls()
    assert set(routes) == {"group_backup", "group_plays_csv", "group_bgsplay", "game_export", "game_bgsplay",
                           "table_qr", "group_stats_json"}  # fmt: skip
    for name, route in routes.items():
        for parameter, value in ids.items():
            route = route.replace(parameter, value)
        response = member_client.get(f"/{route}")
        assert response.status_code == 200, name
        directives = {part.strip() for part in response["Cache-Control"].split(",")}
        assert {"private", "no-store"} <= directives and "public" not in directives, name
