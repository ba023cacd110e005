"""The demo group's weeks of finished games (``scoring/site/demo/weeks.json``), made once by this script and kept in
the repository, so that ``manage.py demo`` shows ratings, records, insights and head-to-heads to a newcomer.

Each game is played through ``rules`` from a seeded chooser (:mod:`support.random_games`): the printed game, no
promo tile, each round's territories, the end of round 1, then each player's three objective cards. Only the
records are kept; ``manage.py demo`` replays each through the engine for its scores. The same seed gives the same
file: ``python -m support.demo_games > scoring/site/demo/weeks.json``.
"""

from __future__ import annotations

import json
import sys

from rules import Options, apply_event, new_game
from rules.record import Event, ObjectivesEvent, Record, RoundEndEvent
from support.random_games import RandomChooser, random_card, random_territory

TABLE = ("Ann", "Ben", "Cy", "Dee")
"""The demo group's players (Ann is the demo account's)."""
EVENINGS = 16
"""How many games: two or three a week over six weeks or so, the last the day before the demo is loaded."""
TERRITORIES_PER_ROUND = (7, 9)
"""The fewest and most territories scored in a round."""
CARDS = 3
SEED = 32


def demo_game(chooser: RandomChooser, players: tuple[str, ...]) -> Record:
    """A finished game of ``players``: two rounds of territories, the end of round 1 between them, then each player's
    objective cards."""
    state = new_game(players, Options())
    events: list[Event] = []

    def play(event: Event) -> None:
        apply_event(state, event, len(events))
        events.append(event)

    for round_number in (1, 2):
        for _territory in range(chooser.number(*TERRITORIES_PER_ROUND)):
            play(random_territory(state, chooser))
        if round_number == 1:
            play(RoundEndEvent())
    for player in players:
        play(ObjectivesEvent(player, tuple(random_card(chooser) for _card in range(CARDS))))
    return Record(state.players, Options(), tuple(events))


def demo_games(seed: int = SEED) -> list[dict[str, object]]:
    """The demo's games, the oldest first: each with how many days before the demo is loaded it was played, and its
    record. Ann plays every game; two or three of the others join her, in a seat order that changes."""
    chooser = RandomChooser(seed)
    gaps = [chooser.pick([2, 3, 4]) for _gap in range(EVENINGS - 1)]
    days_ago = [1 + sum(gaps[number:]) for number in range(EVENINGS)]  # the last game yesterday
    games: list[dict[str, object]] = []
    for days in days_ago:
        others = list(TABLE[1:])
        chooser.random.shuffle(others)
        players = ["Ann", *others[: chooser.number(1, len(others))]]
        chooser.random.shuffle(players)
        games.append({"days_ago": days, "record": demo_game(chooser, tuple(players)).to_json()})
    return games


if __name__ == "__main__":
    json.dump(demo_games(), sys.stdout, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write("\n")
