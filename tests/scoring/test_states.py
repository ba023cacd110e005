"""Each event's row keeps the state after it (scoring.states): a save applies one event to the stored state,
the pages read it, and it always equals a fresh replay of the log; no request replays the log."""

from __future__ import annotations

import io
import pickle
import random
import sys
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from rules import RecordError
from scoring import states
from scoring.creation import create_game
from scoring.log import append_event, change_log, replay_game
from scoring.models import EventState, Game, Group
from support.random_games import RandomChooser, random_record


def fresh(game: Game) -> Any:
    """The state a whole replay of the stored log gives, as the rows store it."""
    return replay_game(game).state.without_log()


def assert_as_replayed(game: Game) -> None:
    assert list(states.differences(game)) == []
    assert all(states.stored_data(row) is not None for row in game.events.select_related("stored"))
    assert states.current(game).state.without_log() == fresh(game)


@pytest.mark.parametrize("seed", range(6))
def test_appends_edits_and_deletions_keep_every_stored_state_as_a_replay_gives_it(group: Group, seed: int) -> None:
    record = random_record(RandomChooser(seed), 3, 24, 12).to_json()
    events = record["events"]
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=events[:18])
    assert_as_replayed(game)
    for event in events[18:]:
        append_event(game, game.revision, lambda _state, event=event: event)
    assert_as_replayed(game)
    chooser = random.Random(seed)
    for _ in range(8):
        game.refresh_from_db()
        index = chooser.randrange(game.events.count())
        kind = chooser.choice(["delete", "swap", "same"])
        try:
            if kind == "delete":
                change_log(game, game.revision, lambda log, index=index: log[:index] + log[index + 1 :])
            elif kind == "swap" and index:
                change_log(
                    game,
                    game.revision,
                    lambda log, i=index: [*log[: i - 1], log[i], log[i - 1], *log[i + 1 :]],
                )
            else:
                change_log(game, game.revision, lambda log: log)
        except RecordError:
            pass  # refused: the log is left as it was
        assert_as_replayed(game)


def test_a_missing_or_outdated_state_is_rebuilt_from_the_log_when_read(
    group: Group, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = random_record(RandomChooser(3), 3, 20, 10).to_json()
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    EventState.objects.filter(event__game=game, event__index__in=[3, 29]).delete()
    assert states.current(game).state.without_log() == fresh(game)
    assert EventState.objects.filter(event__game=game).count() == 30
    monkeypatch.setattr(states, "STATE_FORMAT", states.STATE_FORMAT + 1)  # states stored by older code
    assert states.load(EventState.objects.get(event__game=game, event__index=29).data) is None
    assert states.current(game).state.without_log() == fresh(game)
    assert states.load(EventState.objects.get(event__game=game, event__index=29).data) is not None


def test_check_data_finds_a_stored_state_that_differs_from_the_replay_and_can_rebuild_it(group: Group) -> None:
    record = random_record(RandomChooser(5), 3, 12, 6).to_json()
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    call_command("check_data", stdout=io.StringIO())  # as stored: nothing to say
    row = EventState.objects.get(event__game=game, event__index=7)
    after = states.load(row.data)
    assert after is not None
    after.state.nuggets_left += 1
    row.data = states.dump(after)
    row.save(update_fields=["data"])
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_data", stdout=out)
    assert f"game {game.pk}: event 7: the stored state differs from a fresh replay" in out.getvalue()
    call_command("check_data", "--rebuild-states", stdout=io.StringIO())
    assert list(states.differences(game)) == []


def test_no_page_poll_or_save_replays_the_log(
    member_client: Client, group: Group, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = random_record(RandomChooser(11), 3, 40, 20).to_json()
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("the log was replayed")

    monkeypatch.setattr(sys.modules["rules.replay"], "replay", no_replay)
    monkeypatch.setattr(sys.modules["rules.okanagan"], "replay", no_replay)
    assert member_client.get(f"/games/{game.pk}/").status_code == 200
    live = f"/watch/{game.spectator_token}/live/"
    assert member_client.get(f"{live}?view=game", HTTP_HX_REQUEST="true").status_code == 200
    assert member_client.get(f"{live}?view=watch", HTTP_HX_REQUEST="true").status_code == 200
    assert member_client.get(f"/games/{game.pk}/events/new/territory/").status_code == 200
    adjust = {"type": "adjust", "player": record["players"][0], "rewards": {}, "nuggets": 0, "note": "x"}
    index = append_event(game, game.revision, lambda _state: adjust)
    assert index == 60
    undo = member_client.post(f"/games/{game.pk}/events/{index}/delete/", {"revision": game.revision})
    assert undo.status_code == 302
    game.refresh_from_db()
    assert game.events.count() == 60
    assert member_client.get(f"/games/{game.pk}/finish/").status_code == 200
    assert member_client.post(f"/games/{game.pk}/finish/", {"revision": game.revision}).status_code == 302
    game.refresh_from_db()
    assert not game.is_playing
    assert member_client.get(f"/watch/{game.spectator_token}/result.png").status_code == 200


RAN: list[str] = []


class _Payload:
    """Unpickled, it runs code (here: it appends to RAN)."""

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return exec, ("import tests.scoring.test_states as t; t.RAN.append('code')",)


def _tampered(game: Game) -> list[str]:
    row = EventState.objects.get(event__game=game, event__index=5)
    players, state, outcome = row.data.split("\n")[1:]
    payload = pickle.dumps(_Payload(), protocol=0).decode("latin-1")
    return [
        "",
        "not json",
        payload,
        f"{states.STATE_FORMAT}\n{payload}\n{payload}\n{payload}",
        f"{states.STATE_FORMAT}\n{players}\n{state.replace('nuggets_left":', 'nuggets_left":"x","y":')}\n{outcome}",
        f"{states.STATE_FORMAT}\n{players}\n{'[' * 100_000}\n{'[' * 100_000}",
        f"{states.STATE_FORMAT}\n{players}\n{state}\n" + '{"index":5,"event":{"type":"exec"},"steps":[]}',
    ]


def test_a_tampered_row_never_runs_code_and_is_rebuilt_from_the_log_when_read(
    member_client: Client, group: Group
) -> None:
    record = random_record(RandomChooser(4), 3, 4, 2).to_json()
    game = create_game(group, tuple(record["players"]), record["options"], promos=True, events=record["events"])
    pickle.loads(pickle.dumps(_Payload()))  # noqa: S301 (the payload is real: unpickled, it runs)
    assert RAN == ["code"]
    RAN.clear()
    for data in _tampered(game):
        EventState.objects.filter(event__game=game, event__index=5).update(data=data)
        assert member_client.get(f"/games/{game.pk}/").status_code == 200
        assert states.load(EventState.objects.get(event__game=game, event__index=5).data) is not None
        assert_as_replayed(game)
    assert RAN == []


@pytest.mark.django_db(transaction=True)
def test_the_migration_to_json_forgets_the_pickled_states_unread_and_they_are_rebuilt_when_read() -> None:
    before, after = ("scoring", "0012_seats_follow_people"), ("scoring", "0013_event_states_json")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    user = old.get_model("auth", "User").objects.create(username="old")
    group = old.get_model("scoring", "Group").objects.create(name="Old table", owner=user, invite_token="t")
    game = old.get_model("scoring", "Game").objects.create(group=group, table_code="CODE1", spectator_token="s1")
    for position, name in enumerate(("White", "Red", "Yellow")):
        old.get_model("scoring", "Seat").objects.create(game=game, position=position, name=name)
    event = old.get_model("scoring", "Event").objects.create(game=game, index=0, data={"type": "round_end"})
    old.get_model("scoring", "EventState").objects.create(event=event, data=pickle.dumps(_Payload()))

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([after])
    assert RAN == []
    assert not executor.loader.project_state([after]).apps.get_model("scoring", "EventState").objects.exists()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert states.current(Game.objects.get(pk=game.pk)).state.round == 2
    assert states.load(EventState.objects.get(event__game=game.pk).data) is not None
    assert RAN == []
