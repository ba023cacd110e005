"""The group's stored sums (:mod:`scoring.history.summary`) are always what folding every finished game again gives:
after games finish in order and out of order, are reopened, finished again, deleted, imported and restored, after a
player is renamed or removed; a game finishing after the others is added without folding the group again."""

from __future__ import annotations

import io
import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from scoring.creation import create_games
from scoring.history.facts import FACTS_VERSION, FIELDS
from scoring.history.portability import backup, restore
from scoring.history.ratings import recompute
from scoring.history.statistics import PlayedSeat
from scoring.history.statistics_json import statistics_document
from scoring.history.summary import SUMMARY_VERSION, Summary, history, kept
from scoring.log import change_log, finish, reopen
from scoring.models import Game, Group, GroupHistory
from scoring.standings import results_changed
from tests.scoring.conftest import at_once
from tests.scoring.history.test_insights import a_finished_game, finished_random_games
from tests.scoring.history.test_ratings import START, cooper, play


def stored(group: Group) -> Summary:
    summary = Summary.from_data(GroupHistory.objects.get(group=group).data)
    assert summary is not None
    return summary.renamed(dict(group.profiles.values_list("pk", "name")))


def assert_kept(group: Group) -> None:
    """The stored sums are those of every finished game folded again now."""
    assert GroupHistory.objects.filter(group=group).exists() and kept(group)


def test_games_finishing_in_and_out_of_order_reopened_and_deleted_keep_the_sums(group: Group) -> None:
    chooser = random.Random(26)
    names = ("Ann", "Ben", "Cy", "Dee")
    games = []
    for number in range(12):
        players = chooser.sample(names, chooser.choice((2, 3, 4)))
        scores = [(name, chooser.randint(20, 40)) for name in players]  # equal totals share a place
        hours = number if number % 4 else -number  # every fourth game ended before those counted
        games.append(play(group, *scores, finished=START + timedelta(hours=hours)))
        assert_kept(group)
    a_finished_game(group)
    assert_kept(group)
    okanagan = group.games.get(kind=Game.Kind.OKANAGAN)
    reopen(okanagan, okanagan.revision)
    assert_kept(group)
    okanagan.refresh_from_db()
    finish(okanagan, okanagan.revision)
    assert_kept(group)
    okanagan.refresh_from_db()
    change_log(okanagan, okanagan.revision, lambda events: events[:-1])  # a finished game edited: counted once
    assert_kept(group)
    games[3].delete()  # as the delete view does, with its announcement
    results_changed.send(Game, group=group, games=[])
    assert_kept(group)
    summary = stored(group)
    assert summary.kinds[Game.Kind.COOPER_ISLAND].games == 11 and summary.kinds[Game.Kind.OKANAGAN].games == 1
    assert summary.counted == set(group.games.values_list("pk", flat=True))


def test_a_game_finishing_after_the_others_is_added_reading_only_its_own_seats(group: Group) -> None:
    def finishing_queries(hours: int) -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            play(group, ("Ann", 30), ("Ben", 20), finished=START + timedelta(hours=hours))
        return [query["sql"] for query in captured]

    finishing_queries(0)
    added = finishing_queries(1)
    assert_kept(group)
    reading_plays = [sql for sql in added if "total" in sql and "ORDER BY" in sql and "ended" in sql.lower()]
    assert len(reading_plays) == 1 and '"game_id" IN (' in reading_plays[0]  # the new game's seats only
    reading_sums = [sql for sql in added if "grouphistory" in sql and sql.startswith("SELECT")]
    assert len(reading_sums) == 1  # the sums, however large, are read once, locked
    earlier = finishing_queries(-1)  # ended before the last counted: everything is folded again
    assert_kept(group)
    assert not any('"game_id" IN (' in sql for sql in earlier if "total" in sql and "ended" in sql.lower())


def test_a_renamed_player_is_shown_under_the_new_name_without_counting_again(
    member_client: Client, group: Group
) -> None:
    play(group, ("Ann", 30), ("Ben", 20), finished=START)
    ann = group.profiles.get(name="Ann")
    ann.name = "Annabel"
    ann.save()
    page = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    assert "Annabel" in page and ">Ann<" not in page
    assert_kept(group)
    (stats,) = history(group).stats()
    assert {player.name for player in stats.players} == {"Annabel", "Ben"}


def test_a_restored_group_has_the_sums_of_the_group_it_was_made_from(group: Group) -> None:
    a_finished_game(group)
    finished_random_games(group, 3, start=2)
    owner = User.objects.create_user("restorer", password="restorer-password-1")
    copy = restore(owner, json.loads("".join(backup(group))))
    assert_kept(copy)
    assert _without_games(statistics_document(copy)) == _without_games(statistics_document(group))


def _without_games(document: dict[str, Any]) -> dict[str, Any]:
    """The statistics with the records' games left out (a restored group's games have their own ids)."""
    for section in document["games"].values():
        for record in section["records"]:
            del record["game"], record["url"]
    return document | {"group": None}


@pytest.mark.parametrize(
    "stale",
    [
        {},
        {"version": 0},
        {"version": SUMMARY_VERSION},  # summing facts of an older version
        {"version": SUMMARY_VERSION, "facts": FACTS_VERSION, "kinds": {"okanagan": {"games": 1}}},  # edited by hand
        {"version": SUMMARY_VERSION, "facts": FACTS_VERSION, "kinds": {}, "last": "x", "counted": []},
    ],
)
def test_sums_never_stored_of_an_older_version_or_unreadable_are_folded_on_first_reading(
    group: Group, stale: object
) -> None:
    play(group, ("Ann", 30), ("Ben", 20), finished=START)
    GroupHistory.objects.filter(group=group).update(data=stale)
    (stats,) = history(group).stats()
    assert stats.games == 1
    assert_kept(group)


@pytest.mark.django_db(transaction=True)
def test_four_games_finishing_at_once_are_each_rated_and_counted_once(group: Group) -> None:
    play(group, ("Ann", 30), ("Ben", 20), finished=START)  # the sums exist: the four are added to them
    later = [cooper(("Ann", 20 + number), ("Cy", 25), finished=START + timedelta(hours=1)) for number in range(4)]
    outcomes = at_once(4, lambda number: create_games(group, [later[number]]))
    assert not [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
    assert_kept(group)
    assert stored(group).kinds[Game.Kind.COOPER_ISLAND].games == 5
    assert not recompute(group)  # the ratings stored are those of a full recount: each game rated after the others


def test_check_data_finds_a_stored_history_that_differs_from_the_games(group: Group) -> None:
    play(group, ("Ann", 30), ("Ben", 20), finished=START)
    call_command("check_data", stdout=io.StringIO())
    row = GroupHistory.objects.get(group=group)
    row.data["kinds"]["cooper_island"]["games"] = 2
    row.save()
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_data", stdout=out)
    assert f"group {group.pk}: its stored history differs from its games counted again" in out.getvalue()


PLAYERS = ("Ann", "Ben", "Cy", "Dee")


@st.composite
def finished_games(draw: st.DrawFn) -> list[list[PlayedSeat]]:
    """Made-up finished games in the order they were played: 1–4 players (some of the group, some named only), their
    totals ranking them, some with facts, some with ratings, and their parts."""
    games = []
    for number in range(draw(st.integers(1, 8))):
        names = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=4, unique=True))
        totals = [draw(st.integers(-5, 60)) for _name in names]
        facts = draw(st.booleans())
        kind = draw(st.sampled_from([Game.Kind.OKANAGAN, Game.Kind.COOPER_ISLAND]))
        ended = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(hours=number)
        games.append(
            [
                PlayedSeat(
                    game_id=number + 1,
                    kind=kind,
                    ended=ended,
                    seat=seat + 1,
                    key=(PLAYERS.index(name) + 1, "") if name != "Dee" else (0, "dee"),
                    profile_id=PLAYERS.index(name) + 1 if name != "Dee" else None,
                    name=name,
                    total=total,
                    rank=1 + sum(other > total for other in totals),
                    players=len(names),
                    parts={"explorer_points": max(total, 0)} if facts else {},
                    counts=tuple(draw(st.integers(0, 5)) for _field in FIELDS) if facts else None,
                    rating=(draw(st.floats(0, 50)), draw(st.floats(0.5, 9))) if len(names) > 1 else None,
                )
                for seat, (name, total) in enumerate(zip(names, totals, strict=True))
            ]
        )
    return games


@given(finished_games())
def test_games_added_one_by_one_through_the_stored_data_sum_as_all_at_once(games: list[list[PlayedSeat]]) -> None:
    at_once = Summary().add(seat for game in games for seat in game)
    one_by_one = Summary()
    for game in games:
        stored = Summary.from_data(json.loads(json.dumps(one_by_one.to_data())))  # as the database gives it back
        assert stored is not None
        one_by_one = stored.add(game)
    assert one_by_one.to_data() == at_once.to_data()
    for sums in at_once.kinds.values():
        stats = sums.stats()
        assert sum(player.plays for player in stats.players) == sum(
            len(game) for game in games if game[0].kind == sums.kind
        )
        assert all(player.wins <= player.plays and player.streaks()[1] <= player.wins for player in stats.players)
        assert sums.winners.games + sums.others.games == sum(
            1 for game in games for seat in game if seat.kind == sums.kind and seat.counts is not None
        )
