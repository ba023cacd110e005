"""Bounded and race-free (issue 24): "Start the game" posted twice starts one game."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from scoring.models import Game, Group

from .conftest import at_once, logged_in


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
