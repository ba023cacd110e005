"""Skill ratings: a rating per player and game kind within a group, with OpenSkill's Plackett–Luce model.

A *player* is counted as by :mod:`scoring.history.statistics`: the group's player (their profile), or, for a seat with
no player, the seat's name. Every player starts at μ = 25, σ = 25/3 (the package's defaults) and the finished games of
a kind update the ratings of their players one game after another, in the order the games finished (games finished
at the same instant in the order of their ids), each game's stored ranks as its ranks: players sharing a place tie.
A game of one player changes nothing. The number shown is the *ordinal* μ − 3σ, a cautious estimate: the player's
skill is very likely above it; it starts at 0.

The rating of each seat after its game is stored on the seat (``Seat.rating_mu``, ``Seat.rating_sigma``) by
:func:`recompute`, which runs whenever the group's finished results change (:data:`scoring.standings.results_changed`):
the pages then read the latest stored rating of each player, in the same number of queries however many games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from openskill.models import PlackettLuce

from scoring.history.charts import line
from scoring.history.statistics import PlayerKey, PlayerStats, player_key
from scoring.models import Game, Group, Profile, Seat

MODEL = PlackettLuce()
"""The model with the package's default parameters (μ 25, σ 25/3, β σ/2, τ μ/300)."""
MU, SIGMA = MODEL.mu, MODEL.sigma
"""Where every player starts."""

SETTLED_SIGMA = 4.0
"""At or below this σ (under half the starting σ), a rating is said to be settled."""
FIRST_GUESS_SIGMA = 6.5
"""Above this σ (the first ten games or so), a rating is said to be a first guess."""


@dataclass(frozen=True)
class Rating:
    """A player's rating at a game kind after their latest rated game."""

    mu: float
    """The estimated skill."""
    sigma: float
    """How unsure the estimate is (it shrinks with each game)."""
    ordinal: float
    """μ − 3σ: the number shown."""
    games: int
    """How many games rated it (games of more than one player)."""

    @classmethod
    def of(cls, mu: float, sigma: float, games: int) -> Rating:
        return cls(mu, sigma, MODEL.rating(mu, sigma).ordinal(), games)

    @property
    def sentence(self) -> str:
        """What the number means for this player, and how sure it is."""
        if self.sigma <= SETTLED_SIGMA:
            text = ngettext("settled after %(count)d game", "settled after %(count)d games", self.games)
        elif self.sigma <= FIRST_GUESS_SIGMA:
            text = ngettext("still uncertain after %(count)d game", "still uncertain after %(count)d games", self.games)
        else:
            text = ngettext("a first guess after %(count)d game", "a first guess after %(count)d games", self.games)
        return text % {"count": self.games}


def _in_finish_order(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """``seats`` in the order their games finished (then by game id), each game's seats together in seat order."""
    return seats.annotate(ended=Coalesce("game__finished", "game__created")).order_by("ended", "game_id", "position")


type Stored = tuple[float | None, float | None]
"""A seat's stored rating after its game: (μ, σ), or ``(None, None)``."""


def recompute(group: Group, fresh: Iterable[Game] = ()) -> None:
    """Rate the group's finished games again, and store on each seat its rating after its game (``None`` for a game
    in progress or of one player): one query reads the seats, one writes those that changed.

    ``fresh`` are the games whose results were just stored: the games that finished before the first of them keep
    the ratings stored when they finished, so that a game finishing now costs the rating of one game, not of the
    group's whole history. Without ``fresh`` (a game reopened or deleted), or from a game whose seats have no
    rating stored yet (one finished before the ratings existed), every game is rated again.
    """
    fresh_ids = {game.pk for game in fresh}
    rows = _in_finish_order(
        Seat.objects.filter(game__group=group).filter(
            Q(game__status=Game.Status.FINISHED, rank__isnull=False) | Q(rating_mu__isnull=False)
        )
    ).values_list(
        "pk", "game_id", "game__kind", "game__status", "profile_id", "name", "rank", "rating_mu", "rating_sigma"
    )
    current: dict[tuple[str, PlayerKey], tuple[float, float]] = {}
    changed: list[tuple[float | None, float | None, int]] = []
    trusted = bool(fresh_ids)
    for game_id, game_rows in groupby(rows, key=itemgetter(1)):
        seats = list(game_rows)
        rated = [
            (pk, (kind, player_key(profile_id, name)), float(rank))
            for pk, _game, kind, status, profile_id, name, rank, _mu, _sigma in seats
            if status == Game.Status.FINISHED and rank is not None
        ]
        stored: dict[int, Stored] = {pk: (mu, sigma) for pk, *_rest, mu, sigma in seats}
        trusted = trusted and game_id not in fresh_ids and _counted(rated, stored)
        after: dict[int, Stored] = {}
        if len(rated) > 1:  # a game of one player changes nothing
            if trusted:
                results = [stored[pk] for pk, _key, _rank in rated]
            else:
                teams = [[MODEL.rating(*current.get(key, (MU, SIGMA)))] for _pk, key, _rank in rated]
                ranks = [rank for _pk, _key, rank in rated]
                results = [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=ranks)]
            for (pk, key, _rank), (mu, sigma) in zip(rated, results, strict=True):
                if mu is not None and sigma is not None:  # always (a trusted seat has its rating): for the types
                    current[key] = (mu, sigma)
                after[pk] = (mu, sigma)
        changed += [
            (*after.get(pk, (None, None)), pk) for pk, old in stored.items() if after.get(pk, (None, None)) != old
        ]
    if changed:
        table = connection.ops.quote_name(Seat._meta.db_table)
        with transaction.atomic(), connection.cursor() as cursor:  # one statement, run for each changed seat
            cursor.executemany(f"UPDATE {table} SET rating_mu = %s, rating_sigma = %s WHERE id = %s", changed)


def _counted(rated: list[tuple[int, tuple[str, PlayerKey], float]], stored: dict[int, Stored]) -> bool:
    """Whether a game's seats hold the ratings it gave when it finished: each of its players' if it had more than
    one, and no one else's."""
    counted = {pk for pk, _key, _rank in rated} if len(rated) > 1 else set()
    return all((None not in rating) == (pk in counted) for pk, rating in stored.items())


def on_results_changed(sender: Any, group: Group, games: Iterable[Game], **kwargs: Any) -> None:
    """The receiver of :data:`scoring.standings.results_changed`."""
    recompute(group, games)


def _rated(group: Group) -> QuerySet[Seat]:
    return _in_finish_order(
        Seat.objects.filter(
            game__group=group, game__status=Game.Status.FINISHED, rating_mu__isnull=False, rating_sigma__isnull=False
        )
    )


def ratings(group: Group) -> dict[Game.Kind, dict[PlayerKey, Rating]]:
    """Each player's rating at each game kind (after their latest rated game), from one query."""
    latest: dict[tuple[str, PlayerKey], tuple[float, float]] = {}
    counts: dict[tuple[str, PlayerKey], int] = defaultdict(int)
    rows = _rated(group).values_list("game__kind", "profile_id", "name", "rating_mu", "rating_sigma")
    for kind, profile_id, name, mu, sigma in rows:
        if mu is not None and sigma is not None:  # always, as filtered: for the types
            key = (kind, player_key(profile_id, name))
            latest[key] = (mu, sigma)
            counts[key] += 1
    by_kind: dict[Game.Kind, dict[PlayerKey, Rating]] = {}
    for (kind, player), (mu, sigma) in latest.items():
        by_kind.setdefault(Game.Kind(kind), {})[player] = Rating.of(mu, sigma, counts[(kind, player)])
    return by_kind


@dataclass(frozen=True)
class RatedGame:
    """A player's rating after one of their games."""

    game_id: int
    day: date
    rating: Rating


def player_history(group: Group, profile: Profile) -> dict[Game.Kind, list[RatedGame]]:
    """``profile``'s rating after each of their rated games, per game kind, in the order the games finished (one
    query)."""
    rows = (
        _rated(group)
        .filter(profile=profile)
        .values_list("game_id", "game__kind", "game__finished", "game__created", "rating_mu", "rating_sigma")
    )
    history: dict[Game.Kind, list[RatedGame]] = {}
    for game_id, kind, finished, created, mu, sigma in rows:
        if mu is None or sigma is None:  # never, as filtered: for the types
            continue
        games = history.setdefault(Game.Kind(kind), [])
        games.append(RatedGame(game_id, (finished or created).date(), Rating.of(mu, sigma, len(games) + 1)))
    return history


def ranked(players: Iterable[PlayerStats], rated: Mapping[PlayerKey, Rating]) -> list[tuple[PlayerStats, Rating]]:
    """The ``players`` of a game kind who have a rating, with it, the highest first (then by name)."""
    pairs = [(player, rating) for player in players if (rating := rated.get(player.key)) is not None]
    return sorted(pairs, key=lambda pair: (-pair[1].ordinal, pair[0].name))


def rating_chart(games: Sequence[RatedGame]) -> SafeString:
    """A player's rating (the ordinal) after each of their rated games."""
    return line(_("Rating over time"), [(game.day.isoformat(), round(game.rating.ordinal, 1)) for game in games])
