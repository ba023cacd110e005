"""Parts rendered once per version (issue 33): after a change, the parts every phone shows alike (the scoreboard,
the log, the grid of events) are rendered by the first phone that polls and taken as made by the others, while
each phone's own parts (its seat's cards, its entry, its forms' CSRF token) are still its own."""

from __future__ import annotations

import re
from pathlib import Path

from django.test import Client
from pytest_django.fixtures import Settings

from scoring.live.parts import SharedParts, _store, code_version
from scoring.log import change_log
from scoring.models import Game
from tests.scoring.live.test_live_parts import CSRF, Phone, attribute, element
from tests.scoring.table.test_card_entry import RED, SPECIFIC, WHITE
from tests.scoring.table.test_game_pages import FOREST, add_events
from tests.scoring.table.test_table_phones import claim

SHARED = ("scoreboard", "actions", "log")


def part(fragment: str, name: str) -> str:
    """Part ``name`` of a live fragment, its element included."""
    span = element(fragment, f"part-{name}")
    return fragment[span.start : span.end]


def kept(game: Game, language: str = "en") -> dict[str, str]:
    """The shared parts kept for the game page's fragment at the game's version now."""
    game.refresh_from_db()
    version = f"{game.pk}.{game.revision}.{game.activity}.{language}"
    found = _store().get(SharedParts.of("table/game.html#game", game.spectator_token, version).key)
    return found if isinstance(found, dict) else {}


def two_phones(member_client: Client, owner_client: Client, game: Game) -> tuple[Phone, Phone]:
    """Red's phone, which holds Red's objective card and must keep it (after round 1), and White's."""
    add_events(game, {"type": "objectives", "player": "Red", "cards": [SPECIFIC]}, {"type": "round_end"})
    claim(member_client, game, RED)
    claim(owner_client, game, WHITE)
    return Phone(member_client, f"/games/{game.pk}/", "game"), Phone(owner_client, f"/games/{game.pk}/", "game")


def test_two_phones_of_different_seats_get_the_same_shared_parts_and_their_own_private_ones(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    red, white = two_phones(member_client, owner_client, game)
    add_events(game, FOREST)
    red.poll()  # the first phone after the change: it renders the shared parts, kept for the others
    assert set(kept(game)) == set(SHARED)  # nothing of the phone's is kept for the others
    assert not any("Keep my" in content or CSRF.search(content) for content in kept(game).values())
    white.poll()
    for name in SHARED:
        assert CSRF.sub("", part(red.fragment, name)) == CSRF.sub("", part(white.fragment, name))
    assert "Keep my 1 card" in part(red.fragment, "redraw") and "Keep my" not in white.fragment  # Red's card
    assert red.shows_what_a_fresh_load_shows() and white.shows_what_a_fresh_load_shows()


def test_a_shared_part_s_forms_carry_the_answer_s_own_csrf_token(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    red, white = two_phones(member_client, owner_client, game)
    add_events(game, FOREST)
    red.poll()
    log = part(white.poll().content.decode(), "log")  # the log as Red's poll rendered it, kept for all
    assert "\x00" not in log
    undo = re.search(r'<form method="post"\s+action="([^"]+)"', log)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', log)
    assert undo is not None and token is not None
    checked = Client(enforce_csrf_checks=True)  # White's phone, whose CSRF cookie is not Red's
    checked.cookies = owner_client.cookies
    game.refresh_from_db()
    answer = checked.post(undo[1], {"csrfmiddlewaretoken": token[1], "revision": str(game.revision)})
    assert answer.status_code == 302  # its Undo works: the token is White's answer's own
    assert game.events.count() == 2  # the forest undone (the cards and the end of round 1 left)


def test_a_new_version_or_another_language_renders_the_shared_parts_afresh(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    red, white = two_phones(member_client, owner_client, game)
    add_events(game, FOREST)
    red.poll()
    first = kept(game)
    change_log(game, game.revision, lambda log: log[:-1])  # the forest undone: a version nobody has rendered
    assert kept(game) == {}
    white.poll()
    assert kept(game) and kept(game)["log"] != first["log"] and white.shows_what_a_fresh_load_shows()
    url = attribute(red.poller, "hx-get")
    french = red.client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ce qui s'est passé" in part(french, "log") and "What happened" not in french
    assert "Ce qui s'est passé" not in kept(game)["log"] and kept(game, "fr")["log"]


def test_a_release_of_other_code_never_takes_this_one_s_parts(tmp_path: Path, settings: Settings) -> None:
    assert code_version() in SharedParts.of("table/game.html#game", "token", "1.2.3.en").key
    settings.BASE_DIR = tmp_path
    template = tmp_path / "scoring" / "templates" / "page.html"
    template.parent.mkdir(parents=True)
    template.write_text("<p>one</p>")
    before = code_version.__wrapped__()
    template.write_text("<p>two</p>")  # a deploy that changes a template
    assert code_version.__wrapped__() != before
