"""Names that look alike are refused (Unicode TR39 skeletons, scoring/confusables.py): a username like one
taken, a player's name like another player's of the group, or a name mixing alphabets whose letters look
alike. Was: ``Annе`` with a Cyrillic ``е`` passed beside ``Anne``."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client

from scoring.confusables import look_alike, look_alike_pair, mixes_scripts, new_players_problem, skeleton
from scoring.forms import checked_name
from scoring.models import Game, Group

CYRILLIC_E = "\u0435"
ANNE_IN_TWO_ALPHABETS = f"Ann{CYRILLIC_E}"
MIXED = "This name mixes letters of alphabets that look alike (such as Latin and Cyrillic): write it in one alphabet."


def page_of(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("first", "second"),
    [("Anne", ANNE_IN_TWO_ALPHABETS), ("Paul", "PauI"), ("Bo", "\u0412\u043e"), ("Al", "A1"), ("Olga", "0lga")],
)
def test_names_a_reader_takes_for_each_other_look_alike(first: str, second: str) -> None:
    assert look_alike(first, second) and look_alike(second, first)


@pytest.mark.parametrize(("first", "second"), [("Ann", "ANN"), ("Lea", "Léa"), ("Ann", "Anna"), ("Zoé", "Zoe")])
def test_names_that_differ_to_the_eye_or_are_the_same_player_do_not_look_alike(first: str, second: str) -> None:
    assert not look_alike(first, second)


@pytest.mark.parametrize(
    ("name", "mixed"),
    [(ANNE_IN_TWO_ALPHABETS, True), ("Ann Анна", True), ("Анна", False), ("Zoé", False), ("Ann 김", False),
     ("田中エリ", False), ("김민준", False), ("李小龍", False), ("O'Brien-2", False)],
)  # fmt: skip
def test_a_name_mixes_scripts_only_when_their_letters_look_alike(name: str, mixed: bool) -> None:
    assert mixes_scripts(name) is mixed


COPA_IN_CYRILLIC = "\u0441\u043e\u0440\u0430"
"""``сора``: every letter Cyrillic (no mixing), and read as the Latin ``copa``."""


def sign_up(username: str, **extra: str) -> object:
    return Client(**extra).post("/accounts/signup/", {"username": username, "password": "table-games-42"})


def test_sign_up_refuses_a_username_like_a_taken_one_or_mixing_alphabets(db: None) -> None:
    User.objects.create_user("copa", password="pw-copa-4242")
    User.objects.create_user("Paul", password="pw-paul-4242")
    assert "This username is taken" in page_of(sign_up("COPA"))  # the same name, as before
    for username in (COPA_IN_CYRILLIC, "PauI"):
        response = sign_up(username)
        assert response.status_code == 200, username  # type: ignore[attr-defined]
        assert "This username looks like one that is taken (letters that look alike)" in page_of(response), username
    assert MIXED in page_of(sign_up(ANNE_IN_TWO_ALPHABETS))
    assert sorted(User.objects.values_list("username", flat=True)) == ["Paul", "copa"]
    assert sign_up("anne").status_code == 302  # type: ignore[attr-defined]


def test_sign_up_says_it_in_the_reader_s_language(db: None) -> None:
    response = sign_up(ANNE_IN_TWO_ALPHABETS, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Ce nom mêle des lettres d'alphabets qui se ressemblent" in page_of(response)


def new_game(client: Client, group: Group, *names: str) -> object:
    seats = {f"seat_{n}": name for n, name in enumerate(names, start=1)}
    return client.post(f"/groups/{group.pk}/games/new/", seats | {"nugget_ladder": "by_place"})


def test_a_new_game_refuses_a_name_like_a_player_of_the_group_or_like_another_seat(
    member_client: Client, group: Group
) -> None:
    assert new_game(member_client, group, "Copa", "Paul").status_code == 302  # type: ignore[attr-defined]
    like_a_player = page_of(new_game(member_client, group, "\u0421\u043e\u0440\u0430", "Ben"))
    assert "Сора looks like Copa, a player of this group: choose that player or a name that looks different." in (
        like_a_player
    )
    assert MIXED in page_of(new_game(member_client, group, ANNE_IN_TWO_ALPHABETS, "Ben"))
    two_seats = page_of(new_game(member_client, group, "Al", "AI"))
    assert "Al and AI look alike: give the players names that look different." in two_seats
    assert new_game(member_client, group, "COPA", "paul").status_code == 302  # type: ignore[attr-defined]
    assert group.games.count() == 2 and sorted(group.profiles.values_list("name", flat=True)) == ["Copa", "Paul"]


def test_a_new_sheet_game_refuses_them_too(member_client: Client, group: Group) -> None:
    assert new_game(member_client, group, "Copa", "Paul").status_code == 302  # type: ignore[attr-defined]
    url = f"/groups/{group.pk}/sheets/new/small_islands/"
    response = member_client.post(url, {"name_1": "PauI", "name_2": "Ben"})
    assert response.status_code == 422
    assert "PauI looks like Paul, a player of this group" in page_of(response)
    assert MIXED in page_of(member_client.post(url, {"name_1": ANNE_IN_TWO_ALPHABETS}))
    assert not group.games.exclude(kind=Game.Kind.OKANAGAN).exists()


def test_renaming_a_player_refuses_a_name_like_another_player_s_but_not_their_own(
    member_client: Client, group: Group
) -> None:
    assert new_game(member_client, group, "Copa", "Paul").status_code == 302  # type: ignore[attr-defined]
    paul = group.profiles.get(name="Paul")
    url = f"/groups/{group.pk}/players/{paul.pk}/"
    response = member_client.post(url, {"name": "\u0421\u043e\u0440\u0430", "user": ""})
    assert "Сора looks like Copa, a player of this group" in page_of(response)
    assert MIXED in page_of(member_client.post(url, {"name": f"Paul {ANNE_IN_TWO_ALPHABETS}", "user": ""}))
    paul.refresh_from_db()
    assert paul.name == "Paul"
    assert member_client.post(url, {"name": "PauI", "user": ""}).status_code == 302  # type: ignore[attr-defined]
    paul.refresh_from_db()
    assert paul.name == "PauI"  # like no other player: a rename of Paul himself


ORDINARY_NAMES = [
    # French, German, Italian: accents, diaeresis, sharp s
    "Éloïse", "Zoë", "François", "Gaëlle", "Renée", "Jürgen", "Weiß", "Müller", "Niccolò", "Ludovica",
    # Korean, Chinese, Japanese
    "민지", "김민준", "王小明", "欧阳娜娜", "陳美玲", "田中 太郎", "さくら",
    # one script other than Latin
    "Анна", "Дмитрий", "Νίκος", "Σοφία", "Ἀλέξανδρος",
    # other Latin letters
    "Łukasz", "Ørjan", "Ægir", "Çağla", "İlker", "Žofie", "Åsa", "Nuño",
    # digits, spaces, hyphens, apostrophes
    "Player 2", "4 Tables", "Mary Ann", "O'Neil", "D’Angelo", "Jean-Luc", "Anne-Marie O'Brien", "Ann 김",
]  # fmt: skip


@pytest.mark.parametrize("name", ORDINARY_NAMES)
def test_an_ordinary_name_in_any_of_the_site_s_languages_is_a_name(name: str) -> None:
    assert checked_name(name) == name


@pytest.mark.parametrize(
    "name",
    [ANNE_IN_TWO_ALPHABETS, "\u0410nna", "\u039di\u03ba\u03bf\u03c2", "P\u0430ul", "J\u0435an-Luc", "\u0397elen"],
)
def test_a_name_mixing_alphabets_whose_letters_look_alike_is_refused(name: str) -> None:
    with pytest.raises(ValidationError, match="mixes letters of alphabets"):
        checked_name(name)


def test_ordinary_names_of_one_group_do_not_look_alike_to_each_other() -> None:
    assert look_alike_pair(ORDINARY_NAMES) is None
    for name in ORDINARY_NAMES:
        assert new_players_problem([name], [other for other in ORDINARY_NAMES if other != name]) is None


@pytest.mark.parametrize(
    ("first", "second", "collide"),
    [("Anna", "\u0410nna", True), ("Ioana", "loana", True), ("Anna", "Anne", False), ("Ann", "Anna", False),
     ("Jurgen", "Jürgen", False), ("Zoe", "Zoë", False), ("Eloise", "Éloïse", False), ("Anna", "Анна", False),
     ("Nikos", "Νίκος", False), ("Lea", "Léa", False)],
)  # fmt: skip
def test_two_players_of_a_group_are_refused_together_only_when_their_skeletons_collide(
    first: str, second: str, collide: bool
) -> None:
    """Both already players of the group (from before the names were checked): a new game with both is refused
    only when they look the same (equal TR39 skeletons), not for names that merely resemble each other."""
    assert (skeleton(first) == skeleton(second) or skeleton(first.casefold()) == skeleton(second.casefold())) is collide
    problem = new_players_problem([first, second], [first, second])
    assert (problem is not None) is collide
    if collide:
        assert problem == f"{first} and {second} look alike: give the players names that look different."
