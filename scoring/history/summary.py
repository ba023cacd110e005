"""What a group's finished games add up to, kept as they finish: the one source of every history page.

The sums — per game kind, each player's record (:class:`~scoring.history.statistics.PlayerStats`), their latest
rating and their insights, the group's insights for the winners and for the others, the head-to-heads and the
records — are folded game after game, in the order the games were played (:meth:`Summary.add`). The writer keeps
them in the group's :class:`~scoring.models.GroupHistory` row, in its own transaction, whenever the group's results
change (:func:`refresh`): a game that finishes after every game already counted is added to the sums (one game read,
whatever the group's size); anything else (a game reopened, deleted, imported with an earlier date, a group restored)
folds the group's games again. A page reads that one row and its players' current names (:func:`history`): the same
queries, and about the same time, at 10 games or 10,000.

The sums keep players by :data:`~scoring.history.statistics.PlayerKey`, never by name alone: a renamed player is
shown under their new name without anything being summed again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from itertools import groupby
from typing import Any, Final, cast

from django.db import transaction

from scoring.history.facts import FACTS_VERSION, FIELDS
from scoring.history.insights import Insights, Json, WinnersAndOthers
from scoring.history.ratings import Rating
from scoring.history.records import Held, Record, RecordBook
from scoring.history.statistics import (
    GameStats,
    HeadToHead,
    PlayedSeat,
    PlayerKey,
    PlayerLine,
    PlayerStats,
    plays,
)
from scoring.models import Game, Group, GroupHistory, Profile

SUMMARY_VERSION: Final = 2
"""Stored with the sums, with the facts' :data:`~scoring.history.facts.FACTS_VERSION`: raise it when what they hold
changes (sums of another version, or summing facts of another version, are folded again)."""


@dataclass
class KindSums:
    """The sums of one game kind."""

    kind: Game.Kind
    games: int = 0
    players: dict[PlayerKey, PlayerStats] = field(default_factory=dict)
    pairs: dict[tuple[PlayerKey, PlayerKey], list[int]] = field(default_factory=dict)
    """Two players (the smaller key first) → [games together, first ahead, second ahead, tied]."""
    ratings: dict[PlayerKey, tuple[float, float, int]] = field(default_factory=dict)
    """Each player's rating after their latest rated game: (μ, σ, games rated)."""
    insights: dict[PlayerKey, Insights] = field(default_factory=dict)
    winners: Insights = field(default_factory=Insights)
    others: Insights = field(default_factory=Insights)
    book: RecordBook = field(default_factory=RecordBook)

    def add(self, seats: Sequence[PlayedSeat]) -> None:
        """One more finished game of this kind (its seats), played after every game counted."""
        self.games += 1
        for seat in seats:
            line = self.players.setdefault(seat.key, PlayerStats(self.kind, seat.key, seat.profile_id, seat.name))
            line.add(seat)
            if seat.rating is not None:
                mu, sigma = seat.rating
                self.ratings[seat.key] = (mu, sigma, self.ratings.get(seat.key, (0.0, 0.0, 0))[2] + 1)
            if seat.counts is not None:
                self.insights.setdefault(seat.key, Insights()).add(seat.counts)
                (self.winners if seat.won else self.others).add(seat.counts)
            for other in seats:
                if seat.key < other.key:
                    tally = self.pairs.setdefault((seat.key, other.key), [0, 0, 0, 0])
                    tally[0] += 1
                    tally[1 if seat.rank < other.rank else 2 if other.rank < seat.rank else 3] += 1
        self.book.add(seats, {key: line.current for key, line in self.players.items()})

    # Shown ---------------------------------------------------------------------------------------------------------

    @property
    def names(self) -> dict[PlayerKey, str]:
        return {key: line.name for key, line in self.players.items()}

    def stats(self) -> GameStats:
        """The players (most wins first, then the best win rate, then by name) and the head-to-heads."""
        ordered = sorted(self.players.values(), key=lambda line: (-line.wins, -line.win_rate, line.name))
        return GameStats(self.kind, self.games, ordered, self.head_to_head())

    def head_to_head(self) -> list[HeadToHead]:
        """Each two players who met, the first by name first; by their names."""
        names = self.names
        pairs = []
        for (a, b), (games, a_ahead, b_ahead, ties) in self.pairs.items():
            if (names[b], b) < (names[a], a):
                a, b, a_ahead, b_ahead = b, a, b_ahead, a_ahead
            pairs.append(((names[a], names[b], a, b), HeadToHead(names[a], names[b], games, a_ahead, b_ahead, ties)))
        return [pair for _order, pair in sorted(pairs, key=lambda item: item[0])]

    def rated(self) -> dict[PlayerKey, Rating]:
        """Each rated player's rating."""
        return {key: Rating.of(mu, sigma, games) for key, (mu, sigma, games) in self.ratings.items()}

    def records(self) -> list[Record]:
        return self.book.records(self.names)

    @property
    def split(self) -> WinnersAndOthers:
        """The insights of the winners' seats and of the others'."""
        return WinnersAndOthers(self.winners, self.others)

    # As data -------------------------------------------------------------------------------------------------------

    def to_data(self) -> dict[str, Json]:
        return {
            "games": self.games,
            "players": [_player_data(line) for line in self.players.values()],
            "pairs": [[_key_text(a), _key_text(b), *tally] for (a, b), tally in self.pairs.items()],
            "ratings": {_key_text(key): list(rating) for key, rating in self.ratings.items()},
            "insights": {_key_text(key): _insights_data(found) for key, found in self.insights.items()},
            "winners": _insights_data(self.winners),
            "others": _insights_data(self.others),
            "records": {
                name: [held.value, [_key_text(key) for key in held.holders], held.game_id, held.day.isoformat()]
                for name, held in self.book.held.items()
            },
        }

    @classmethod
    def from_data(cls, kind: Game.Kind, data: Any) -> KindSums:
        sums = cls(kind, data["games"])
        for line in data["players"]:
            plays, wins, score_sum, best, parted, current, longest = line["counts"]
            player = PlayerStats(
                kind,
                _key_of(line["key"]),
                line["profile"],
                line["name"],
                plays=plays,
                wins=wins,
                score_sum=score_sum,
                best=best,
                part_sums=line["parts"],
                parted=parted,
                by_count={int(count): tally for count, tally in line["by_count"].items()},
                current=current,
                longest=longest,
            )
            sums.players[player.key] = player
        sums.pairs = {(_key_of(a), _key_of(b)): tally for a, b, *tally in data["pairs"]}
        sums.ratings = {_key_of(key): (mu, sigma, games) for key, (mu, sigma, games) in data["ratings"].items()}
        sums.insights = {_key_of(key): _insights(found) for key, found in data["insights"].items()}
        sums.winners, sums.others = _insights(data["winners"]), _insights(data["others"])
        sums.book.held = {
            name: Held(value, tuple(_key_of(key) for key in holders), game_id, date.fromisoformat(day))
            for name, (value, holders, game_id, day) in data["records"].items()
        }
        return sums


@dataclass
class Summary:
    """A group's sums: per game kind (:class:`KindSums`), and which games they count."""

    kinds: dict[Game.Kind, KindSums] = field(default_factory=dict)
    counted: set[int] = field(default_factory=set)
    """The games counted."""
    last: tuple[str, int] = ("", 0)
    """When the last game counted ended (ISO 8601) and its id: a game ending after it is added to the sums."""

    def add(self, seats: Iterable[PlayedSeat]) -> Summary:
        """Count the finished games of ``seats`` (in the order the games were played, a game's seats together)."""
        for game_id, of_game in groupby(seats, key=lambda seat: seat.game_id):
            game = list(of_game)
            kind = game[0].kind
            self.kinds.setdefault(kind, KindSums(kind)).add(game)
            self.counted.add(game_id)
            self.last = (_instant(game[0].ended), game_id)
        return self

    def renamed(self, profiles: Mapping[int, str]) -> Summary:
        """The players under their current names (``profiles``: the group's, by id)."""
        for sums in self.kinds.values():
            for line in sums.players.values():
                if line.profile_id is not None and line.profile_id in profiles:
                    line.name = profiles[line.profile_id]
        return self

    def stats(self) -> list[GameStats]:
        """Each game kind's players and head-to-heads, in the order of the kinds."""
        return [self.kinds[kind].stats() for kind in Game.Kind if kind in self.kinds]

    def okanagan(self) -> KindSums:
        return self.kinds.get(Game.Kind.OKANAGAN) or KindSums(Game.Kind.OKANAGAN)

    def to_data(self) -> dict[str, Json]:
        return {
            "version": SUMMARY_VERSION,
            "facts": FACTS_VERSION,
            "counted": cast(list[Json], sorted(self.counted)),
            "last": list(self.last),
            "kinds": {kind.value: sums.to_data() for kind, sums in self.kinds.items()},
        }

    @classmethod
    def from_data(cls, data: Any) -> Summary | None:
        """The sums stored (``None``: none yet, of another version, or not sums at all: they are to be folded
        again)."""
        if not isinstance(data, dict) or (data.get("version"), data.get("facts")) != (SUMMARY_VERSION, FACTS_VERSION):
            return None
        try:
            kinds = {Game.Kind(kind): KindSums.from_data(Game.Kind(kind), sums) for kind, sums in data["kinds"].items()}
            ended, game_id = data["last"]
            return cls(kinds, set(data["counted"]), (ended, game_id))
        except (KeyError, TypeError, ValueError, AttributeError):  # a row edited by hand
            return None


def _key_text(key: PlayerKey) -> str:
    profile_id, name = key
    return f"p{profile_id}" if not name else f"n{name}"


def _key_of(text: str) -> PlayerKey:
    return (int(text[1:]), "") if text[0] == "p" else (0, text[1:])


def _player_data(line: PlayerStats) -> dict[str, Json]:
    counts: list[Json] = [line.plays, line.wins, line.score_sum, line.best, line.parted, line.current, line.longest]
    return {
        "key": _key_text(line.key),
        "profile": line.profile_id,
        "name": line.name,
        "counts": counts,
        "parts": cast(dict[str, Json], line.part_sums),
        "by_count": {str(count): cast(list[Json], tally) for count, tally in line.by_count.items()},
    }


def _insights_data(found: Insights) -> list[Json]:
    return [found.games, cast(list[Json], found.totals)]


def _insights(data: Any) -> Insights:
    games, totals = data
    if len(totals) != len(FIELDS):
        raise ValueError("insights of another layout")
    return Insights(games, totals)


# Kept -----------------------------------------------------------------------------------------------------------------


def summed(group: Group, games: Iterable[int] | None = None, into: Summary | None = None) -> Summary:
    """The group's finished games (``games`` only, when given) folded into ``into`` (new sums, without it), as
    stored now: one query however many games."""
    return (into if into is not None else Summary()).add(plays(group, games))


def refresh(
    group: Group, fresh: Sequence[Game] = (), *, rerated: bool = True, row: GroupHistory | None = None
) -> Summary:
    """Keep the group's sums after its results changed (inside the writer's transaction): ``fresh`` are the games
    whose results were just stored; ``rerated``: whether the ratings of other games changed too; ``row``: the
    group's history row, when the writer has locked it already.

    The fresh games are added to the stored sums when each of them is new to the sums and ended after the last game
    counted (a game finishing now), and no other game's rating changed; otherwise the group's games are all folded
    again."""
    with transaction.atomic():
        if row is None:
            row = locked(group)
        stored = Summary.from_data(row.data)
        after = [_ended(game) for game in fresh]
        if (
            stored is not None
            and fresh
            and not rerated
            and all(game.pk not in stored.counted and end > stored.last for game, end in zip(fresh, after, strict=True))
        ):
            summary = summed(group, [game.pk for game in fresh], into=stored)
        else:
            summary = summed(group)
        row.data = summary.to_data()
        row.save(update_fields=["data"])
    return summary


def locked(group: Group) -> GroupHistory:
    """The group's history row, made if new, locked until the transaction ends: one writer of a group's history at a
    time, each reading what the one before committed (inside a transaction)."""
    row, _made = GroupHistory.objects.select_for_update().get_or_create(group=group)
    return row


def _ended(game: Game) -> tuple[str, int]:
    return (_instant(game.finished or game.created), game.pk)


def _instant(moment: datetime) -> str:
    """``moment`` as text that sorts as it does: ISO 8601 in UTC, to the microsecond."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def history(group: Group) -> Summary:
    """The group's sums as stored, its players under their current names: two queries. A group whose sums were
    never stored (or stored by an older version of the site) has them folded and stored now, once."""
    return (_stored(group) or refresh(group)).renamed(_names(group))


def kept(group: Group) -> bool:
    """Whether the group's stored sums are those of its finished games counted again now (none stored, or none
    readable: yes, they are folded when first read)."""
    stored = _stored(group)
    return stored is None or stored.renamed(_names(group)).to_data() == summed(group).to_data()


def _stored(group: Group) -> Summary | None:
    return Summary.from_data(GroupHistory.objects.filter(group=group).values_list("data", flat=True).first())


def _names(group: Group) -> dict[int, str]:
    """The current name of each of the group's players, by id."""
    return dict(group.profiles.values_list("pk", "name"))


# Read by the pages --------------------------------------------------------------------------------------------------


def player_stats(summary: Summary, profile: Profile) -> list[PlayerStats]:
    """``profile``'s record at each game they have finished plays of, whatever names they played under."""
    return [line for stats in summary.stats() for line in stats.players if line.profile_id == profile.pk]


def group_summary(summary: Summary, profiles: Iterable[Profile]) -> list[PlayerLine]:
    """A line per player of the group (``profiles``) over the finished games of Okanagan, as the statistics
    page counts them: most wins first, then most plays, then by name."""
    records = {line.profile_id: line for line in summary.okanagan().players.values()}
    lines = [
        PlayerLine(profile, record.plays, record.wins, record.average, record.best)
        if (record := records.get(profile.pk)) is not None
        else PlayerLine(profile, 0, 0, None, None)
        for profile in profiles
    ]
    lines.sort(key=lambda line: (-line.wins, -line.plays, line.profile.name))
    return lines
