"""Bounded and race-free (issue 24): "Start the game" posted twice starts one game; one restore at a time, its
finished games' states built when first read; what one account may store (groups, games, bytes)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError
from django.test import Client
from pytest_django.fixtures import Settings

from scoring.creation import NewGame
from scoring.history import portability
from scoring.history.portability import one_restore_at_a_time
from scoring.models import Event, EventState, Game, Group
from scoring.site import rate_limits
from scoring.site.quotas import stored_bytes
from tests.scoring.conftest import at_once, logged_in
from tests.scoring.history.test_portability import a_history


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

    def second_fails(group: Group, games: Sequence[NewGame], *, announce: bool = True) -> list[Game]:
        chunks.append(len(games))
        if len(chunks) == 2:
            raise DatabaseError("the disk is full")
        return write(group, games, announce=announce)

    monkeypatch.setattr(portability, "RESTORE_CHUNK", 2)
    monkeypatch.setattr(portability, "create_games", second_fails)
    with pytest.raises(DatabaseError):
        portability.restore(rita, data)
    assert chunks == [2, 1] and not Group.objects.filter(owner=rita).exists()
    monkeypatch.setattr(portability, "create_games", write)
    assert portability.restore(rita, data).games.count() == 3


def test_an_account_owning_as_many_groups_as_it_may_is_told_so(owner: User, group: Group, settings: Settings) -> None:
    settings.QUOTA_GROUPS = 1
    response = logged_in(owner).post("/groups/new/", {"name": "Sunday table"})
    assert response.status_code == 422
    assert "An account may own 1 group, and yours does." in response.content.decode()
    assert Group.objects.filter(owner=owner).count() == 1
    french = logged_in(owner).post("/groups/new/", {"name": "Sunday table"}, headers={"Accept-Language": "fr"})
    assert "Un compte peut posséder 1 groupe" in french.content.decode()


def test_a_group_whose_owner_holds_as_many_games_as_they_may_starts_no_more(
    owner: User, member_client: Client, group: Group, game: Game, settings: Settings
) -> None:
    settings.QUOTA_GAMES = 1
    refused = (
        member_client.post(f"/groups/{group.pk}/games/new/", start_form(owner, group)),
        member_client.post(f"/groups/{group.pk}/sheets/new/cooper_island/", {"name_1": "Ann", "name_2": "Ben"}),
        member_client.post(
            f"/groups/{group.pk}/games/import/",
            {"record": SimpleUploadedFile("game.json", json.dumps(game.record()).encode())},
        ),
    )
    for response in refused:
        assert "The group&#x27;s owner may hold 1 games in all their groups and holds 1 already" in (
            response.content.decode()
        )
    assert Game.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_groups_made_at_once_by_one_account_stop_at_its_limit(owner: User, group: Group, settings: Settings) -> None:
    settings.QUOTA_GROUPS = 2  # it owns one
    clients = [logged_in(owner) for _ in range(4)]
    answers = at_once(4, lambda number: clients[number].post("/groups/new/", {"name": f"Table {number}"}))
    assert sorted(getattr(answer, "status_code", answer) for answer in answers) == [302, 422, 422, 422]
    assert Group.objects.filter(owner=owner).count() == 2


@pytest.mark.django_db(transaction=True)
def test_games_added_at_once_to_one_account_s_groups_stop_at_its_limit(
    owner: User, group: Group, settings: Settings
) -> None:
    settings.QUOTA_GAMES = 1
    forms = [start_form(owner, group) for _ in range(2)]
    clients = [logged_in(owner) for _ in range(4)]

    def add(number: int) -> object:
        if number < 2:
            return clients[number].post(f"/groups/{group.pk}/games/new/", forms[number])
        return clients[number].post(f"/groups/{group.pk}/sheets/new/cooper_island/", {"name_1": "Ann", "name_2": "Ben"})

    answers = [getattr(answer, "status_code", answer) for answer in at_once(4, add)]
    assert answers.count(302) == 1, answers
    assert Game.objects.filter(group__owner=owner).count() == 1


def test_the_same_start_form_posted_again_at_the_limit_still_lands_on_its_game(
    owner: User, group: Group, settings: Settings
) -> None:
    settings.QUOTA_GAMES = 1
    client, form = logged_in(owner), start_form(owner, group)
    first = client.post(f"/groups/{group.pk}/games/new/", form)
    assert client.post(f"/groups/{group.pk}/games/new/", form)["Location"] == first["Location"]


def test_a_restore_past_the_account_s_games_or_bytes_is_refused_before_anything_is_written(
    member_client: Client, group: Group, game: Game, settings: Settings
) -> None:
    backup, someone = a_backup(member_client, group, game), logged_in(User.objects.create_user("rita"))
    settings.QUOTA_GAMES = 2  # the backup holds 3
    page = someone.post("/groups/restore/", {"backup": backup}).content.decode()
    assert "may hold 2 games in all their groups and holds 0 already" in page
    settings.QUOTA_GAMES, settings.QUOTA_STORED_MB = 5000, 0
    backup.seek(0)
    page = someone.post("/groups/restore/", {"backup": backup}).content.decode()
    assert "may store 0 MB of games in all their groups: this would take them past it." in page
    assert not Group.objects.filter(owner__username="rita").exists()


def test_what_an_account_stores_counts_every_event_and_sheet_of_its_groups(
    member_client: Client, owner: User, group: Group, game: Game
) -> None:
    a_history(member_client, group, game)
    events = sum(len(json.dumps(data)) for data in Event.objects.values_list("data", flat=True))
    sheets = sum(
        len(json.dumps(sheet)) for sheet in Game.objects.filter(sheet__isnull=False).values_list("sheet", flat=True)
    )
    assert events and sheets
    assert abs(stored_bytes(owner.pk) - (events + sheets)) <= 0.05 * (events + sheets)  # as the database writes it
    assert stored_bytes(User.objects.create_user("rita").pk) == 0


def test_only_a_restore_that_goes_through_counts_against_the_hourly_limit(
    member_client: Client, group: Group, game: Game, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(rate_limits.RATES, "restore", "2/h")
    backup, someone = a_backup(member_client, group, game), logged_in(User.objects.create_user("rita"))

    def post(upload: SimpleUploadedFile) -> int:
        upload.seek(0)
        return someone.post("/groups/restore/", {"backup": upload}).status_code

    refused = [post(SimpleUploadedFile("backup.json", b'{"format": "something else"}')) for _ in range(3)]
    settings.QUOTA_GAMES = 2  # the backup holds 3
    refused += [post(backup) for _ in range(3)]
    settings.QUOTA_GAMES = 5000
    with one_restore_at_a_time():
        refused += [post(backup) for _ in range(3)]
    assert refused == [422] * 6 + [429] * 3  # each refused for its own reason, none for the limit
    assert [post(backup), post(backup)] == [302, 302]
    response = someone.post("/groups/restore/", {"backup": backup})
    assert response.status_code == 429 and "Too many attempts" in response.content.decode()
    assert Group.objects.filter(owner__username="rita").count() == 2
