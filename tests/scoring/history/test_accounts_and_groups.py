"""Accounts, groups, players and invite links, as a newcomer would use them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.log import replay_game
from scoring.models import Game, Group


def test_a_newcomer_signs_up_creates_a_group_and_starts_a_game(client: Client, db: None) -> None:
    response = client.post("/accounts/signup/", {"username": "nina", "password": "table-games-42"})
    assert response.status_code == 302
    response = client.post("/groups/new/", {"name": "Friday table"})
    group = Group.objects.get()
    assert response["Location"] == f"/groups/{group.pk}/"
    assert not group.profiles.exists()  # a player only once named at a table: no stray "nina" beside "Nina"
    response = client.post(
        f"/groups/{group.pk}/games/new/",
        {"seat_1": "nina", "seat_2": "Omar", "seat_3": "", "seat_4": "", "nugget_ladder": "by_place"},
    )
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.players() == ("nina", "Omar")
    assert sorted(group.profiles.values_list("name", flat=True)) == ["Omar", "nina"]


def test_a_new_game_needs_two_distinct_players(member_client: Client, group: Group) -> None:
    response = member_client.post(
        f"/groups/{group.pk}/games/new/", {"seat_1": "Ann", "seat_2": "Ann", "nugget_ladder": "by_place"}
    )
    assert response.status_code == 200
    assert "&#x27;Ann&#x27; is named twice" in response.content.decode()
    assert not group.games.exists()


def test_a_new_game_sets_the_supply_in_the_box_for_the_rules(member_client: Client, group: Group) -> None:
    url = f"/groups/{group.pk}/games/new/"
    page = member_client.get(url).content.decode()
    assert '<details class="field" id="supply">' in page  # closed: most tables play with the printed supply
    assert 'name="reward_supply" value="12"' in page and 'name="nugget_supply" value="16"' in page
    players = {"seat_1": "Ann", "seat_2": "Ben"}
    made = member_client.post(
        url, players | {"nugget_ladder": "fewest_zero", "reward_supply": "3", "nugget_supply": "0"}
    )
    game = Game.objects.get(pk=made["Location"].split("/")[2])
    assert game.options == {"reward_supply": 3, "nugget_supply": 0, "nugget_ladder": "fewest_zero"}
    state = replay_game(game).state
    assert set(state.supply.values()) == {3} and state.nuggets_left == 0
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Options: 3 tokens of each kind · 0 nugget cards · Fewest nuggets score 0" in page
    # The printed supply, typed or left blank, is no option.
    for supply in ({"reward_supply": "12", "nugget_supply": "16"}, {"reward_supply": "", "nugget_supply": ""}, {}):
        made = member_client.post(url, players | {"nugget_ladder": "by_place"} | supply)
        game = Game.objects.get(pk=made["Location"].split("/")[2])
        assert game.options == {}
        assert 'id="options"' not in member_client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize(
    ("supply", "message"),
    [
        ({"reward_supply": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"reward_supply": "1000"}, "Ensure this value is less than or equal to 999."),
        ({"nugget_supply": "-1"}, "Ensure this value is greater than or equal to 0."),
        ({"nugget_supply": "2.5"}, "Enter a whole number."),
        ({"reward_supply": "twelve"}, "Enter a whole number."),
        ({"reward_supply": "9" * 5000}, "Enter a whole number."),
    ],
)
def test_a_bad_supply_is_refused_in_the_form(
    member_client: Client, group: Group, supply: dict[str, str], message: str
) -> None:
    url = f"/groups/{group.pk}/games/new/"
    response = member_client.post(url, {"seat_1": "Ann", "seat_2": "Ben", "nugget_ladder": "by_place"} | supply)
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page
    assert '<details class="field" id="supply" open>' in page  # the error is in view
    assert not group.games.exists()


def test_the_supply_s_messages_are_in_the_reader_s_language(member_client: Client, group: Group) -> None:
    response = member_client.post(
        f"/groups/{group.pk}/games/new/",
        {"seat_1": "Ann", "seat_2": "Ben", "nugget_ladder": "by_place", "reward_supply": "x"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert "Saisissez un nombre entier." in response.content.decode()


def test_log_in_log_out_and_change_password(owner: User) -> None:
    client = Client()
    assert client.post("/accounts/login/", {"username": "olive", "password": "wrong"}).status_code == 200
    assert client.post("/accounts/login/", {"username": "olive", "password": "pw-olive-123"}).status_code == 302
    response = client.post(
        "/accounts/password/",
        {"old_password": "pw-olive-123", "new_password1": "new-secret-977", "new_password2": "new-secret-977"},
    )
    assert response["Location"] == "/accounts/password/done/"
    assert client.post("/accounts/logout/").status_code == 302
    assert client.post("/accounts/login/", {"username": "olive", "password": "new-secret-977"}).status_code == 302


def test_an_invite_link_adds_a_member_and_a_new_link_retires_it(owner_client: Client, group: Group) -> None:
    newcomer = User.objects.create_user("pia", password="pw-pia-123")
    client = Client()
    client.force_login(newcomer)
    old_token = group.invite_token
    owner_client.post(f"/groups/{group.pk}/invite/")
    group.refresh_from_db()
    assert client.get(f"/invite/{old_token}/").status_code == 404
    assert "Join the group" in client.get(f"/invite/{group.invite_token}/").content.decode()
    client.post(f"/invite/{group.invite_token}/")
    assert group.members.filter(pk=newcomer.pk).exists()
    owner_client.post(f"/groups/{group.pk}/members/{newcomer.pk}/remove/")
    assert not group.members.filter(pk=newcomer.pk).exists()


def test_the_owner_stays_in_the_group(owner_client: Client, group: Group, owner: User) -> None:
    response = owner_client.post(f"/groups/{group.pk}/members/{owner.pk}/remove/", follow=True)
    assert "The owner stays in the group." in response.content.decode()
    assert group.members.filter(pk=owner.pk).exists()


def test_adding_a_player_with_htmx_swaps_only_the_players(member_client: Client, group: Group) -> None:
    response = member_client.post(f"/groups/{group.pk}/", {"name": "Quinn"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200 and page.lstrip().startswith('<div id="profiles">') and "Quinn" in page
    duplicate = member_client.post(f"/groups/{group.pk}/", {"name": "Quinn"}, HTTP_HX_REQUEST="true")
    assert duplicate.status_code == 422 and "Quinn is already a player of this group." in duplicate.content.decode()


def test_a_profile_links_to_a_member_account(member_client: Client, group: Group, member_user: User) -> None:
    profile = group.profiles.create(name="Max")
    member_client.post(f"/groups/{group.pk}/players/{profile.pk}/", {"name": "Max", "user": member_user.pk})
    profile.refresh_from_db()
    assert profile.user == member_user


def test_a_table_code_is_typed_in_any_case_with_spaces(client: Client, game: Game) -> None:
    code = game.table_code
    response = client.post("/join/", {"code": f" {code[:3].lower()} {code[3:]} "})
    assert response["Location"] == f"/games/{game.pk}/"
    unknown = client.post("/join/", {"code": "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"})
    assert unknown.status_code == 422 and "No game in progress has this code" in unknown.content.decode()


def test_the_theme_switch_is_remembered_without_javascript(client: Client, db: None) -> None:
    response = client.post("/theme/", {"theme": "dark", "next": "/rules/"})
    assert response["Location"] == "/rules/"
    assert 'data-theme="dark"' in client.get("/").content.decode()
    assert client.post("/theme/", {"theme": "dark", "next": "https://evil.example/"})["Location"] == "/"
    assert client.post("/theme/", {"theme": "dark", "next": "0"}).status_code == 302  # found by the fuzz test


def test_sign_up_refuses_a_weak_password_and_a_taken_name(client: Client, owner: User) -> None:
    weak = client.post("/accounts/signup/", {"username": "nina", "password": "12345678"})
    assert "This password is entirely numeric." in weak.content.decode()
    taken = client.post("/accounts/signup/", {"username": "olive", "password": "table-games-42"})
    assert "This username is taken (capital letters do not make a new name)" in taken.content.decode()
    assert not User.objects.filter(username="nina").exists()


def test_the_language_is_chosen_and_remembered(client: Client, db: None) -> None:
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/rules/"})
    assert response["Location"] == "/rules/"
    assert client.cookies["django_language"].value == "fr"
    assert '<html lang="fr"' in client.get("/").content.decode()


def test_the_language_follows_the_browser(client: Client, db: None) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ko-KR,ko;q=0.9").content.decode()
    assert '<html lang="ko"' in page


def test_the_stray_players_that_group_creation_used_to_make_are_removed(owner: User, group: Group) -> None:
    from importlib import import_module
    from types import SimpleNamespace

    from django.apps import apps
    from django.db import connection

    from scoring.creation import create_game

    migration = import_module("scoring.migrations.0005_seats_drafts_activity")
    stray = group.profiles.create(name=owner.username, user=owner)  # what creating the group used to add
    played = create_game(group, ("Ann", "Ben"), {}, promos=False).seats.get(name="Ann").profile
    assert played is not None
    played.user = owner
    played.save()
    unlinked = group.profiles.create(name="Cy")
    migration.remove_stray_players(apps, SimpleNamespace(connection=connection))  # it reads only the alias
    names = set(group.profiles.values_list("name", flat=True))
    assert stray.name not in names and {"Ann", "Ben", "Cy"} <= names and unlinked.pk
