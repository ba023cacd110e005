"""A group's records, on a few made-up finished games: who holds each, in which game and on which day; the first to
reach a record keeps it; imported plays count in scores, margins and streaks only; the statistics page links them."""

from __future__ import annotations

from datetime import UTC, datetime

from django.test import Client
from django.urls import reverse

from scoring.history.facts import FIELDS
from scoring.history.statistics import PlayedSeat, plays
from scoring.history.summary import Summary
from scoring.models import Game, Group
from tests.scoring.history.test_stats import cooper

OKANAGAN = Game.Kind.OKANAGAN


def seat(game: int, name: str, total: int, rank: int, **facts: int) -> PlayedSeat:
    """A seat of made-up game ``game``, played on day ``game`` of March, with ``facts`` (the others 0; none at all:
    an imported play)."""
    counts = tuple(facts.get(field, 0) for field in FIELDS) if facts else None
    return PlayedSeat(
        game,
        OKANAGAN,
        datetime(2026, 3, game, tzinfo=UTC),
        1,
        (0, name.lower()),
        None,
        name,
        total,
        rank,
        2,
        {},
        counts,
    )


GAMES = [
    # Game 1: Ann wins by 10 (50 to Ben's 40), closing 5 territories.
    seat(1, "Ann", 50, 1, nuggets=2, explorer_sets=3, territories_closed=5),
    seat(1, "Ben", 40, 2, nuggets=4, explorer_sets=1, territories_closed=3),
    # Game 2: Ann again, by 2; Ben's 4 nuggets equal his record of game 1, which he keeps from then.
    seat(2, "Ann", 45, 1, nuggets=1, explorer_sets=2, territories_closed=4),
    seat(2, "Ben", 43, 2, nuggets=4, explorer_sets=3, territories_closed=5),
    # Game 3, an imported play (no facts): Cy scores 71 and wins by 31; Ann's streak stops at 2.
    seat(3, "Ann", 30, 3),
    seat(3, "Cy", 71, 1),
    seat(3, "Ben", 40, 2),
    # Game 4: Ben and Cy share the victory, ahead of Ann by 1: a margin of 1, held by both.
    seat(4, "Ben", 60, 1, nuggets=0, explorer_sets=4, territories_closed=2),
    seat(4, "Cy", 60, 1, nuggets=5, explorer_sets=0, territories_closed=1),
    seat(4, "Ann", 59, 3, nuggets=1, explorer_sets=1, territories_closed=6),
]


def held(kind: Game.Kind = OKANAGAN, seats: list[PlayedSeat] = GAMES) -> dict[str, tuple[int, tuple[str, ...], int]]:
    return {
        record.name: (record.value, record.players, record.game_id)
        for record in Summary().add(seats).kinds[kind].records()
    }


def test_each_record_names_its_player_and_game() -> None:
    assert held() == {
        "highest_score": (71, ("Cy",), 3),  # the imported play counts
        "biggest_margin": (31, ("Cy",), 3),  # 71 − 40
        "most_nuggets": (5, ("Cy",), 4),
        "most_explorer_sets": (4, ("Ben",), 4),
        "most_territories_closed": (6, ("Ann",), 4),
        "longest_streak": (2, ("Ann",), 2),  # games 1 and 2; the game is the last of the run
    }


def test_the_first_to_reach_a_record_keeps_it() -> None:
    first_two = GAMES[:4]
    assert held(seats=first_two)["most_nuggets"] == (4, ("Ben",), 1)
    assert held(seats=first_two)["most_explorer_sets"] == (3, ("Ann",), 1)  # Ben's 3 in game 2 only equals it


def test_a_shared_victory_has_its_margin_held_by_every_winner() -> None:
    assert held(seats=GAMES[7:])["biggest_margin"] == (1, ("Ben", "Cy"), 4)
    everybody_first = [seat(5, "Ann", 20, 1), seat(5, "Ben", 20, 1)]
    assert "biggest_margin" not in held(seats=everybody_first)


def test_players_who_reach_a_record_in_the_same_game_are_all_named() -> None:
    same_game = [
        seat(5, "Ann", 44, 1, nuggets=6, explorer_sets=2),
        seat(5, "Ben", 44, 1, nuggets=6, explorer_sets=1),
        seat(5, "Cy", 30, 3, nuggets=2, explorer_sets=2),
    ]
    records = held(seats=same_game)
    assert records["most_nuggets"] == (6, ("Ann", "Ben"), 5)
    assert records["highest_score"] == (44, ("Ann", "Ben"), 5)
    assert records["most_explorer_sets"] == (2, ("Ann", "Cy"), 5)
    assert records["longest_streak"] == (1, ("Ann", "Ben"), 5)  # a shared win: both runs are 1
    later = [seat(6, "Cy", 40, 1, nuggets=6), seat(6, "Ann", 30, 2, nuggets=1)]
    assert held(seats=[*same_game, *later])["most_nuggets"] == (6, ("Ann", "Ben"), 5)  # a later equal: not a holder


def test_imported_plays_give_no_record_of_the_event_log() -> None:
    imported = GAMES[4:7]
    assert set(held(seats=imported)) == {"highest_score", "biggest_margin", "longest_streak"}


def test_records_as_data_say_their_day_and_link_to_their_game() -> None:
    summary = Summary().add(GAMES)
    assert list(summary.kinds) == [OKANAGAN]
    first = summary.kinds[OKANAGAN].records()[0].to_data()
    assert first == {
        "record": "highest_score",
        "value": 71,
        "players": ["Cy"],
        "game": 3,
        "date": "2026-03-03",
        "url": reverse("game", kwargs={"game_id": 3}),
    }


def test_the_statistics_page_shows_each_record_with_its_definition_and_game(
    member_client: Client, group: Group
) -> None:
    game = cooper(group, ("Ann", 31, 0), ("Ben", 12, 0))
    played = list(plays(group))
    (kind,) = {seat.kind for seat in played}
    assert held(kind, played) == {
        "highest_score": (31, ("Ann",), game.pk),
        "biggest_margin": (19, ("Ann",), game.pk),
        "longest_streak": (1, ("Ann",), game.pk),
    }
    page = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    assert "Biggest winning margin: 19" in page
    assert "The winner&#x27;s points minus those of the best player placed after them, in one game." in page
    assert f'href="{reverse("game", kwargs={"game_id": game.pk})}"' in page


def test_a_play_whose_winner_scored_less_than_one_placed_after_gives_no_margin() -> None:
    upset = [seat(5, "Ann", 10, 1), seat(5, "Ben", 50, 2)]  # BG Stats lets a group rank as it likes
    assert "biggest_margin" not in held(seats=upset)
    shared = [seat(6, "Ann", 45, 1), seat(6, "Ben", 41, 1), seat(6, "Cy", 40, 3)]  # the lowest winner's points
    assert held(seats=shared)["biggest_margin"] == (1, ("Ann", "Ben"), 6)
