"""Ten phones saving to one game at the same moment: nothing lost, nothing doubled, and every phone
that saw an old state is told so and saves again."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from scoring.creation import create_game
from scoring.log import StaleGame, change_log, replay_game
from scoring.models import Game, Group

PHONES = 10


@pytest.mark.django_db(transaction=True)
def test_ten_phones_saving_at_once_lose_nothing(group: Group) -> None:
    game = create_game(group, ("Ann", "Ben"), {}, promos=False)
    start = threading.Barrier(PHONES)
    stale: list[int] = []
    errors: list[BaseException] = []

    def phone(number: int) -> None:
        try:
            event = {"type": "adjust", "player": "Ann", "rewards": {}, "nuggets": 1, "note": f"phone {number}"}
            seen = Game.objects.get(pk=game.pk).revision
            start.wait()
            while True:
                try:
                    change_log(Game.objects.get(pk=game.pk), seen, lambda events: [*events, event])
                    return
                except StaleGame:
                    stale.append(number)  # the phone is told, reloads the state and saves again
                    seen = Game.objects.get(pk=game.pk).revision
        except BaseException as error:  # noqa: BLE001 - reported below, in the test's thread
            errors.append(error)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=phone, args=(number,)) for number in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    game.refresh_from_db()
    notes = sorted(event.data["note"] for event in game.events.all())
    assert notes == sorted(f"phone {number}" for number in range(PHONES))  # each once: none lost, none doubled
    assert [event.index for event in game.events.all()] == list(range(PHONES))
    assert game.revision == PHONES
    assert replay_game(game).state.holdings["Ann"].nuggets == PHONES
    assert stale, "the phones did not actually collide"
