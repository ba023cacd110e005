"""Old plays brought in: the plays of a BG Stats ``.bgsplay`` file (``../shared/spec/bgstats.md``) stored in a
group as finished games with their scores and ranks only (no events).

Reading is pure (:func:`read_play_file`: the file's JSON → the plays of the three games, each checked, and the
plays refused, each with a sentence naming it); storing (:func:`import_plays`) refuses the plays the group holds
already and writes the others in one transaction through :func:`scoring.creation.create_games`, under the owner's
quotas. A group's backup carries its imported plays and a restore checks them with :func:`imported_play`, the
same checks as a file's.

The same play twice: a play's ``uuid`` (BG Stats' ``sourcePlayId``) is kept as the game's ``source_play_id`` (and,
when it is a uuid, as the game's own ``uuid``, so that the play exported again is the same play for BG Stats); a
play whose id is a game's of the group is refused, and so is a play (with an id or without) whose game, day and
players' scores are a finished game's of the group: a play sent to BG Stats from here comes back from BG Stats
under an id of BG Stats' own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import ALEXIS, TITLES, PlayerResult, Title, name_key, names_problem
from rules.components import MAX_PLAYERS
from rules.ranking import competition_ranks
from scoring.creation import NewGame, Profiles, create_games
from scoring.forms import checked_name
from scoring.models import Game, Group
from scoring.site.quotas import check_games, kept_within
from scoring.wording import say

MAX_FILE_PLAYS = 2000
"""The most plays one file may hold (of any game: those of other games are refused one by one)."""
SCORES = range(-9999, 10000)
"""The scores a play may give: the three games' totals are a few dozen points."""
ID_LENGTH = 64
"""The longest play id kept (``Game.source_play_id``)."""
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
GAME_NAMES = {name_key(name): title for title in TITLES.values() for name in (title.name, title.name.split(":")[0])}
"""The three games by the names a file may give them when it has no BoardGameGeek id: the published title, or its
first words ("Okanagan")."""


class BadPlayFile(ValueError):
    """A file that is not a BG Stats play file at all; the message says why (nothing of it is imported)."""


class PlayRefused(ValueError):
    """One play that cannot be imported; the message says why (in the reader's language)."""


@dataclass(frozen=True)
class ImportedPlayer:
    """One seat of an imported play."""

    name: str
    score: int
    rank: int
    """1 for the winners (players who share a place share a rank)."""


@dataclass(frozen=True)
class ImportedPlay:
    """A play of one of the three games, checked: when it ended (UTC), its players in seat order."""

    kind: str
    played: datetime
    players: tuple[ImportedPlayer, ...]
    source_play_id: str = ""

    @property
    def winners(self) -> tuple[str, ...]:
        """The players in first place (several when the victory is shared), or the opponent card that beat the
        player of a solo game, as the engine names them."""
        first = tuple(player.name for player in self.players if player.rank == 1)
        return first or ((ALEXIS,) if _against_alexis(self.kind, len(self.players)) else ())

    def key(self) -> tuple[str, str, tuple[tuple[str, int], ...]]:
        """What makes it the same play when it has no id: its game, its day and each player's score."""
        scores = sorted((name_key(player.name), player.score) for player in self.players)
        return self.kind, self.played.astimezone(UTC).date().isoformat(), tuple(scores)

    def new_game(self) -> NewGame:
        """The finished game to store: its results (scores and ranks, no parts) and winners, no events."""
        return NewGame(
            self.kind,
            tuple(player.name for player in self.players),
            results=tuple(PlayerResult(player.name, {}, player.score, player.rank) for player in self.players),
            winners=self.winners,
            finished=self.played,
            created=self.played,
            uuid=_as_uuid(self.source_play_id),
            imported=True,
            source_play_id=self.source_play_id,
        )


@dataclass(frozen=True)
class Refusal:
    """A play of the file that was not imported, and why."""

    number: int
    """Its place in the file, from 1."""
    game: str
    """Its game as the file names it (empty if it does not)."""
    date: str
    """Its date as the file gives it (empty if it does not)."""
    reason: str

    def __str__(self) -> str:
        named = ", ".join(part for part in (self.game, self.date) if part)
        if named:
            return _("Play %(number)d (%(named)s): %(reason)s") % {
                "number": self.number,
                "named": named,
                "reason": self.reason,
            }
        return _("Play %(number)d: %(reason)s") % {"number": self.number, "reason": self.reason}


@dataclass(frozen=True)
class PlayFile:
    """What a file gives: the plays that may be imported (with their place in the file) and those refused."""

    plays: tuple[tuple[int, ImportedPlay], ...]
    refused: tuple[Refusal, ...]


def read_play_file(data: object, now: datetime | None = None) -> PlayFile:
    """The plays of a ``.bgsplay`` file read as JSON (:func:`rules.read_json`), each checked; :class:`BadPlayFile`
    when it is not a play file. ``now``: plays later than a day after it are refused (default: now)."""
    if not isinstance(data, dict) or not isinstance(data.get("plays"), list):
        raise BadPlayFile(_("This is not a BG Stats play file (.bgsplay): it has no list of plays."))
    plays, games, players = data["plays"], data.get("games", []), data.get("players", [])
    if not isinstance(games, list) or not isinstance(players, list):
        raise BadPlayFile(_("This is not a BG Stats play file (.bgsplay): its games and players are not lists."))
    if not plays:
        raise BadPlayFile(_("The file holds no play."))
    if len(plays) > MAX_FILE_PLAYS:
        raise BadPlayFile(
            ngettext(
                "A file may hold at most %(count)d play.", "A file may hold at most %(count)d plays.", MAX_FILE_PLAYS
            )
            % {"count": MAX_FILE_PLAYS}
        )
    latest = (now or timezone.now()) + timedelta(days=1)
    game_entries, player_entries = _by_id(games), _by_id(players)
    accepted, refused = [], []
    for number, play in enumerate(plays, start=1):
        game = _entry(game_entries, play.get("gameRefId")) if isinstance(play, dict) else None
        game_name = game.get("name") if game is not None else None
        date = play.get("playDate") if isinstance(play, dict) else None
        try:
            accepted.append((number, _play(play, game, player_entries, latest)))
        except PlayRefused as refusal:
            named = game_name if isinstance(game_name, str) else ""
            refused.append(Refusal(number, named[:80], date if isinstance(date, str) else "", str(refusal)))
    return PlayFile(tuple(accepted), tuple(refused))


def _by_id(entries: list[object]) -> dict[int, Mapping[str, object]]:
    """A file's list of games or players by their ``id`` (an integer local to the file; the first of an id)."""
    found: dict[int, Mapping[str, object]] = {}
    for entry in entries:
        if isinstance(entry, dict) and _is_int(entry.get("id")):
            found.setdefault(entry["id"], entry)
    return found


def _entry(entries: Mapping[int, Mapping[str, object]], ref: object) -> Mapping[str, object] | None:
    """The entry a play refers to by its id (``gameRefId``, ``playerRefId``), if there is one."""
    return entries.get(ref) if isinstance(ref, int) and not isinstance(ref, bool) else None


def _play(
    play: object,
    game: Mapping[str, object] | None,
    players: Mapping[int, Mapping[str, object]],
    latest: datetime,
) -> ImportedPlay:
    """One play of the file, checked; :class:`PlayRefused` saying why not."""
    if not isinstance(play, dict):
        raise PlayRefused(_("it is not a play."))
    if game is None:
        raise PlayRefused(_("its game is not in the file."))
    title = _title(game)
    source_id = play.get("uuid", "")
    if not isinstance(source_id, str) or len(source_id) > ID_LENGTH:
        raise PlayRefused(_("its id (uuid) is not an id of at most %(length)d characters.") % {"length": ID_LENGTH})
    scores = play.get("playerScores")
    if not isinstance(scores, list) or not scores:
        raise PlayRefused(_("it has no players."))
    seats = []
    for score in sorted(scores, key=_seat_order):
        if not isinstance(score, dict):
            raise PlayRefused(_("a player's score is not an object."))
        player = _entry(players, score.get("playerRefId"))
        if player is None:
            raise PlayRefused(_("one of its players is not in the file's players."))
        # A rank or winner left out (or null) is not set: 0, and not a winner.
        seats.append((player.get("name"), score.get("score"), score.get("rank") or 0, score.get("winner") or False))
    return imported_play(title.key, _played(play.get("playDate"), title, latest), seats, source_id.strip())


def imported_play(
    kind: str, played: datetime, seats: Sequence[tuple[object, object, object, object]], source_play_id: str = ""
) -> ImportedPlay:
    """A play of ``kind`` that ended at ``played``, from its ``seats`` in order as a file gives them (each a name,
    a score, a rank — 0 when the file sets none — and whether the player won), checked as a group's players and
    results are; :class:`PlayRefused` saying why not. Ranks come from the file when every player has one, else
    from the winners and then the scores (competition ranking: the winners first, then the highest score); a solo
    game of Small Islands that the player did not win places them 2nd, behind the Alexis card."""
    if not 1 <= len(seats) <= MAX_PLAYERS:
        raise PlayRefused(
            ngettext(
                "it has %(count)d player (1 to %(most)d).", "it has %(count)d players (1 to %(most)d).", len(seats)
            )
            % {"count": len(seats), "most": MAX_PLAYERS}
        )
    names = [_name(name) for name, _score, _rank, _winner in seats]
    problem = names_problem(names)
    if problem is not None:
        raise PlayRefused(say(problem))
    scores = [_score(name, score) for name, (_name_, score, _rank, _winner) in zip(names, seats, strict=True)]
    ranks = [rank for _name_, _score_, rank, _winner in seats]
    winners = [winner for _name_, _score_, _rank_, winner in seats]
    if not all(_is_int(rank) for rank in ranks) or not all(isinstance(winner, bool) for winner in winners):
        raise PlayRefused(_("a rank is not a whole number, or a winner not true or false."))
    given = [rank for rank in ranks if isinstance(rank, int) and rank >= 1]
    solo = _against_alexis(kind, len(seats))  # lost, the player is placed 2nd, after the card
    places = 2 if solo else len(seats)
    if len(given) == len(seats):
        if (min(given) != 1 and not solo) or max(given) > places:
            raise PlayRefused(_("its ranks are not places from 1 to %(count)d.") % {"count": places})
    elif solo:
        given = [1 if winners[0] else 2]
    else:
        given = competition_ranks([(int(bool(winner)), score) for winner, score in zip(winners, scores, strict=True)])
    players = tuple(ImportedPlayer(*seat) for seat in zip(names, scores, given, strict=True))
    return ImportedPlay(kind, played, players, source_play_id)


def _against_alexis(kind: str, players: int) -> bool:
    """Whether a play of ``kind`` with this many players is a solo game of Small Islands, against the Alexis card:
    a player who lost it is placed 2nd, and the card is the winner (:func:`rules.score_sheet`)."""
    return kind == Game.Kind.SMALL_ISLANDS and players == 1


def _title(game: Mapping[str, object]) -> Title:
    """The site's game of a file's game entry, by its BoardGameGeek id, else by its name; refused if none."""
    bgg_id, name = game.get("bggId"), game.get("name")
    if isinstance(bgg_id, str) and bgg_id.isdigit():  # a quoted id: read, as BG Stats itself reads it
        bgg_id = int(bgg_id)
    for title in TITLES.values():
        if _is_int(bgg_id) and bgg_id == title.bgg_id:
            return title
    found = GAME_NAMES.get(name_key(name)) if isinstance(name, str) and not bgg_id else None
    if found is not None:
        return found
    if isinstance(name, str) and name.strip():
        raise PlayRefused(
            _("%(game)s is not one of this site's games (Okanagan, Small Islands, Cooper Island).")
            % {"game": name.strip()[:80]}
        )
    raise PlayRefused(_("its game has no name and is not one of this site's games."))


def _played(value: object, title: Title, latest: datetime) -> datetime:
    """When the play ended, from its ``playDate`` (``YYYY-MM-DD HH:MM:SS``, in UTC as the site sends them)."""
    try:
        played = datetime.strptime(value, DATE_FORMAT).replace(tzinfo=UTC) if isinstance(value, str) else None
    except ValueError:
        played = None
    if played is None:
        raise PlayRefused(_("its date is not a date (YYYY-MM-DD HH:MM:SS)."))
    if played.year < title.year:
        raise PlayRefused(
            _("it is dated %(date)s, before the game was published (%(year)d).")
            % {"date": played.date().isoformat(), "year": title.year}
        )
    if played > latest:
        raise PlayRefused(_("it is dated %(date)s, in the future.") % {"date": played.date().isoformat()})
    return played


def _seat_order(score: object) -> int:
    """Where a player sat (``seatOrder``, from 1); the file's order when it does not say (0)."""
    order = score.get("seatOrder") if isinstance(score, dict) else None
    return order if isinstance(order, int) and not isinstance(order, bool) and 0 < order <= MAX_PLAYERS else 0


def _name(value: object) -> str:
    """A player's name as the group will know it; refused if it cannot be a name."""
    if not isinstance(value, str):
        raise PlayRefused(_("a player has no name."))
    try:
        return checked_name(value)
    except ValidationError as error:
        raise PlayRefused(f"{value[:40]}: {' '.join(error.messages)}") from error


def _score(name: str, value: object) -> int:
    """A player's score: a whole number (BG Stats writes it as text, ``"42"``) within :data:`SCORES`."""
    score: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        score = value
    elif isinstance(value, float) and value.is_integer():
        score = int(value)
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value.strip()) <= 6:
        score = int(value.strip())
    if score is None:
        raise PlayRefused(_("%(name)s's score is not a whole number.") % {"name": name})
    if score not in SCORES:
        raise PlayRefused(
            _("%(name)s's score, %(score)d, is not between %(low)d and %(high)d.")
            % {"name": name, "score": score, "low": SCORES.start, "high": SCORES.stop - 1}
        )
    return score


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_uuid(value: str) -> UUID | None:
    """A play id that is a uuid (as BG Stats' and this site's are), as one; else ``None``."""
    try:
        return UUID(value) if value else None
    except ValueError:
        return None


@dataclass(frozen=True)
class ImportReport:
    """What an import did: the plays stored and those refused (the file's and the duplicates), in file order."""

    imported: tuple[ImportedPlay, ...]
    refused: tuple[Refusal, ...]


def import_plays(group: Group, read: PlayFile) -> ImportReport:
    """Store the plays of ``read`` in ``group`` but those it holds already (and a second copy within the file),
    in one transaction, under the owner's quota of games (:class:`~scoring.site.quotas.OverQuota` stores none; an
    imported play holds no log nor sheet, so no bytes count); each player matched to the group's player of that
    name (:class:`~scoring.creation.Profiles`), made if new. The group's plays are read once the owner's row is
    locked (:func:`~scoring.site.quotas.kept_within`): the same file sent twice at once waits, then finds the
    first's plays."""
    duplicate = _("it is in the group already.")
    refused = list(read.refused)
    with kept_within(group.owner_id):
        ids, keys = _held(group, [play for _number, play in read.plays])
        profiles = Profiles(group)
        new: list[ImportedPlay] = []
        for number, play in read.plays:
            play_id = _as_uuid(play.source_play_id)
            known_ids = {play.source_play_id.upper(), str(play_id).upper() if play_id else ""} - {""}
            if play.key() in keys or known_ids & ids:
                refused.append(Refusal(number, TITLES[play.kind].name, play.played.strftime(DATE_FORMAT), duplicate))
                continue
            ids.update(known_ids)
            keys.add(play.key())
            new.append(_as_known(play, profiles))
        if new:
            check_games(group.owner_id, len(new))
            create_games(group, [play.new_game() for play in new])
    return ImportReport(tuple(new), tuple(sorted(refused, key=lambda refusal: refusal.number)))


def _held(
    group: Group, plays: Iterable[ImportedPlay]
) -> tuple[set[str], set[tuple[str, str, tuple[tuple[str, int], ...]]]]:
    """The play ids the group's games hold (their ``source_play_id`` and uuid, upper-case) and the keys
    (:meth:`ImportedPlay.key`) of its finished games on the days of the plays: two queries."""
    plays = list(plays)
    source_ids = {play.source_play_id for play in plays if play.source_play_id}
    uuids = {found for play in plays if (found := _as_uuid(play.source_play_id)) is not None}
    ids: set[str] = set()
    for source_id, uuid in group.games.filter(
        Q(source_play_id__in=source_ids)
        | Q(source_play_id__in={value.upper() for value in source_ids})
        | Q(uuid__in=uuids)
    ).values_list("source_play_id", "uuid"):
        ids.update({source_id.upper(), str(uuid).upper()} - {""})
    days = {play.played.astimezone(UTC).date() for play in plays}
    keys = set()
    if days:
        start = datetime.combine(min(days), datetime.min.time(), UTC)
        end = datetime.combine(max(days), datetime.min.time(), UTC) + timedelta(days=1)
        games = group.games.filter(status=Game.Status.FINISHED, finished__gte=start, finished__lt=end)
        for game in games.prefetch_related("seats"):
            seats = [(seat.name, seat.total) for seat in game.seats.all() if seat.total is not None]
            when = (game.finished or game.created).astimezone(UTC).date().isoformat()
            keys.add((game.kind, when, tuple(sorted((name_key(name), total) for name, total in seats))))
    return ids, keys


def _as_known(play: ImportedPlay, profiles: Profiles) -> ImportedPlay:
    """``play`` with each player under the name of the group's player they are (``ann`` is the group's ``Ann``)."""
    players = []
    for player in play.players:
        known = profiles.find(player.name)
        players.append(ImportedPlayer(known.name if known else player.name, player.score, player.rank))
    return ImportedPlay(play.kind, play.played, tuple(players), play.source_play_id)
