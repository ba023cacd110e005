"""Bounded and race-free (issue 24): "Start the game" posted twice starts one game; one restore at a time, its
finished games' states built when first read."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError
from django.test import Client

from scoring import portability
from scoring.log import NewGame
from scoring.models import EventState, Game, Group
from scoring.portability import one_restore_at_a_time

from .conftest import at_once, logged_in
from .test_portability import a_history


def start_form(owner: User, group: Group) -> dict[str, str]:
    """What the "Start the game" form posts, with its own token as the page gave it, and a new player."""
    page = logged_in(owner).get(f"/groups/{group.pk}/games/new/").content.decode()
    token = re.search(r'name="start_token" value="([^"]+)"', page)
    assert token, "the form carries its token"
    return {"seat_1": "Ann", "seat_2": "Zed", "nugget_ladder": "by_place", "start_token": token.group(1)}


def test_the_same_start_form_posted_twice_lands_on_one_game(owner: User, group: Group) -> None:
    client, form = logged_in(owner), start_form(owner, group)
    first = client.post(f"/groups/{group.pk}/games/new/", form)
    second = client.post(f"/groups/{group.pk}/games/new/", form)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert group.games.count() == 1


def test_two_start_forms_start_two_games(owner: User, group: Group) -> None:
    client = logged_in(owner)
    for _ in range(2):
        assert client.post(f"/groups/{group.pk}/games/new/", start_form(owner, group)).status_code == 302
    assert group.games.count() == 2
    assert group.profiles.filter(name="Zed").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_start_form_posted_four_times_at_once_starts_one_game(owner: User, group: Group) -> None:
    form = start_form(owner, group)
    clients = [logged_in(owner) for _ in range(4)]
    answers = at_once(4, lambda number: clients[number].post(f"/groups/{group.pk}/games/new/", form))
    assert [getattr(answer, "status_code", answer) for answer in answers] == [302] * 4
    assert len({getattr(answer, "url", None) for answer in answers}) == 1
    assert Game.objects.filter(group=group).count() == 1
    assert group.profiles.filter(name="Zed").count() == 1


@pytest.mark.django_db(transaction=True)
def test_four_start_forms_with_one_new_player_at_once_start_four_games(owner: User, group: Group) -> None:
    forms = [start_form(owner, group) for _ in range(4)]
    clients = [logged_in(owner) for _ in range(4)]
    answers = at_once(4, lambda number: clients[number].post(f"/groups/{group.pk}/games/new/", forms[number]))
    assert [getattr(answer, "status_code", answer) for answer in answers] == [302] * 4
    assert Game.objects.filter(group=group).count() == 4
    assert group.profiles.filter(name="Zed").count() == 1


def a_backup(member_client: Client, group: Group, game: Game) -> SimpleUploadedFile:
    """The group's backup, with a finished game of Okanagan, one in progress and a Cooper Island game."""
    a_history(member_client, group, game)
    return SimpleUploadedFile("backup.json", member_client.get(f"/groups/{group.pk}/backup.json").getvalue())


def test_a_restored_finished_game_stores_no_state_and_its_pages_show_its_result(
    member_client: Client, group: Group, game: Game
) -> None:
    someone = logged_in(User.objects.create_user("rita"))
    assert someone.post("/groups/restore/", {"backup": a_backup(member_client, group, game)}).status_code == 302
    restored = Game.objects.get(group__owner__username="rita", kind=Game.Kind.OKANAGAN, status=Game.Status.FINISHED)
    assert restored.events.exists() and not EventState.objects.filter(event__game=restored).exists()
    for url in (f"/games/{restored.pk}/", f"/watch/{restored.spectator_token}/"):
        page = someone.get(url).content.decode()
        assert "Winner:" in page and 'class="plain placed"' in page, url
    assert someone.get(f"/watch/{restored.spectator_token}/result.png")["Content-Type"] == "image/png"
    assert EventState.objects.filter(event__game=restored).count() == restored.events.count()  # built once read


def test_a_restore_while_another_is_under_way_is_asked_to_wait(member_client: Client, group: Group, game: Game) -> None:
    backup, someone = a_backup(member_client, group, game), logged_in(User.objects.create_user("rita"))
    with one_restore_at_a_time():
        response = someone.post("/groups/restore/", {"backup": backup})
    assert response.status_code == 429 and response["Retry-After"] == "60"
    assert "Another group is being restored: try again in a minute." in response.content.decode()
    assert not Group.objects.filter(owner__username="rita").exists()
    backup.seek(0)
    assert someone.post("/groups/restore/", {"backup": backup}).status_code == 302  # the other one is over


def test_a_restore_goes_on_when_the_cache_does_not_answer(
    member_client: Client, group: Group, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    add = portability.cache.add

    def down_for_restores(key: str, *args: object, **kwargs: object) -> bool:
        if key == portability.RESTORE_UNDER_WAY:  # (the rate limits' own fallback is not this test's)
            raise ConnectionError("the cache is down")
        return add(key, *args, **kwargs)

    monkeypatch.setattr(portability.cache, "add", down_for_restores)
    someone = logged_in(User.objects.create_user("rita"))
    assert someone.post("/groups/restore/", {"backup": a_backup(member_client, group, game)}).status_code == 302


def test_a_restore_writes_its_games_a_chunk_at_a_time_and_leaves_no_half_group(
    member_client: Client, group: Group, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(a_backup(member_client, group, game).read())
    rita = User.objects.create_user("rita")
    chunks: list[int] = []
    write = portability.create_games

    def second_fails(group: Group, games: Sequence[NewGame]) -> list[Game]:
        chunks.append(len(games))
        if len(chunks) == 2:
            raise DatabaseError("the disk is full")
        return write(group, games)

    monkeypatch.setattr(portability, "RESTORE_CHUNK", 2)
    monkeypatch.setattr(portability, "create_games", second_fails)
    with pytest.raises(DatabaseError):
        portability.restore(rita, data)
    assert chunks == [2, 1] and not Group.objects.filter(owner=rita).exists()
    monkeypatch.setattr(portability, "create_games", write)
    assert portability.restore(rita, data).games.count() == 3
