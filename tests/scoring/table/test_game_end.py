"""Ending a game asks first, and names every player who would score no objective card."""

from __future__ import annotations

from django.test import Client

from scoring.log import change_log
from scoring.models import Game


def test_ending_asks_first_and_names_the_players_without_cards(member_client: Client, game: Game) -> None:
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/finish/"' in page  # a link to the question, not the end in one tap
    question = member_client.get(f"/games/{game.pk}/finish/").content.decode()
    assert "White, Red, Yellow have no objective cards entered: they will score none." in question
    assert "The end of round 1 was not entered." in question
    cards = {"type": "objectives", "player": "White", "cards": [{"kind": "specific", "rewards": ["green-square"]}]}
    change_log(game, game.revision, lambda events: [cards, {"type": "round_end"}])
    question = member_client.get(f"/games/{game.pk}/finish/").content.decode()
    assert "Red, Yellow have no objective cards entered" in question
    assert "round 1 was not entered" not in question
    game.refresh_from_db()
    assert member_client.post(f"/games/{game.pk}/finish/", {"revision": game.revision}).status_code == 302
    game.refresh_from_db()
    assert not game.is_playing
    assert member_client.get(f"/games/{game.pk}/finish/")["Location"] == f"/games/{game.pk}/"


def test_one_player_without_cards_is_said_in_the_singular(member_client: Client, game: Game) -> None:
    events = [
        {"type": "objectives", "player": player, "cards": [{"kind": "specific", "rewards": ["green-square"]}]}
        for player in ("White", "Red")
    ]
    change_log(game, game.revision, lambda _events: events)
    question = member_client.get(f"/games/{game.pk}/finish/").content.decode()
    assert "Yellow has no objective cards entered: they will score none." in question


def test_round_one_says_when_it_ends_and_what_then(member_client: Client, game: Game) -> None:
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Round 1 ends when every player has built their round-1 buildings:" in page
    assert "1 × farm, 3 × warehouse, 2 × silo." in page  # 3 players
    assert "each player draws 2 objective cards and keeps 3 of their 5" in page
    change_log(game, game.revision, lambda events: [{"type": "round_end"}])
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Round 1 ends when" not in page and "Round 2" in page
