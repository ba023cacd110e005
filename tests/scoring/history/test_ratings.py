"""Skill ratings: Plackett–Luce worked by hand and by the package, shared places, solo games, deleted, reopened and
restored games, the order the games finished, and the pages (their queries, the number, the sentence, the chart)."""

from __future__ import annotations

import html
import json
import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from scoring.creation import create_game, create_games, sheet_game
from scoring.history.portability import backup, restore
from scoring.history.ratings import Rating, player_history, recompute
from scoring.history.statistics import timeline
from scoring.history.summary import history
from scoring.log import finish, reopen
from scoring.models import Game, Group, Seat
from scoring.sheets.lifecycle import finish_sheet_game, reopen_sheet_game
from scoring.sheets.lines import sheet_lines
from support.random_games import RandomChooser, random_record

MU, SIGMA = 25.0, 25 / 3
BETA, TAU, KAPPA = SIGMA / 2, MU / 300, 0.0001
"""The model's default parameters (Weng & Lin's, as OpenSkill takes them)."""

START = datetime(2026, 1, 1, 20, tzinfo=UTC)

type Pair = tuple[float, float]


def by_hand(players: list[Pair], ranks: list[int]) -> list[Pair]:
    """One game's update, one player per team, as Weng & Lin (2011) write it (Algorithm 4, Plackett–Luce), with
    the dynamics τ added to each σ² first:

    c = √Σ(σᵢ² + β²);  C_q = Σ_{s: r(s) ≥ r(q)} e^{μ_s/c};  A_q = |{s: r(s) = r(q)}|;  p_{i,q} = e^{μᵢ/c} / C_q;
    Ωᵢ = σᵢ²/c · Σ_{q: r(q) ≤ r(i)} ([q = i] − p_{i,q}) / A_q;
    Δᵢ = γᵢ σᵢ²/c² · Σ_{q: r(q) ≤ r(i)} p_{i,q}(1 − p_{i,q}) / A_q,  γᵢ = σᵢ/c;
    μᵢ ← μᵢ + Ωᵢ;  σᵢ² ← σᵢ² · max(1 − Δᵢ, κ).
    """
    sigma2 = [sigma * sigma + TAU * TAU for _mu, sigma in players]
    c = math.sqrt(sum(s2 + BETA * BETA for s2 in sigma2))
    strength = [math.exp(mu / c) for mu, _sigma in players]
    count = range(len(players))
    below = [sum(strength[s] for s in count if ranks[s] >= ranks[q]) for q in count]
    tied = [sum(1 for s in count if ranks[s] == ranks[q]) for q in count]
    after = []
    for i, (mu, _sigma) in enumerate(players):
        omega = delta = 0.0
        for q in count:
            if ranks[q] <= ranks[i]:
                p = strength[i] / below[q]
                omega += ((q == i) - p) / tied[q]
                delta += p * (1 - p) / tied[q]
        gamma = math.sqrt(sigma2[i]) / c
        after.append(
            (mu + sigma2[i] / c * omega, math.sqrt(sigma2[i] * max(1 - gamma * sigma2[i] / c**2 * delta, KAPPA)))
        )
    return after


def by_package(players: list[Pair], ranks: list[int]) -> list[Pair]:
    model = PlackettLuce()
    teams = [[model.rating(mu, sigma)] for mu, sigma in players]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=[float(rank) for rank in ranks])]


def cooper(*players: tuple[str, int], finished: datetime | None = None) -> Any:
    """A finished Cooper Island game to store: (name, total) per player, equal totals sharing a place."""
    sheet = {
        "format": "cooper-island-sheet/1",
        "players": [
            {"name": name, "logbooks": 0, "spaces_past_logbook": [0, 0], "royal_orders": {}, "buildings": total,
             "leftovers": {"coins": 0, "resources": 0, "cartographer": 0, "tiles": 0}, "anchors": 0, "empty_spaces": 0}
            for name, total in players
        ],
    }  # fmt: skip
    return replace(sheet_game(sheet), finished=finished)


def play(group: Group, *players: tuple[str, int], finished: datetime | None = None) -> Game:
    return create_games(group, [cooper(*players, finished=finished)])[0]


def stored(game: Game) -> list[Pair]:
    """Each seat's stored rating after ``game``, in seat order."""
    return [(seat.rating_mu, seat.rating_sigma) for seat in game.seats.order_by("position")]  # type: ignore[misc]


def current(group: Group) -> dict[str, Pair]:
    """Each player's latest Cooper Island rating, by name."""
    return {
        group.profiles.get(pk=key[0]).name: (rating.mu, rating.sigma)
        for key, rating in history(group).kinds[Game.Kind.COOPER_ISLAND].rated().items()
    }


def close(a: list[Pair] | dict[str, Pair], b: list[Pair] | dict[str, Pair]) -> bool:
    """The same ratings (of the same players), to the last few bits."""
    if isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys()
        a, b = [a[name] for name in sorted(a)], [b[name] for name in sorted(a)]
    assert len(a) == len(b)
    return all(
        math.isclose(x, y, rel_tol=1e-12)
        for (mu_a, sigma_a), (mu_b, sigma_b) in zip(a, b, strict=True)
        for x, y in ((mu_a, mu_b), (sigma_a, sigma_b))
    )


def test_two_players_worked_by_hand(group: Group) -> None:
    """Equal ratings, one winner: p = ½ each, so Ω = ±σ²/2c, and both σ shrink alike by Δ = γσ²/4c²."""
    game = play(group, ("Ann", 40), ("Ben", 30))
    s2 = SIGMA**2 + TAU**2
    c = math.sqrt(2 * (s2 + BETA**2))
    omega, delta = s2 / (2 * c), math.sqrt(s2) / c * s2 / c**2 / 4
    sigma = math.sqrt(s2 * (1 - delta))
    expected = [(MU + omega, sigma), (MU - omega, sigma)]
    assert close(stored(game), expected)
    assert close(expected, by_hand([(MU, SIGMA)] * 2, [1, 2]))
    assert close(expected, by_package([(MU, SIGMA)] * 2, [1, 2]))
    assert round(expected[0][0], 4) == 27.6354 and round(sigma, 4) == 8.0659  # the package's documented example


def test_three_players_over_two_games_by_hand_and_by_the_package(group: Group) -> None:
    first = play(group, ("Ann", 40), ("Ben", 30), ("Cy", 20), finished=START)
    second = play(group, ("Ann", 10), ("Ben", 30), ("Cy", 20), finished=START + timedelta(hours=1))
    after_first = by_hand([(MU, SIGMA)] * 3, [1, 2, 3])
    assert close(stored(first), after_first) and close(after_first, by_package([(MU, SIGMA)] * 3, [1, 2, 3]))
    after_second = by_hand(after_first, [3, 1, 2])
    assert close(stored(second), after_second) and close(after_second, by_package(after_first, [3, 1, 2]))
    assert close(current(group), dict(zip(("Ann", "Ben", "Cy"), after_second, strict=True)))


def test_a_shared_place_is_a_tie(group: Group) -> None:
    game = play(group, ("Ann", 30), ("Ben", 30), ("Cy", 20))
    assert [seat.rank for seat in game.seats.order_by("position")] == [1, 1, 3]
    expected = by_hand([(MU, SIGMA)] * 3, [1, 1, 3])
    assert close(stored(game), expected) and close(expected, by_package([(MU, SIGMA)] * 3, [1, 1, 3]))
    assert expected[0] == expected[1]  # tied players move alike
    shared = play(Group.objects.create(name="Two", owner=group.owner), ("Ann", 30), ("Ben", 30))
    assert stored(shared)[0][0] == pytest.approx(MU)  # a tie between equals leaves μ where it was


def test_a_solo_game_changes_nothing(group: Group) -> None:
    play(group, ("Ann", 40), ("Ben", 30), finished=START)
    before = current(group)
    solo = play(group, ("Ann", 50), finished=START + timedelta(hours=1))
    assert stored(solo) == [(None, None)]
    assert current(group) == before
    assert history(group).kinds[Game.Kind.COOPER_ISLAND].rated()[(group.profiles.get(name="Ann").pk, "")].games == 1


def test_the_games_count_in_the_order_they_finished_then_by_id(group: Group) -> None:
    later = play(group, ("Ann", 40), ("Ben", 30), finished=START + timedelta(hours=1))
    earlier = play(group, ("Ann", 10), ("Ben", 30), finished=START)
    after_earlier = by_package([(MU, SIGMA)] * 2, [2, 1])
    assert close(stored(earlier), after_earlier)
    assert close(stored(later), by_package(after_earlier, [1, 2]))
    same = [cooper(("Cy", 40), ("Dee", 30), finished=START), cooper(("Cy", 10), ("Dee", 30), finished=START)]
    first, second = create_games(group, same)
    assert first.pk < second.pk
    assert close(stored(second), by_package(by_package([(MU, SIGMA)] * 2, [1, 2]), [2, 1]))


def test_a_deleted_game_leaves_no_trace(member_client: Client, group: Group) -> None:
    play(group, ("Ann", 40), ("Ben", 30), ("Cy", 20), finished=START)
    gone = play(group, ("Ann", 10), ("Ben", 30), ("Cy", 20), finished=START + timedelta(hours=1))
    play(group, ("Ann", 20), ("Ben", 30), ("Cy", 40), finished=START + timedelta(hours=2))
    member_client.post(f"/games/{gone.pk}/delete/")
    assert not Game.objects.filter(pk=gone.pk).exists()
    other = Group.objects.create(name="Never played it", owner=group.owner)
    play(other, ("Ann", 40), ("Ben", 30), ("Cy", 20), finished=START)
    play(other, ("Ann", 20), ("Ben", 30), ("Cy", 40), finished=START + timedelta(hours=2))
    assert current(group) == current(other)


def test_a_sheet_reopened_and_scored_again_with_another_result_is_rated_again(group: Group) -> None:
    first = play(group, ("Ann", 40), ("Ben", 30), finished=START)
    game = play(group, ("Ann", 40), ("Ben", 30), finished=START + timedelta(hours=1))
    reopen_sheet_game(game, sheet_lines)
    assert stored(game) == [(None, None), (None, None)]
    assert close(current(group), dict(zip(("Ann", "Ben"), stored(first), strict=True)))
    game.refresh_from_db()
    finish_sheet_game(game, cooper(("Ann", 10), ("Ben", 30)).sheet)
    assert close(stored(game), by_package(stored(first), [2, 1]))


def test_an_okanagan_game_reopened_loses_its_rating_until_it_finishes_again(group: Group) -> None:
    record = random_record(RandomChooser(3), 3, 8, 2).to_json()
    game = create_game(group, ("Ann", "Ben", "Cy"), record["options"], promos=True, events=record["events"])
    finish(game, game.revision)
    game.refresh_from_db()
    rated = stored(game)
    assert all(mu is not None for mu, _sigma in rated)
    reopen(game, game.revision)
    assert stored(game) == [(None, None)] * 3 and Game.Kind.OKANAGAN not in history(group).kinds
    game.refresh_from_db()
    finish(game, game.revision)
    assert stored(game) == rated


def test_a_restore_rates_its_games_once(monkeypatch: pytest.MonkeyPatch, group: Group) -> None:
    for hour in range(5):
        play(group, ("Ann", 40 - hour * 10), ("Ben", 30), finished=START + timedelta(hours=hour))
    calls: list[Group] = []

    def counted(group: Group, fresh: Any = ()) -> None:
        calls.append(group)
        recompute(group, fresh)

    monkeypatch.setattr("scoring.history.portability.RESTORE_CHUNK", 2)  # 3 chunks
    monkeypatch.setattr("scoring.history.ratings.recompute", counted)
    restored = restore(group.owner, json.loads("".join(backup(group))))
    assert calls == [restored]
    assert close(current(restored), current(group))


def test_the_rating_is_the_ordinal_with_the_games_it_counts() -> None:
    rating = Rating.of(30.0, 5.0, 12)
    assert rating.ordinal == pytest.approx(15.0)
    assert rating.sentence == "still uncertain after 12 games"
    assert Rating.of(30.0, 3.0, 40).sentence == "settled after 40 games"
    assert Rating.of(27.0, 8.0, 1).sentence == "a first guess after 1 game"


def test_a_rating_says_in_words_how_the_player_stands_against_the_group_s_usual() -> None:
    assert Rating.of(14.0, 8.3, 3).standing == "plays below the group's usual"  # the −11 that puzzled a group
    assert Rating.of(31.0, 5.0, 12).standing == "plays above the group's usual"
    assert Rating.of(25.4, 8.0, 1).standing == "plays about as the group usually does"


def test_a_rating_below_0_is_explained_on_the_page_without_opening_the_explanation(
    member_client: Client, group: Group
) -> None:
    for hour in range(3):
        play(group, ("Ann", 40), ("Ben", 30), finished=START + timedelta(hours=hour))
    ben = history(group).kinds[Game.Kind.COOPER_ISLAND].rated()[(group.profiles.get(name="Ben").pk, "")]
    assert ben.ordinal < 0
    page = html.unescape(member_client.get(f"/groups/{group.pk}/stats/").content.decode())
    shown = page[: page.index("What the rating means")]  # before the folded explanation
    line = shown[shown.index(f"<strong>{ben.ordinal:.1f}</strong>") :]
    assert line.index("Plays below the group's usual · a first guess after 3 games") < line.index("</li>")
    assert "Higher is better. Everyone starts at 0" in shown and "often below 0" in shown


def test_the_pages_show_the_rating_its_sentence_and_its_chart(member_client: Client, group: Group) -> None:
    play(group, ("Ann", 40), ("Ben", 30), finished=START)
    play(group, ("Ann", 40), ("Ben", 30), finished=START + timedelta(hours=1))
    ann = history(group).kinds[Game.Kind.COOPER_ISLAND].rated()[(group.profiles.get(name="Ann").pk, "")]
    page = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    assert f"<strong>{ann.ordinal:.1f}</strong>" in page and "a first guess after 2 games" in page
    assert "The rating is μ − 3σ" in page
    heading = page.index(">Rating</h3>")
    assert page.index(">Ann</a>", heading) < page.index(">Ben</a>", heading)
    profile = member_client.get(f"/groups/{group.pk}/players/{group.profiles.get(name='Ann').pk}/").content.decode()
    assert f"<strong>{ann.ordinal:.1f}</strong>" in profile and "a first guess after 2 games" in profile
    chart = profile.split("<title>Rating over time</title>", 1)[1].split("</svg>", 1)[0]
    assert chart.count("<circle") == 2 and "<polyline" in chart
    rated = player_history(timeline(group, group.profiles.get(name="Ann")))[Game.Kind.COOPER_ISLAND]
    assert [game.rating for game in rated][-1] == ann


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_pages_and_the_recount_run_as_many_queries_with_50_games_as_with_5(
    member_client: Client, group: Group, django_assert_num_queries: Any
) -> None:
    def games(start: int, count: int) -> None:
        create_games(
            group,
            [cooper(("Ann", 10 + n % 3 * 10), ("Ben", 20), ("Cy", 25), finished=START + timedelta(hours=n))
             for n in range(start, start + count)],
        )  # fmt: skip

    games(0, 5)
    ann = group.profiles.get(name="Ann").pk
    pages = [f"/groups/{group.pk}/stats/", f"/groups/{group.pk}/players/{ann}/"]
    few = [queries(member_client, url) for url in pages]
    Seat.objects.filter(game__group=group).update(rating_mu=None)  # every seat to write again
    with CaptureQueriesContext(connection) as recount:
        recompute(group)
    games(5, 45)
    assert [queries(member_client, url) for url in pages] == few
    Seat.objects.filter(game__group=group).update(rating_mu=None)
    with django_assert_num_queries(len(recount)):
        recompute(group)


def test_a_game_finishing_last_is_rated_from_the_stored_ratings_as_a_full_recount_rates_it(group: Group) -> None:
    for hour in range(4):
        play(group, ("Ann", 40 - hour * 10), ("Ben", 30), ("Cy", 20 + hour), finished=START + timedelta(hours=hour))
    last = play(group, ("Ann", 10), ("Ben", 30), ("Cy", 20))
    quick = stored(last)
    Seat.objects.filter(game__group=group).update(rating_mu=None, rating_sigma=None)
    recompute(group)
    assert stored(last) == quick


def test_games_finished_before_the_ratings_existed_are_rated_when_the_next_one_finishes(group: Group) -> None:
    earlier = play(group, ("Ann", 40), ("Ben", 30), finished=START)
    Seat.objects.filter(game__group=group).update(rating_mu=None, rating_sigma=None)  # as the migration left them
    later = play(group, ("Ann", 40), ("Ben", 30))
    after_earlier = by_package([(MU, SIGMA)] * 2, [1, 2])
    assert close(stored(earlier), after_earlier) and close(stored(later), by_package(after_earlier, [1, 2]))


@pytest.mark.parametrize(("mu", "sigma"), [(25.0, 25 / 3), (31.2, 2.5), (12.0, 7.1)])
def test_the_ordinal_is_the_packages(mu: float, sigma: float) -> None:
    assert Rating.of(mu, sigma, 1).ordinal == pytest.approx(PlackettLuce().rating(mu, sigma).ordinal())
