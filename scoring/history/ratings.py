"""Skill ratings: a rating per player and game kind within a group, with OpenSkill's Plackett–Luce model.

A *player* is counted as by :mod:`scoring.history.statistics`: the group's player (their profile), or, for a seat with
no player, the seat's name. Every player starts at μ = 25, σ = 25/3 (the package's defaults) and the finished games of
a kind update the ratings of their players one game after another, in the order the games finished (games finished
at the same instant in the order of their ids), each game's stored ranks as its ranks: players sharing a place tie.
A game of one player changes nothing. The number shown is the *ordinal* μ − 3σ, a cautious estimate: the player's
skill is very likely above it; it starts at 0.

The rating of each seat after its game is stored on the seat (``Seat.rating_mu``, ``Seat.rating_sigma``) by
:func:`recompute`, which runs whenever the group's finished results change (:data:`scoring.standings.results_changed`):
each player's latest rating is kept with the group's other sums (:mod:`scoring.history.summary`), and a player's page
reads their own seats' ratings for its chart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import groupby
from operator import itemgetter

from django.db import connection, transaction
from django.db.models import Q
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from openskill.models import PlackettLuce

from scoring.history.charts import line
from scoring.history.statistics import Moment, PlayerKey, PlayerStats, in_finish_order, player_key
from scoring.models import Game, Group, Seat

MODEL = PlackettLuce()
"""The model with the package's default parameters (μ 25, σ 25/3, β σ/2, τ μ/300)."""
MU, SIGMA = MODEL.mu, MODEL.sigma
"""Where every player starts."""

ORDINAL_Z = 3.0
"""The ordinal is μ − 3σ."""

SETTLED_SIGMA = 4.0
"""At or below this σ (under half the starting σ), a rating is said to be settled."""
FIRST_GUESS_SIGMA = 6.5
"""Above this σ (the first ten games or so), a rating is said to be a first guess."""
USUAL_MARGIN = 1.0
"""How far μ may be from where everyone starts (:data:`MU`, the group's usual: the model moves skills against each
other) and still be said to be about the group's usual."""


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
        """The rating (μ, σ) after ``games`` games, with its ordinal: the package's ``ordinal()`` with its defaults
        (z = 3, α = 1, target 0), reckoned here (a rating object for each point of a chart is slow)."""
        return cls(mu, sigma, mu - ORDINAL_Z * sigma, games)

    @property
    def standing(self) -> str:
        """How the player's estimated skill (μ) stands against the group's usual, in words: what a newcomer reads
        beside a number such as −11, which says only how cautious the estimate still is."""
        if self.mu > MU + USUAL_MARGIN:
            return _("plays above the group's usual")
        if self.mu < MU - USUAL_MARGIN:
            return _("plays below the group's usual")
        return _("plays about as the group usually does")

    @property
    def sentence(self) -> str:
        """How sure the number is, and how many games it rests on."""
        if self.sigma <= SETTLED_SIGMA:
            text = ngettext("settled after %(count)d game", "settled after %(count)d games", self.games)
        elif self.sigma <= FIRST_GUESS_SIGMA:
            text = ngettext("still uncertain after %(count)d game", "still uncertain after %(count)d games", self.games)
        else:
            text = ngettext("a first guess after %(count)d game", "a first guess after %(count)d games", self.games)
        return text % {"count": self.games}


type Stored = tuple[float | None, float | None]
"""A seat's stored rating after its game: (μ, σ), or ``(None, None)``."""


def recompute(group: Group, fresh: Iterable[Game] = ()) -> bool:
    """Rate the group's finished games again, and store on each seat its rating after its game (``None`` for a game
    in progress or of one player): one query reads the seats, one writes those that changed.

    ``fresh`` are the games whose results were just stored: the games that finished before the first of them keep
    the ratings stored when they finished, so that a game finishing now costs the rating of one game, not of the
    group's whole history. Without ``fresh`` (a game reopened or deleted), or from a game whose seats have no
    rating stored yet (one finished before the ratings existed), every game is rated again.

    Returns whether the stored rating of a game other than ``fresh`` changed.
    """
    fresh_ids = {game.pk for game in fresh}
    rows = in_finish_order(
        Seat.objects.filter(game__group=group).filter(
            Q(game__status=Game.Status.FINISHED, rank__isnull=False) | Q(rating_mu__isnull=False)
        )
    ).values_list(
        "pk", "game_id", "game__kind", "game__status", "profile_id", "name", "rank", "rating_mu", "rating_sigma"
    )
    current: dict[tuple[str, PlayerKey], tuple[float, float]] = {}
    changed: list[tuple[float | None, float | None, int]] = []
    others = False
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
        now = [(*after.get(pk, (None, None)), pk) for pk, old in stored.items() if after.get(pk, (None, None)) != old]
        others = others or (bool(now) and game_id not in fresh_ids)
        changed += now
    if changed:
        table = connection.ops.quote_name(Seat._meta.db_table)
        with transaction.atomic(), connection.cursor() as cursor:  # one statement, run for each changed seat
            cursor.executemany(f"UPDATE {table} SET rating_mu = %s, rating_sigma = %s WHERE id = %s", changed)
    return others


def _counted(rated: list[tuple[int, tuple[str, PlayerKey], float]], stored: dict[int, Stored]) -> bool:
    """Whether a game's seats hold the ratings it gave when it finished: each of its players' if it had more than
    one, and no one else's."""
    counted = {pk for pk, _key, _rank in rated} if len(rated) > 1 else set()
    return all((None not in rating) == (pk in counted) for pk, rating in stored.items())


@dataclass(frozen=True)
class RatedGame:
    """A player's rating after one of their games."""

    day: date
    rating: Rating


def player_history(games: Iterable[Moment]) -> dict[Game.Kind, list[RatedGame]]:
    """A player's rating after each of their rated games (``games``: theirs, in the order they finished), per game
    kind."""
    history: dict[Game.Kind, list[RatedGame]] = {}
    for game in games:
        if game.rating is not None:
            rated = history.setdefault(game.kind, [])
            rated.append(RatedGame(game.day, Rating.of(*game.rating, len(rated) + 1)))
    return history


def ranked(players: Iterable[PlayerStats], rated: Mapping[PlayerKey, Rating]) -> list[tuple[PlayerStats, Rating]]:
    """The ``players`` of a game kind who have a rating, with it, the highest first (then by name)."""
    pairs = [(player, rating) for player in players if (rating := rated.get(player.key)) is not None]
    return sorted(pairs, key=lambda pair: (-pair[1].ordinal, pair[0].name))


def rating_chart(games: Sequence[RatedGame]) -> SafeString:
    """A player's rating (the ordinal) after each of their rated games."""
    points = [(game.day.isoformat(), round(game.rating.ordinal, 1)) for game in games]
    return line(_("Rating over time"), points, combine=itemgetter(-1))  # a run of games: the rating after the last
