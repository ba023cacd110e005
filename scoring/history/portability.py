"""Taking a group's history elsewhere: a full backup as one JSON file (and restoring it into a new
group), and a CSV of every play, one row per player per game."""

from __future__ import annotations

import csv
import json
import logging
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from itertools import batched
from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from rules import EventType, RulesError, hide_objectives, names_problem, parse_record, score_record
from scoring.creation import NewGame, Profiles, create_games, sheet_game
from scoring.forms import checked_name, checked_text
from scoring.history.bgsplay_import import ID_LENGTH, PlayRefused, imported_play
from scoring.history.statistics import OKANAGAN_PARTS, plays
from scoring.history.streams import json_object, json_text, with_texts
from scoring.models import GROUP_NAME_LENGTH, Event, Game, Group, Seat, new_token, record_document
from scoring.site.quotas import OverQuota, check_games, check_groups, kept_within
from scoring.standings import results_changed
from scoring.wording import error_text, say

logger = logging.getLogger(__name__)

BACKUP_FORMAT = "okanagan-companion-backup/1"
CSV_COLUMNS = (
    "game_id",
    "date",
    "game",
    "status",
    "players",
    "seat",
    "player",
    "score",
    "rank",
    "won",
    *OKANAGAN_PARTS,
)


class BadBackup(ValueError):
    """A backup file that cannot be restored; the message says why."""


def game_document(game: Game) -> dict[str, Any]:
    """The game's record (Okanagan) or score sheet, whole."""
    return game.record() if game.is_okanagan else dict(game.sheet or {})


def exported_document(game: Game) -> dict[str, Any]:
    """The game's document as it leaves the site (its export, the group's backup). A game in progress
    leaves out its objective cards, secret until the end, and says how many each player holds (the
    record's ``hidden``); a finished game's record is whole."""
    document = game_document(game)
    return without_cards(document) if game.is_okanagan and game.is_playing else document


def without_cards(record: dict[str, Any]) -> dict[str, Any]:
    """A record of a game in progress as it leaves the site: without its objective cards, with how many each
    player holds."""
    try:
        return hide_objectives(parse_record(record)).to_json()
    except RulesError:  # a log the rules refuse (a database edited by hand, which check_data names): as stored,
        # its cards left out all the same; restoring or importing it says what the rules refuse
        events = [
            event for event in record["events"] if isinstance(event, dict) and event.get("type") != EventType.OBJECTIVES
        ]
        return record | {"events": events}


BACKUP_CHUNK = 100
"""How many games the backup reads at a time (and their seats and events: two queries)."""
BACKUP_FIELDS = (
    "pk", "kind", "uuid", "created", "finished", "status", "promos", "options", "sheet", "imported", "source_play_id",
    "winners",
)  # fmt: skip


def backup(group: Group) -> Iterator[str]:
    """Everything of the group that makes its history, as JSON text in pieces
    (:func:`scoring.history.streams.json_object`): its players, then every game with its document, one a line
    (:func:`backup_games`)."""
    profiles = list(group.profiles.order_by("name"))
    head = {
        "format": BACKUP_FORMAT,
        "group": group.name,
        "players": [profile.name for profile in profiles],
        "player_uuids": {profile.name: str(profile.uuid) for profile in profiles},
    }
    return json_object(head, "games", backup_games(group))


def backup_games(group: Group) -> Iterator[str]:
    """Each game of the group's backup as JSON text, oldest first: the games from one query read
    :data:`BACKUP_CHUNK` at a time, each chunk's seats and events in one query each, as rows (no model is
    made). A finished game's events are written as the database holds them, not parsed to be written again: the
    backup of a large group is quick, and memory does not grow with it. A score sheet never scored has no
    document yet, and is left out. An imported play has no document (``null``): it is ``imported``, with its
    ``source_play_id``, each seat's ``results`` (name, total, rank) and its ``winners``."""
    games = group.games.order_by("created", "pk").values_list(*BACKUP_FIELDS)
    for chunk in batched(games.iterator(chunk_size=BACKUP_CHUNK), BACKUP_CHUNK):
        ids = [game[0] for game in chunk]
        players, events = defaultdict(list), defaultdict(list)
        results: dict[int, list[dict[str, object]]] = defaultdict(list)
        seats = Seat.objects.filter(game_id__in=ids).order_by("game_id", "position")
        for game_id, name, total, rank in seats.values_list("game_id", "name", "total", "rank"):
            players[game_id].append(name)
            results[game_id].append({"name": name, "total": total, "rank": rank})
        stored = Event.objects.filter(game_id__in=ids).order_by("game_id", "index")
        for game_id, text in stored.values_list("game_id", Cast("data", TextField())):
            events[game_id].append(text)
        for game_id, kind, uuid, created, finished, status, promos, options, sheet, imported, source, winners in chunk:
            played: dict[str, object] = {}
            if imported:
                document = "null"
                played = {"imported": True, "source_play_id": source, "results": results[game_id], "winners": winners}
            elif kind == Game.Kind.OKANAGAN:
                record = record_document(players[game_id], options, [])
                if status == Game.Status.PLAYING:
                    document = json_text(without_cards(record | {"events": list(map(json.loads, events[game_id]))}))
                else:
                    document = with_texts(record, "events", events[game_id])
            elif sheet is not None:
                document = json_text(sheet)
            else:
                continue
            entry = {
                "kind": kind,
                "uuid": str(uuid),
                "created": created.isoformat(),
                "finished": finished.isoformat() if finished else None,
                "status": status,
                "promos": promos,
                **played,
            }
            yield f'{json_text(entry)[:-1]}, "document": {document}}}'


MAX_RESTORED_GAMES = 500
"""The most games one backup may restore: all are checked by replaying them before anything is stored."""
MAX_RESTORED_PLAYERS = 500
MAX_RESTORED_EVENTS = 30_000
"""The most events in all: 500 real games of 60 events; compact events cannot multiply the work."""


RESTORE_UNDER_WAY = "restore-under-way"
"""The shared cache's key held while a backup is restored: the site restores one at a time."""
RESTORE_HELD_SECONDS = 300
"""The longest the key is held: a restore that died (its server stopped) keeps the others out no longer."""


class RestoreUnderWay(Exception):
    """Another backup is being restored: one at a time, so that a restore never keeps a table's saves waiting
    behind others, nor the server's processors busy replaying several."""


@contextmanager
def one_restore_at_a_time() -> Iterator[None]:
    """Hold the site's restore key while the block runs; :class:`RestoreUnderWay` if another holds it. A cache
    that does not answer lets the restore go on (it is an accelerator, not a gate), and the log says so."""
    held = new_token()
    try:
        taken = cache.add(RESTORE_UNDER_WAY, held, RESTORE_HELD_SECONDS)
    except Exception:  # noqa: BLE001 (any error of the cache's backend)
        logger.warning("The cache did not answer: a restore goes on without knowing if another is under way")
        taken = False
    else:
        if not taken:
            raise RestoreUnderWay
    try:
        yield
    finally:
        if taken:
            try:
                if cache.get(RESTORE_UNDER_WAY) == held:  # not another's, had this one outlived the key
                    cache.delete(RESTORE_UNDER_WAY)
            except Exception:  # noqa: BLE001 (as above: the key then expires)
                logger.warning("The cache did not answer: the restore key expires by itself")


def restore(owner: User, data: object) -> Group:
    """A new group, owned by ``owner``, with the backup's players and games; :class:`BadBackup` if invalid.

    Everything is checked first (names, texts, every game replayed), so that the database is written
    only for a backup that restores; then the games are written :data:`RESTORE_CHUNK` at a time, each chunk in a
    transaction of its own, so that another table's save never waits long behind a restore (SQLite has one
    writer at a time). Should a chunk fail, the group is deleted: no half group is left. The restored results are
    announced once, at the end (the ratings are counted once, not once per chunk).
    """
    if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
        raise BadBackup(_("This is not a backup of a group (format %(format)s).") % {"format": BACKUP_FORMAT})
    name, players, games = data.get("group"), data.get("players"), data.get("games")
    if not isinstance(name, str) or not isinstance(players, list) or not isinstance(games, list):
        raise BadBackup(_("The backup needs a group name, a list of players and a list of games."))
    if len(games) > MAX_RESTORED_GAMES or len(players) > MAX_RESTORED_PLAYERS:
        raise BadBackup(
            _("A backup restores at most %(games)d games and %(players)d players.")
            % {"games": MAX_RESTORED_GAMES, "players": MAX_RESTORED_PLAYERS}
        )
    if not all(isinstance(player, str) for player in players):
        raise BadBackup(_("The backup needs a group name, a list of players and a list of games."))
    try:
        group_name = checked_text(name, GROUP_NAME_LENGTH)
        players = [checked_name(player) for player in players]
    except ValidationError as error:
        raise BadBackup(" ".join(error.messages)) from error
    problem = names_problem(players)
    if problem is not None:
        raise BadBackup(say(problem))
    if sum(_event_count(entry) for entry in games) > MAX_RESTORED_EVENTS:  # counted before any is replayed
        raise BadBackup(
            _("A backup restores at most %(events)d events in all its games.") % {"events": MAX_RESTORED_EVENTS}
        )
    stored = len(json.dumps(games))  # the games as the database will hold them, about
    try:  # before any game is replayed, and again, the account's row locked, as the group is made
        check_groups(owner.pk)
        check_games(owner.pk, len(games), stored)
        checked = [_checked_game(number, entry) for number, entry in enumerate(games, start=1)]
        with kept_within(owner.pk, groups=1, games=len(games), stored=stored):
            group = Group.objects.create(name=group_name, owner=owner)
            group.members.add(owner)
            profiles = Profiles(group)
            uuids = data.get("player_uuids")
            for player in players:
                profiles.get(player, _uuid(uuids.get(player) if isinstance(uuids, dict) else None))
    except OverQuota as error:
        raise BadBackup(str(error)) from error
    try:
        rows: list[Game] = []
        for number, chunk in enumerate(batched(checked, RESTORE_CHUNK)):
            if number and connection.vendor == "sqlite":
                time.sleep(RESTORE_PAUSE)  # the saves that queued meanwhile write first
            rows += create_games(group, chunk, announce=False)
        finished = [row for row in rows if row.status == Game.Status.FINISHED]
        if finished:  # once for the whole backup: the history's ratings are counted again once, not per chunk
            with transaction.atomic():
                results_changed.send(Game, group=group, games=finished)
    except BaseException:
        group.delete()
        raise
    return group


RESTORE_CHUNK = 20
"""How many games of a backup are written in one transaction (about 1,200 events at most: well under a second of
holding SQLite's write lock)."""
RESTORE_PAUSE = 0.1
"""Between two chunks on SQLite, long enough for a waiting writer's next try (SQLite's busy handler retries
every 100 ms at most)."""


def _event_count(entry: object) -> int:
    """How many events a backup's game holds, if it holds a list of them."""
    document = entry.get("document") if isinstance(entry, dict) else None
    events = document.get("events") if isinstance(document, dict) else None
    return len(events) if isinstance(events, list) else 0


def _checked_game(number: int, entry: object) -> NewGame:
    """Game ``number`` of a backup, checked as the rules read it; :class:`BadBackup` saying why not."""
    try:
        if not isinstance(entry, dict):
            raise BadBackup(_("it is not an object"))
        document, kind = entry.get("document"), entry.get("kind")
        created, finished = _date(entry.get("created")), _date(entry.get("finished"))
        if entry.get("imported") is True:
            return _imported_game(entry, kind, created, finished)
        if kind == Game.Kind.OKANAGAN:
            record = parse_record(document)
            result = score_record(record)  # replayed: an illegal log is refused, in progress or not
            game = NewGame(
                kind,
                record.players,
                record.options.to_json(),
                bool(entry.get("promos")),
                events=[event.to_json() for event in record.events],
                created=created,
                uuid=_uuid(entry.get("uuid")),
            )
            if entry.get("status") != Game.Status.FINISHED or record.hidden_objectives is not None:
                return game  # in progress; with its cards hidden, until the players enter them again
            return replace(game, results=result.standings, winners=result.winners, finished=finished)
        if kind in (Game.Kind.SMALL_ISLANDS, Game.Kind.COOPER_ISLAND) and isinstance(document, dict):
            return replace(sheet_game(document), created=created, finished=finished, uuid=_uuid(entry.get("uuid")))
        raise BadBackup(_("it is not a game of Okanagan, Small Islands or Cooper Island"))
    except (RulesError, BadBackup, PlayRefused) as error:
        message = error_text(error) if isinstance(error, RulesError) else str(error)
        raise BadBackup(
            _("Game %(number)d cannot be restored: %(error)s") % {"number": number, "error": message}
        ) from error


def _imported_game(entry: dict[str, Any], kind: object, created: datetime | None, finished: datetime | None) -> NewGame:
    """An imported play of a backup, checked as a play file's are (:func:`imported_play`), stored as imported."""
    results, source = entry.get("results"), entry.get("source_play_id", "")
    if kind not in Game.Kind.values or not isinstance(results, list) or not isinstance(source, str):
        raise BadBackup(_("it is not a play of Okanagan, Small Islands or Cooper Island with its results"))
    if finished is None:
        raise BadBackup(_("it has no date"))
    if not all(isinstance(result, dict) for result in results):
        raise BadBackup(_("it is not a play of Okanagan, Small Islands or Cooper Island with its results"))
    seats = [(result.get("name"), result.get("total"), result.get("rank"), False) for result in results]
    play = imported_play(str(kind), finished, seats, source[:ID_LENGTH])
    return replace(play.new_game(), created=created or finished, uuid=_uuid(entry.get("uuid")))


def _uuid(value: object) -> UUID | None:
    """A game's or a player's id outside the site as the backup gives it (keys ``uuid`` and ``player_uuids``,
    optional: older backups have none), or ``None`` if there is none or it is not a UUID (a new one is made).
    Restoring a backup twice gives the two groups the same ids: they hold the same plays."""
    try:
        return UUID(value) if isinstance(value, str) else None
    except ValueError:
        return None


EARLIEST, LATEST = datetime(2000, 1, 1, tzinfo=UTC), datetime(2999, 12, 31, tzinfo=UTC)
"""The dates a backup may give a game; others are not dates of a play, and are left out."""


def _date(value: object) -> datetime | None:
    """A date of the backup (ISO 8601, in UTC), or ``None`` if there is none or it is not one."""
    try:
        date = parse_datetime(value) if isinstance(value, str) else None
        if date is not None:
            date = date.astimezone(UTC) if date.tzinfo else date.replace(tzinfo=UTC)
    except (ValueError, OverflowError):
        return None
    return date if date is not None and EARLIEST <= date <= LATEST else None


class _Line:
    """What :func:`csv.writer` writes to, to have each row as its text."""

    def write(self, text: str) -> str:
        return text


def plays_csv(group: Group) -> Iterator[str]:
    """Every play of the group's finished games, in the order they were played, as CSV text a row at a time: one
    row per player per game, from the results stored when each game finished (read from one query, however many
    games), the player under their current name as the statistics show them."""
    writer = csv.writer(_Line())
    yield writer.writerow(CSV_COLUMNS)
    for play in plays(group, scores_only=True):
        parts = play.parts if play.kind == Game.Kind.OKANAGAN else {}
        row = [play.game_id, play.day.isoformat(), play.kind.value, Game.Status.FINISHED.value, play.players,
               play.seat, play.name, play.total, play.rank, int(play.won),
               *(parts.get(part, "") for part in OKANAGAN_PARTS)]  # fmt: skip
        yield writer.writerow([spreadsheet_safe(cell) for cell in row])


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """A text cell that a spreadsheet would run as a formula (``=HYPERLINK(...)``, ``+1``, ``@SUM``),
    quoted with a leading apostrophe as OWASP advises; numbers and other text as they are."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell
