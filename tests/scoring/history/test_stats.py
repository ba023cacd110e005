"""Statistics on hand-made histories, with ties and shared wins; the charts on the pages."""

from __future__ import annotations

import re

from django.test import Client

from scoring.creation import create_sheet_game
from scoring.history import summary
from scoring.history.charts import MOST_POINTS, line
from scoring.models import Game, Group


def cooper(group: Group, *players: tuple[str, int, int]) -> Game:
    """A finished Cooper Island game: (name, total, empty spaces) per player."""
    sheet = {
        "format": "cooper-island-sheet/1",
        "players": [
            {"name": name, "logbooks": 0, "spaces_past_logbook": [0, 0], "royal_orders": {}, "buildings": total,
             "leftovers": {"coins": 0, "resources": 0, "cartographer": 0, "tiles": 0}, "anchors": 0,
             "empty_spaces": empty}
            for name, total, empty in players
        ],
    }  # fmt: skip
    return create_sheet_game(group, sheet)


def history(group: Group) -> None:
    cooper(group, ("Ann", 50, 1), ("Ben", 50, 1))  # a shared win
    cooper(group, ("Ann", 40, 0), ("Ben", 45, 0))  # Ben wins
    cooper(group, ("Ann", 60, 2), ("Ben", 30, 0), ("Cy", 60, 2))  # Ann and Cy share


def test_shared_wins_count_for_each_winner_and_ties_in_head_to_head(group: Group) -> None:
    history(group)
    (stats,) = summary.history(group).stats()
    assert stats.games == 3
    lines = {player.name: player for player in stats.players}
    assert [player.name for player in stats.players] == ["Ann", "Ben", "Cy"]  # 2 wins each, then by name
    assert (lines["Ann"].plays, lines["Ann"].wins, lines["Ann"].average, lines["Ann"].best) == (3, 2, 50.0, 60)
    assert (lines["Ben"].plays, lines["Ben"].wins, lines["Ben"].win_rate) == (3, 2, 2 / 3)
    assert (lines["Cy"].plays, lines["Cy"].wins) == (1, 1)
    assert lines["Ann"].by_player_count() == [(2, 2, 1, 0.5), (3, 1, 1, 1.0)]
    assert lines["Ben"].streaks() == (0, 2) and lines["Ann"].streaks() == (1, 1)
    pairs = {(pair.first, pair.second): pair for pair in stats.head_to_head}
    ann_ben = pairs[("Ann", "Ben")]
    assert (ann_ben.games, ann_ben.first_ahead, ann_ben.second_ahead, ann_ben.ties) == (3, 1, 1, 1)
    assert (pairs[("Ann", "Cy")].ties, pairs[("Ben", "Cy")].second_ahead) == (1, 1)


def test_the_statistics_page_states_its_definitions_and_draws_the_wins(member_client: Client, group: Group) -> None:
    history(group)
    page = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    assert "a shared win counts as a win for each of them" in page
    assert '<svg class="chart"' in page and "Wins per player" in page
    assert "Ann – Ben: 1 – 1 (1 tied) in 3 games" in page


def test_a_players_page_draws_their_scores_over_time(member_client: Client, group: Group) -> None:
    history(group)
    ann = group.profiles.get(name="Ann")
    page = member_client.get(f"/groups/{group.pk}/players/{ann.pk}/").content.decode()
    assert "2 wins · 3 plays · average 50.0 · best 60" in page
    scores = page.split("<title>Scores over time</title>", 1)[1].split("</svg>", 1)[0]
    assert scores.count("<circle") == 3 and "<polyline" in scores


def test_a_finished_game_shows_its_score_breakdown(member_client: Client, group: Group) -> None:
    history(group)
    game = group.games.first()
    page = member_client.get(f"/games/{game.pk}/").content.decode()  # type: ignore[union-attr]
    assert "Score breakdown" in page and 'class="series-' in page


def test_a_line_of_many_games_draws_at_most_sixty_points_each_of_a_run_of_games() -> None:
    points = [(f"day {number}", float(number % 2)) for number in range(130)]  # 0, 1, 0, 1...
    chart = str(line("Scores over time", points))
    assert chart.count("<circle") == 44 <= MOST_POINTS  # runs of 3 games (130 / 60, rounded up), the last of 1
    assert "<title>day 0 – day 2: 0.3</title>" in chart  # the mean of 0, 1, 0
    assert "<title>day 129: 1.0</title>" in chart
    last = str(line("Rating over time", points, combine=lambda values: values[-1]))
    assert "<title>day 0 – day 2: 0.0</title>" in last
    assert str(line("Scores over time", points[:MOST_POINTS])).count("<circle") == MOST_POINTS  # one a game


def test_the_statistics_page_of_two_games_names_each_of_its_regions_once(member_client: Client, group: Group) -> None:
    history(group)
    sheet = {
        "format": "small-islands-sheet/1",
        "players": [
            {"name": name, "prestige": points, "discoveries": [], "ship_placed": False, "ports": 0, "houses": 0}
            for name, points in (("Ann", 12), ("Ben", 20))
        ],
    }
    create_sheet_game(group, sheet)
    page = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    regions = re.findall(r'role="region"\s+aria-label="([^"]+)"', page)
    assert "Average score, part by part · Small Islands" in regions
    assert len(regions) == len(set(regions)), regions
