"""Every aria-describedby of a form field points at an element of the page (its help text, its errors)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.creation import NewGame, create_games
from scoring.models import Game, Group

pytestmark = pytest.mark.django_db


def missing_descriptions(html: str) -> set[str]:
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    described = {ref for refs in re.findall(r'aria-describedby="([^"]+)"', html) for ref in refs.split()}
    return described - ids


def test_the_sign_up_password_s_help_text_is_where_the_field_says(client: Client) -> None:
    html = client.get("/accounts/signup/").content.decode()
    assert "_helptext" in html
    assert not missing_descriptions(html)


def test_the_sign_up_form_s_errors_are_where_the_fields_say(client: Client) -> None:
    html = client.post("/accounts/signup/", {"username": "", "password1": "x"}).content.decode()
    assert "_error" in html
    assert not missing_descriptions(html)


def test_a_score_sheet_s_help_texts_are_where_the_fields_say(member_client: Client, group: Group) -> None:
    game = create_games(group, [NewGame(Game.Kind.COOPER_ISLAND, ("Ann", "Ben"))])[0]
    member_client.post(f"/games/{game.pk}/sheet/0/", {"order_3": "6"})  # Ann's line, not done
    html = member_client.get(f"/games/{game.pk}/sheet/1/").content.decode()  # card 3: "Taken by Ann"
    assert "_helptext" in html
    assert not missing_descriptions(html)
