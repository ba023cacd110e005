"""Insights from the event log: each finished game's facts against counts made by hand from the recorded games of
``tests/data``; stored when a game finishes, never for a game in progress; kept through a backup and its restore;
the pages that show them, in a constant number of queries."""

from __future__ import annotations

import html
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from rules import parse_record, score_record
from scoring.creation import create_game
from scoring.history.facts import FIELDS, counts_of, game_facts
from scoring.history.insights import MIN_WINNING_PLAYS, Insights, Rate, WinnersAndOthers
from scoring.history.portability import backup, restore
from scoring.history.summary import history
from scoring.log import finish, reopen
from scoring.models import Game, Group, Seat
from scoring.wording import ACTIONS
from support.random_games import RandomChooser, random_record

DATA = Path(__file__).parents[2] / "data"


def example(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    return record


def raw_facts(name: str) -> list[dict[str, Any]]:
    """The facts of example ``name``, as stored."""
    record = parse_record(example(name))
    return game_facts(record.players, record.events, score_record(record).final)


def described(facts: dict[str, Any]) -> dict[str, Any]:
    """Stored facts by name, the counts by kind (``special_actions.trade``) as a mapping without zeros."""
    counts = counts_of(facts)
    assert counts is not None
    out: dict[str, Any] = {"special_actions": {}, "tokens": {}, "cards": {}, "cards_completed": {}}
    for name, count in zip(FIELDS, counts, strict=True):
        if "." not in name:
            out[name] = count
        elif count:
            bag, kind = name.split(".")
            out[bag][kind] = count
    return out


def facts_of(name: str) -> dict[str, dict[str, Any]]:
    players = example(name)["players"]
    return {player: described(facts) for player, facts in zip(players, raw_facts(name), strict=True)}


def test_the_full_game_counted_by_hand() -> None:
    facts = facts_of("okanagan-full-game")
    # Closers: Ann events 4, 18, 23, 28; Ben 5, 10, 26, 29; Cy 6, 11, 21, 30; Dee 7, 17, 22, 27.
    assert [facts[player]["territories_closed"] for player in facts] == [4, 4, 4, 4]
    # Ann's influence where she built: 4 farm 3, 7 silo 1, 11 warehouse 2, 17 silo 1, 18 farm 3, 23 warehouse 2,
    # 26 warehouse 2, 28 warehouse + silo 3: 17 over 8 territories.
    assert (facts["Ann"]["influence_sum"], facts["Ann"]["influence_count"]) == (17, 8)
    # Ties: Ann orders Ben = Cy (event 4, not hers) and Ann = Cy (18, puts Cy first); Ben orders all four tied at 2
    # (26, puts himself third); Dee orders Ann = Ben = Cy (7) and Ben = Cy (22); Cy breaks none.
    ties = {
        player: (facts[player]["ties_broken"], facts[player]["ties_own"], facts[player]["ties_favoured"])
        for player in facts
    }
    assert ties == {"Ann": (2, 1, 0), "Ben": (1, 1, 0), "Cy": (0, 0, 0), "Dee": (2, 0, 0)}
    # Special actions, to the last in each order or the lone player, and the Volcanoes (8 Ann, 19 Dee).
    assert facts["Ann"]["special_actions"] == {
        "reward_of_shape": 1, "trade": 1, "exchange_shape": 1, "exchange_colour": 1, "gold_nugget": 1,
    }  # fmt: skip
    assert facts["Ben"]["special_actions"] == {"gold_nugget": 1, "choose_first": 1}  # events 4 and 7
    assert facts["Cy"]["special_actions"] == {"two_rewards": 1, "new_tiles": 1, "gold_nugget": 1}  # 6, 22, 29
    assert facts["Dee"]["special_actions"] == {"gifts": 1, "new_objectives": 1, "two_rewards": 1, "gold_nugget": 1}
    # The cards kept last: Ann event 13, Ben 14 (two specific), Cy 15 (two cards), Dee 20.
    assert facts["Ben"]["cards"] == {"specific": 2, "territory": 1}
    assert facts["Cy"]["cards"] == {"specific": 1, "shape": 1}
    # Nuggets: Ann 26; Ben 4 and the correction of event 25; Cy 29; Dee 30.
    assert [facts[player]["nuggets"] for player in facts] == [1, 2, 1, 1]


def test_the_full_game_ends_as_its_expected_result_says() -> None:
    """Tokens, Explorer sets and completed cards at the end, against the result file written by hand."""
    expected = json.loads((DATA / "okanagan-full-game.expected.json").read_text())
    facts = facts_of("okanagan-full-game")
    for player in expected["players"]:
        mine = facts[player["name"]]
        assert mine["tokens"] == player["rewards"]
        assert mine["explorer_sets"] == player["explorer_sets"]
        completed: dict[str, int] = {}
        for card in player["objectives"]:
            if card["sets"]:
                completed[card["kind"]] = completed.get(card["kind"], 0) + 1
        assert mine["cards_completed"] == completed


def test_the_dense_game_counted_by_hand() -> None:
    facts = facts_of("okanagan-dense-four-players")
    # Each player closes 4 territories (events 0-3, 6-9, 11-14, 15-18 in turn: Ann, Ben, Cy, Dee, then Ben...).
    assert [facts[player]["territories_closed"] for player in facts] == [4, 4, 4, 4]
    # Cy closes 2 (Ann = Cy = Dee, puts herself third), 8 (no tie), 13 (Ann = Ben), 16 (Ben = Dee, and Ann = Cy:
    # puts herself first): 4 ties, 2 hers, 1 favouring her.
    assert (facts["Cy"]["ties_broken"], facts["Cy"]["ties_own"], facts["Cy"]["ties_favoured"]) == (4, 2, 1)
    # Ben closes 1 (Ann = Dee), 7 (Ben = Dee), 12 (Ben = Cy = Dee), 15 (Ben = Cy): 4 ties, 3 his, none favouring him.
    assert (facts["Ben"]["ties_broken"], facts["Ben"]["ties_own"], facts["Ben"]["ties_favoured"]) == (4, 3, 0)
    # Cy is last in 0 (gold nugget), 7 (colour exchange) and 18 (new tiles), and plays the Volcano in 4.
    assert facts["Cy"]["special_actions"] == {
        "gold_nugget": 1, "reward_of_shape": 1, "exchange_colour": 1, "new_tiles": 1,
    }  # fmt: skip
    # Ben is last in 2 (choose first), 9 (new objectives), 12 (a reward of a shape), 13 (gifts), and alone in 11
    # takes the special action (gold nugget).
    assert facts["Ben"]["special_actions"] == {
        "choose_first": 1, "new_objectives": 1, "gold_nugget": 1, "reward_of_shape": 1, "gifts": 1,
    }  # fmt: skip


def test_the_promo_tiles_counted_by_hand() -> None:
    facts = facts_of("okanagan-promo-tiles")
    # No territory; Ann's Volcano draws a nugget, Cy's new objectives; Ben's Beaver Dam a black hexagon.
    assert facts["Ann"]["special_actions"] == {"gold_nugget": 1} and facts["Ann"]["nuggets"] == 1
    assert facts["Cy"]["special_actions"] == {"new_objectives": 1} and facts["Cy"]["cards"] == {"shape": 1}
    assert facts["Ben"]["tokens"] == {"black-hexagon": 1} and facts["Ben"]["special_actions"] == {}
    assert all(facts[player]["territories_closed"] == 0 for player in facts)


def a_finished_game(group: Group, name: str = "okanagan-full-game") -> Game:
    record = example(name)
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    finish(game, game.revision)
    return game


def stored(game: Game) -> list[dict[str, Any]]:
    return [seat.facts for seat in Seat.objects.filter(game=game).order_by("position")]


def test_a_game_stores_its_facts_when_it_finishes_and_loses_them_when_reopened(group: Group) -> None:
    record = example("okanagan-full-game")
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    assert stored(game) == [{}, {}, {}, {}]  # in progress: secret
    assert not history(group).okanagan().insights
    finish(game, game.revision)
    assert stored(game) == raw_facts("okanagan-full-game")
    game.refresh_from_db()
    reopen(game, game.revision)
    assert stored(game) == [{}, {}, {}, {}]
    assert history(group).okanagan().split.group.games == 0


def test_no_insight_from_a_game_in_progress(member_client: Client, group: Group) -> None:
    a_finished_game(group, "okanagan-promo-tiles")
    record = example("okanagan-full-game")
    create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    by_player = history(group).okanagan().insights
    assert {insights.games for insights in by_player.values()} == {1}
    assert sum(insights["territories_closed"] for insights in by_player.values()) == 0  # none in the promos
    page = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    assert "Insights from the event log" in page


def test_the_facts_survive_a_backup_and_its_restore(group: Group) -> None:
    game = a_finished_game(group)
    someone = User.objects.create_user("rita", password="pw-rita-123")
    copy = restore(someone, json.loads("".join(backup(group))))
    (restored,) = copy.games.all()
    assert restored.status == Game.Status.FINISHED
    assert stored(restored) == stored(game) != [{}, {}, {}, {}]


def test_the_migration_fills_the_facts_of_games_finished_before(group: Group) -> None:
    game = a_finished_game(group)
    before = stored(game)
    Seat.objects.filter(game=game).update(facts={})
    migration = __import__("scoring.migrations.0018_seat_facts", fromlist=["seat_facts"])
    migration.seat_facts(apps, SimpleNamespace(connection=connection))
    assert stored(game) == before


def test_winners_and_others_per_game(group: Group) -> None:
    a_finished_game(group)
    rates = history(group).okanagan().split
    assert (rates.winners.games, rates.others.games) == (1, 3)
    nuggets = next(rate for rate in rates.rates("special_actions", ACTIONS) if rate.kind == "gold_nugget")
    # Gold nuggets taken as a special action: Ann 1, Ben 1, Cy 1, Dee 1 (see the test above).
    assert nuggets.winners == 1.0 and nuggets.others == 1.0 and not nuggets.winners_more


def seats_taking(trades: int, games: int) -> Insights:
    """The facts of ``games`` seats that took ``trades`` trade special actions in all."""
    insights = Insights()
    for game in range(games):
        insights.add([trades if field == "special_actions.trade" and game == 0 else 0 for field in FIELDS])
    return insights


def test_what_winners_took_is_marked_only_from_its_minimum_of_winning_plays(
    member_client: Client, group: Group
) -> None:
    def trade(winners: int) -> Rate:
        split = WinnersAndOthers(seats_taking(winners, winners), seats_taking(1, 10))
        return next(rate for rate in split.rates("special_actions", ACTIONS) if rate.kind == "trade")

    assert MIN_WINNING_PLAYS == 5
    assert trade(2).winners > trade(2).others and not trade(2).winners_more  # 2 winning plays: unsaid
    assert trade(5).winners_more
    a_finished_game(group)  # one winning play
    stats = html.unescape(member_client.get(f"/groups/{group.pk}/stats/").content.decode())
    assert "Nothing is marked before 5 winning plays" in stats and "▲" not in stats


def test_the_pages_show_the_insights_with_their_definitions(member_client: Client, group: Group) -> None:
    a_finished_game(group)
    stats = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    assert "Territories they closed (they played the tile that completed them), per game." in stats
    assert "What winners took" in stats and "Exchange a colour" in stats
    ann = group.profiles.get(name="Ann")
    page = member_client.get(f"/groups/{group.pk}/players/{ann.pk}/").content.decode()
    assert "Group's average" in page and "Insights from the event log" in page


def finished_random_games(group: Group, count: int, start: int = 0) -> None:
    for number in range(start, start + count):
        record = random_record(RandomChooser(number), 3, 8, 2).to_json()
        game = create_game(group, ("Ann", "Ben", "Cy"), record["options"], promos=True, events=record["events"])
        finish(game, game.revision)


def test_the_pages_run_as_many_queries_with_50_games_as_with_5(member_client: Client, group: Group) -> None:
    urls = [f"/groups/{group.pk}/stats/", lambda: f"/groups/{group.pk}/players/{group.profiles.get(name='Ann').pk}/"]

    def counts() -> list[int]:
        out = []
        for url in urls:
            path = url() if callable(url) else url
            with CaptureQueriesContext(connection) as captured:
                assert member_client.get(path).status_code == 200
            out.append(len(captured))
        return out

    finished_random_games(group, 5)
    few = counts()
    finished_random_games(group, 45, start=5)
    assert group.games.filter(status=Game.Status.FINISHED).count() == 50
    assert counts() == few


def test_the_insights_as_data_per_player(group: Group) -> None:
    a_finished_game(group)
    ann = history(group).okanagan().insights[(group.profiles.get(name="Ann").pk, "")].to_data()
    # Ann in the full game (see above): 4 territories, 2 ties broken, 5 special actions, 17 influence over 8.
    assert (ann["games"], ann["territories_closed"], ann["ties_broken"], ann["average_influence"]) == (1, 4, 2, 2.1)
    assert ann["special_actions"]["trade"] == 1 and sum(ann["special_actions"].values()) == 5
    json.dumps(ann)  # plain JSON values
