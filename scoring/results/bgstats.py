"""A finished game as a play for BG Stats (Board Game Stats): the JSON of its "Send to BG Stats" link and
its ``.bgsplay`` file, as ``../shared/spec/bgstats.md`` describes them.

Everything comes from what the site stores: the scores, ranks (competition ranks, tied players sharing one) and
winners are the engine's, stored when the game finished (:mod:`scoring.standings`); nothing is scored here. Who may
log a play (its card on the game's page, its file) is :func:`scoring.access.may_log_play`'s to say.

Stable ids: a play's uuid is its game's stored ``uuid`` and a player's is their group profile's, both made
once and carried by the group's backup into a restored group, so that every export of the same play or
player has the same uuid and BG Stats updates instead of duplicating. A stored id rather than a uuid5 of
the play's content: a game reopened and corrected, or a player renamed, is still the same play or player.
What has no stored id gets a uuid5 of what names it: the game (its BoardGameGeek id), the location (its
name) and a seat whose player was removed (the play's uuid and the seat's name).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from itertools import batched
from typing import Any
from urllib.parse import quote
from uuid import UUID, uuid5

from django.utils.translation import gettext

from rules import TITLES, NuggetLadder, PlayerResult, Title, name_key
from scoring.history.streams import json_object, json_text
from scoring.models import Game, Group, Profile, Seat
from scoring.standings import StoredResult, player_result, winner_sentence
from scoring.wording import NUGGET_LADDERS

SOURCE_NAME = "Okanagan Companion"
"""This app's name, as BG Stats shows where a play came from."""
APP_URL = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_URL = "https://app.bgstatsapp.com/createPlay.html?data="
ABOUT = (
    "This is a play file for Board Game Stats (BG Stats), made by Okanagan Companion. "
    "Open it with the BG Stats app to import its plays."
)
NAMESPACE = UUID("6f2b0c1e-4d0a-5b7e-9c31-0b6a4f6e8d21")
"""The namespace of the uuid5s this module makes (fixed forever: changing it changes every such id)."""
LONGEST_PLAY = timedelta(hours=6)
"""A game whose start and end are further apart was not played in one sitting (reopened days later, say):
its duration is unknown (0)."""
MAX_COMMENTS = 400
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


@dataclass(frozen=True)
class PlayPlayer:
    """One seat of a play."""

    name: str
    uuid: str
    """The group's player's uuid, upper-case."""
    score: int
    rank: int
    winner: bool
    start_player: bool
    seat: int
    """1 for the first player, and so on; 0 when the seat order is not recorded (the score sheets)."""


@dataclass(frozen=True)
class Play:
    """A finished game, as BG Stats takes it."""

    uuid: str
    """Upper-case."""
    title: Title
    ended: datetime
    """When the game ended, in UTC (BG Stats' ``playDate``)."""
    entered: datetime
    """When it was started or entered, in UTC."""
    duration_min: int
    board: str
    comments: str
    location: str
    players: tuple[PlayPlayer, ...]


def upper(value: UUID) -> str:
    """A uuid as BG Stats writes them: upper-case."""
    return str(value).upper()


def play_date(moment: datetime) -> str:
    """``YYYY-MM-DD HH:MM:SS`` in UTC."""
    return moment.astimezone(UTC).strftime(DATE_FORMAT)


@dataclass(frozen=True)
class Seated:
    """A seat of a finished game with its stored result (named as the game's record names the seat)."""

    position: int
    player: tuple[str, UUID] | None
    """The group's player of the seat, if it has one: their current name and their uuid."""
    result: PlayerResult


@dataclass(frozen=True)
class Played:
    """A finished game, as much of it as its play shows besides the seats."""

    kind: str
    uuid: UUID
    created: datetime
    finished: datetime | None
    options: Mapping[str, object]
    promos: bool
    location: str
    """Where it was played: the group's name."""
    winners: tuple[str, ...]
    """As stored (:mod:`scoring.standings`)."""

    @property
    def is_okanagan(self) -> bool:
        return self.kind == Game.Kind.OKANAGAN


def play_of(game: Game, result: StoredResult) -> Play:
    """The finished ``game`` as a play, with its stored ``result``; the seats' players are looked up in one query."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    profiles = Profile.objects.in_bulk([seat.profile_id for seat in seats if seat.profile_id is not None])
    played = Played(
        game.kind, game.uuid, game.created, game.finished, game.options, game.promos, game.group.name, result.winners
    )
    return _play(
        played,
        [
            Seated(
                seat.position,
                (profile.name, profile.uuid) if (profile := profiles.get(seat.profile_id or 0)) is not None else None,
                standing,
            )
            for seat, standing in zip(seats, result.players, strict=True)
        ],
    )


@dataclass(frozen=True)
class Card:
    """What the BG Stats card of a finished game's page shows."""

    app: str
    web: str
    played: str
    """The play date sent, in UTC (``YYYY-MM-DD HH:MM:SS``)."""
    title: Title


def card(play: Play) -> Card:
    """The card of ``play``: its links, the date they send and the game's title."""
    return Card(app_link(play), web_link(play), play_date(play.ended), play.title)


PLAYS_CHUNK = 200
"""How many games :func:`group_plays` reads at a time (and their seats: one query)."""
GAME_FIELDS = ("pk", "kind", "uuid", "created", "finished", "options", "promos", "winners")
SEAT_FIELDS = ("game_id", "position", "name", "profile_id", "total", "rank", "parts")


def group_plays(group: Group) -> Iterator[Play]:
    """Every finished game of ``group`` as a play, oldest first, each seat with the result stored when the game
    finished: the games from one query read :data:`PLAYS_CHUNK` at a time, and each chunk's seats in one query
    (as rows, not models: the file of a large group is quick, and memory does not grow with it). A game finished
    without its results stored (one the rules refused when results began to be stored) is left out, as the
    statistics leave it out."""
    players = {profile.pk: (profile.name, profile.uuid) for profile in group.profiles.all()}
    games = group.games.filter(status=Game.Status.FINISHED).order_by("created", "pk").values_list(*GAME_FIELDS)
    for chunk in batched(games.iterator(chunk_size=PLAYS_CHUNK), PLAYS_CHUNK):
        seats: dict[int, list[Seated]] = defaultdict(list)
        unscored = set()
        rows = Seat.objects.filter(game_id__in=[game[0] for game in chunk]).order_by("game_id", "position")
        kinds = {game[0]: game[1] for game in chunk}
        for game_id, position, name, profile_id, total, rank, parts in rows.values_list(*SEAT_FIELDS):
            if total is None or rank is None:
                unscored.add(game_id)
            else:
                result = player_result(kinds[game_id], name, total, rank, parts)
                seats[game_id].append(Seated(position, players.get(profile_id or 0), result))
        for game_id, kind, uuid, created, finished, options, promos, winners in chunk:
            if game_id not in unscored:
                played = Played(kind, uuid, created, finished, options, promos, group.name, tuple(winners))
                yield _play(played, seats[game_id])


def _play(game: Played, seats: Sequence[Seated]) -> Play:
    """The finished ``game`` as a play, its ``seats`` in order."""
    ended = (game.finished or game.created).astimezone(UTC)
    entered = game.created.astimezone(UTC)
    players = [
        PlayPlayer(
            name=seat.player[0] if seat.player is not None else seat.result.name,
            uuid=upper(seat.player[1] if seat.player is not None else uuid5(game.uuid, name_key(seat.result.name))),
            score=seat.result.total,
            rank=seat.result.rank,
            winner=seat.result.rank == 1,  # several when the victory is shared
            # Okanagan's seats are in order from the first player; the score sheets do not record who
            # started (nor the seating), so no one is marked rather than a guess.
            start_player=game.is_okanagan and seat.position == 0,
            seat=seat.position + 1 if game.is_okanagan else 0,
        )
        for seat in seats
    ]
    return Play(
        uuid=upper(game.uuid),
        title=TITLES[game.kind],
        ended=ended,
        entered=entered,
        duration_min=_duration(game, entered, ended),
        board=_board(game),
        comments=winner_sentence(game.winners)[:MAX_COMMENTS],  # short: the play travels in a link
        location=game.location,
        players=tuple(players),
    )


def _duration(game: Played, start: datetime, end: datetime) -> int:
    """Minutes from the game's start to its end for an Okanagan game played at the table; 0 when unknown (a
    score sheet, entered after the game; an import, finished as it was stored; a game not played in one go)."""
    if not game.is_okanagan or not timedelta(0) < end - start <= LONGEST_PLAY:
        return 0
    return round((end - start).total_seconds() / 60)


def _board(game: Played) -> str:
    """The variant, in the reader's language: the gold-nugget reading if not the printed one, the promo tiles."""
    parts = []
    if game.is_okanagan and game.options.get("nugget_ladder") == NuggetLadder.FEWEST_ZERO:
        parts.append(str(NUGGET_LADDERS[NuggetLadder.FEWEST_ZERO]))
    if game.is_okanagan and game.promos:
        parts.append(gettext("Promo tiles"))
    return "; ".join(parts)


def link_json(play: Play) -> dict[str, Any]:
    """The play as the "Send to BG Stats" link carries it: every field, always."""
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.uuid,
        "playDate": play_date(play.ended),
        "durationMin": play.duration_min,
        "board": play.board,
        "comments": play.comments,
        "location": play.location,
        "game": {
            "name": play.title.name,
            "bggId": play.title.bgg_id,
            "sourceGameId": play.title.key,
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": player.name,
                "sourcePlayerId": player.uuid,
                "score": player.score,
                "rank": player.rank,
                "winner": player.winner,
                "startPlayer": player.start_player,
                "role": "",
            }
            for player in play.players
        ],
    }


def link_data(play: Play) -> str:
    """The link's ``data``: the JSON, percent-encoded as JavaScript's ``encodeURIComponent`` (spaces as ``%20``)."""
    text = json.dumps(link_json(play), ensure_ascii=False, separators=(",", ":"))
    return quote(text, safe="")


def app_link(play: Play) -> str:
    """The link that opens BG Stats' import dialog on a phone with the app."""
    return APP_URL + link_data(play)


def web_link(play: Play) -> str:
    """The same on BG Stats' web page (it explains how to get the app)."""
    return WEB_URL + link_data(play)


def bgsplay(plays: Iterable[Play], me: UUID | None = None) -> Iterator[str]:
    """A ``.bgsplay`` file of ``plays``, as JSON text in pieces (:func:`scoring.history.streams.json_object`): each play
    as it comes, then its players, locations and games, once each, with ids local to the file;
    ``userInfo.meRefId`` is the player whose uuid is ``me`` when they are in it (else left out).

    The plays come before the lists they refer to, so that the file is written as the plays are read (JSON's
    members have no order; BG Stats reads the file whole)."""
    players: dict[str, dict[str, Any]] = {}
    locations: dict[str, dict[str, Any]] = {}
    games: dict[str, dict[str, Any]] = {}

    def entries() -> Iterator[dict[str, Any]]:
        for play in plays:
            date = play_date(play.ended)
            game = _once(games, play.title.key, partial(_game_entry, title=play.title, date=date))
            location = _once(locations, play.location, partial(_location_entry, name=play.location, date=date))
            scores = []
            for line in play.players:
                player = _once(players, line.uuid, partial(_player_entry, line=line, date=date))
                for entry in (game, location, player):
                    entry["modificationDate"] = max(entry["modificationDate"], date)
                scores.append(
                    {
                        "playerRefId": player["id"],
                        "score": str(line.score),
                        "winner": line.winner,
                        "startPlayer": line.start_player,
                        "newPlayer": False,
                        "rank": line.rank,
                        "seatOrder": line.seat,
                        "role": "",
                    }
                )
            yield {
                "uuid": play.uuid,
                "playDate": date,
                "entryDate": play_date(play.entered),
                "modificationDate": date,
                "durationMin": play.duration_min,
                "gameRefId": game["id"],
                "locationRefId": location["id"],
                "board": play.board,
                "comments": play.comments,
                "usesTeams": False,
                "ignored": False,
                "manualWinner": False,
                "rounds": 0,
                "playerScores": scores,
            }

    def lists() -> dict[str, object]:
        me_key = upper(me) if me is not None else None
        return {
            "players": list(players.values()),
            "locations": list(locations.values()),
            "games": list(games.values()),
            "userInfo": {"meRefId": players[me_key]["id"]} if me_key in players else {},
        }

    return json_object({"about": ABOUT}, "plays", map(json_text, entries()), lists)


def _once(entries: dict[str, dict[str, Any]], key: str, make: Callable[[int], dict[str, Any]]) -> dict[str, Any]:
    """The entry of ``key``, made by ``make`` with the next id in the file the first time."""
    entry = entries.get(key)
    if entry is None:
        entry = entries[key] = make(len(entries) + 1)
    return entry


def _player_entry(number: int, line: PlayPlayer, date: str) -> dict[str, Any]:
    return {
        "id": number,
        "uuid": line.uuid,
        "name": line.name,
        "isAnonymous": False,
        "modificationDate": date,
        "bggUsername": "",
    }


def _location_entry(number: int, name: str, date: str) -> dict[str, Any]:
    return {"id": number, "uuid": upper(uuid5(NAMESPACE, f"location:{name}")), "name": name, "modificationDate": date}


def _game_entry(number: int, title: Title, date: str) -> dict[str, Any]:
    return {
        "id": number,
        "uuid": upper(uuid5(NAMESPACE, f"bgg:{title.bgg_id}")),
        "name": title.name,
        "bggId": title.bgg_id,
        "bggName": title.name,
        "bggYear": title.year,
        "highestWins": True,
        "noPoints": False,
        "cooperative": False,
        "usesTeams": False,
        "isBaseGame": True,
        "isExpansion": False,
        "modificationDate": date,
    }
