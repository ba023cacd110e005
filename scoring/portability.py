"""Taking a group's history elsewhere: a full backup as one JSON file (and restoring it into a new
group), and a CSV of every play, one row per player per game."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from rules import RulesError, score_okanagan

from .log import create_game, create_sheet_game, finish
from .models import NAME_LENGTH, Game, Group
from .stats import OKANAGAN_PARTS, game_scores
from .wording import error_text

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
    "explorer_points",
    "objective_points",
    "nugget_points",
)


class BadBackup(ValueError):
    """A backup file that cannot be restored; the message says why."""


def game_document(game: Game) -> dict[str, Any]:
    """The game's record (Okanagan) or score sheet."""
    return game.record() if game.is_okanagan else dict(game.sheet or {})


def backup(group: Group) -> dict[str, Any]:
    """Everything of the group that makes its history: players, and every game with its document."""
    games = group.games.order_by("created", "pk").prefetch_related("seats", "events")
    return {
        "format": BACKUP_FORMAT,
        "group": group.name,
        "players": [profile.name for profile in group.profiles.order_by("name")],
        "games": [
            {
                "kind": game.kind,
                "created": game.created.isoformat(),
                "finished": game.finished.isoformat() if game.finished else None,
                "status": game.status,
                "promos": game.promos,
                "document": game_document(game),
            }
            for game in games
        ],
    }


def restore(owner: User, data: object) -> Group:
    """A new group, owned by ``owner``, with the backup's players and games; :class:`BadBackup` if invalid."""
    if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
        raise BadBackup(_("This is not a backup of a group (format %(format)s).") % {"format": BACKUP_FORMAT})
    name, players, games = data.get("group"), data.get("players"), data.get("games")
    if not isinstance(name, str) or not name.strip() or not isinstance(players, list) or not isinstance(games, list):
        raise BadBackup(_("The backup needs a group name, a list of players and a list of games."))
    with transaction.atomic():
        group = Group.objects.create(name=name.strip()[:80], owner=owner)
        group.members.add(owner)
        for player in players:
            if not isinstance(player, str) or not player.strip() or len(player) > NAME_LENGTH:
                raise BadBackup(_("A player's name is missing or too long: %(name)r") % {"name": player})
            group.profiles.get_or_create(name=player)
        for number, entry in enumerate(games, start=1):
            try:
                _restore_game(group, entry)
            except (RulesError, KeyError, TypeError, ValueError) as error:
                message = error_text(error) if isinstance(error, RulesError) else str(error)
                raise BadBackup(
                    _("Game %(number)d cannot be restored: %(error)s") % {"number": number, "error": message}
                ) from error
    return group


def _restore_game(group: Group, entry: dict[str, Any]) -> None:
    document, kind = entry["document"], entry["kind"]
    if kind == Game.Kind.OKANAGAN:
        score_okanagan(document)  # refuses an invalid record with its reason
        game = create_game(
            group, tuple(document["players"]), document.get("options", {}), promos=bool(entry.get("promos")),
            events=document["events"],
        )  # fmt: skip
        if entry.get("status") == Game.Status.FINISHED:
            finish(game, game.revision)
    elif kind in (Game.Kind.SMALL_ISLANDS, Game.Kind.COOPER_ISLAND):
        game = create_sheet_game(group, document)
    else:
        raise ValueError(f"unknown game {kind!r}")
    dates = {key: _date(entry.get(key)) for key in ("created", "finished")}
    Game.objects.filter(pk=game.pk).update(
        created=dates["created"] or game.created, finished=dates["finished"] if game.finished else None
    )


def _date(value: object) -> datetime | None:
    return parse_datetime(value) if isinstance(value, str) else None


def plays_csv(group: Group) -> str:
    """Every play of the group's finished games: one row per player per game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in group.games.filter(status=Game.Status.FINISHED).order_by("created", "pk").prefetch_related("seats"):
        for row in _rows(game):
            writer.writerow(row)
    return out.getvalue()


def _rows(game: Game) -> list[list[object]]:
    date = (game.finished or game.created).date().isoformat()
    parts = OKANAGAN_PARTS if game.is_okanagan else ()
    return [
        [game.pk, date, game.kind, game.status, score.players, seat, score.name, score.total, score.rank,
         int(score.name in game.winners), *(score.parts[part] if part in parts else "" for part in OKANAGAN_PARTS)]
        for seat, score in enumerate(game_scores(game), start=1)
    ]  # fmt: skip
