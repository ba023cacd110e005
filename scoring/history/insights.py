"""Insights from the event log: each finished Okanagan game's facts stored on its seats when it finishes
(:func:`store_facts`, counted by :mod:`scoring.history.facts`), and summed per player and for the winners and the others
(:class:`Insights`) with the group's other sums (:mod:`scoring.history.summary`), as each game finishes.

Only finished games have facts, so that nothing secret of a game in progress (a player's objective cards) leaks:
a game reopened loses them until it finishes again. An imported play has no events, hence no facts: it counts in
the scores and the records of scores, margins and streaks (:mod:`scoring.history.records`), not here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import or_

from django.db.models import Q
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from rules import (
    Colour,
    ObjectiveKind,
    RecordError,
    Reward,
    Shape,
    SpecialActionKind,
    final_score,
    parse_record,
    score_record,
)
from scoring import states
from scoring.history.facts import FIELDS, INDEX, game_facts
from scoring.models import Event, EventState, Game, Seat, record_document
from scoring.wording import ACTIONS, COLOURS, OBJECTIVE_KINDS, SHAPES

type Json = None | bool | int | float | str | list[Json] | dict[str, Json]
"""A JSON value, as ``json.dumps`` writes it: what the statistics' data is made of."""


# Storing ------------------------------------------------------------------------------------------


def store_facts(games: Sequence[Game]) -> None:
    """The facts of each finished Okanagan game of
    ``games`` (not an imported play) counted from its events and its final state, and stored on its seats; three
    queries to read and one to write, however many games (a restore sends a chunk of games at a time).

    The final state is the one stored with the last event (a game finished at the table: nothing is replayed, as
    no save replays the log); a game stored without its states (a restore) is replayed once."""
    finished = [
        game
        for game in games
        if game.kind == Game.Kind.OKANAGAN and game.status == Game.Status.FINISHED and not game.imported
    ]
    if not finished:
        return
    seats: dict[int, list[Seat]] = {game.pk: [] for game in finished}
    for seat in Seat.objects.filter(game__in=finished).order_by("game_id", "position"):
        seats[seat.game_id].append(seat)
    events: dict[int, list[object]] = {game.pk: [] for game in finished}
    rows = Event.objects.filter(game__in=finished).order_by("game_id", "index").values_list("game_id", "data")
    for game_id, data in rows:
        events[game_id].append(data)
    last = [Q(event__game_id=game_id, event__index=len(logged) - 1) for game_id, logged in events.items() if logged]
    stored = dict(EventState.objects.filter(reduce(or_, last)).values_list("event__game_id", "data")) if last else {}
    for game in finished:
        players = tuple(seat.name for seat in seats[game.pk])
        try:
            record = parse_record(record_document(players, game.options, events[game.pk]))
            after = states.load(stored.get(game.pk))
            final = final_score(after.state) if after is not None else score_record(record).final
            facts = game_facts(players, record.events, final)
        except RecordError:  # only a database edited by hand holds an illegal log: no facts rather than wrong ones
            facts = [{} for _player in players]
        for seat, seat_facts in zip(seats[game.pk], facts, strict=True):
            seat.facts = seat_facts
    Seat.objects.bulk_update([seat for game in finished for seat in seats[game.pk]], ["facts"], batch_size=500)


# Reading ------------------------------------------------------------------------------------------


@dataclass
class Insights:
    """The facts of some seats summed: a player's games, or every player's (the group's)."""

    games: int = 0
    """How many seats (a player's games, or every player's games) the sums are over."""
    totals: list[int] = field(default_factory=lambda: [0] * len(FIELDS))
    """Each count of :data:`scoring.history.facts.FIELDS` summed."""

    def add(self, counts: Sequence[int]) -> None:
        """Add one seat's facts."""
        self.games += 1
        self.totals = [total + count for total, count in zip(self.totals, counts, strict=True)]

    def merged(self, other: Insights) -> Insights:
        """These and ``other``'s facts together."""
        totals = [mine + theirs for mine, theirs in zip(self.totals, other.totals, strict=True)]
        return Insights(self.games + other.games, totals)

    def __getitem__(self, name: str) -> int:
        """The total of count ``name`` of :data:`scoring.history.facts.FIELDS`."""
        return self.totals[INDEX[name]]

    def per_game(self, name: str) -> float:
        """The count ``name`` per game, to one decimal (0 with no game)."""
        return self.per_game_of(self[name])

    def per_game_of(self, count: int) -> float:
        """``count`` per game, to one decimal (0 with no game)."""
        return round(count / self.games, 1) if self.games else 0.0

    @property
    def average_influence(self) -> float | None:
        """Their influence averaged over the territories where they had some (``None``: none)."""
        count = self["influence_count"]
        return round(self["influence_sum"] / count, 1) if count else None

    @property
    def favoured_share(self) -> float | None:
        """Of the ties they broke and were part of, the share in which they put themself first (``None``: none)."""
        own = self["ties_own"]
        return round(self["ties_favoured"] / own, 2) if own else None

    def tokens_by(self, of: type[Colour] | type[Shape]) -> dict[str, int]:
        """The tokens held at the end, by colour or by shape."""
        out = {key.value: 0 for key in of}
        for reward in Reward:
            out[(reward.colour if of is Colour else reward.shape).value] += self[f"tokens.{reward.value}"]
        return out

    def completed_share(self, kind: ObjectiveKind) -> float | None:
        """The % of their objective cards of ``kind`` that scored a set (``None``: no such card)."""
        held = self[f"cards.{kind.value}"]
        return round(100 * self[f"cards_completed.{kind.value}"] / held) if held else None

    def to_data(self) -> dict[str, Json]:
        """The insights as JSON data (totals over :attr:`games`; ``null`` when there is nothing to average)."""
        return {
            "games": self.games,
            "territories_closed": self["territories_closed"],
            "average_influence": self.average_influence,
            "ties_broken": self["ties_broken"],
            "ties_own": self["ties_own"],
            "ties_favoured": self["ties_favoured"],
            "special_actions": {kind.value: self[f"special_actions.{kind.value}"] for kind in SpecialActionKind},
            "tokens_by_colour": dict(self.tokens_by(Colour)),
            "tokens_by_shape": dict(self.tokens_by(Shape)),
            "objective_cards": {
                kind.value: {"held": self[f"cards.{kind.value}"], "completed": self[f"cards_completed.{kind.value}"]}
                for kind in ObjectiveKind
            },
            "explorer_sets": self["explorer_sets"],
            "nuggets": self["nuggets"],
        }


MIN_WINNING_PLAYS = 5
"""How many winning plays the winners' figures rest on before a page marks where winners took more: over 2 games, a
difference says nothing about how to win."""


@dataclass(frozen=True)
class Rate:
    """How often winners and the other players took one thing, per game."""

    kind: str
    label: str | Promise
    """The kind's name in the reader's language."""
    winners: float
    others: float
    winning_plays: int
    """How many winning plays the winners' figure rests on."""

    @property
    def winners_more(self) -> bool:
        """Whether winners took more, over at least :data:`MIN_WINNING_PLAYS` winning plays (marked ▲)."""
        return self.winning_plays >= MIN_WINNING_PLAYS and self.winners > self.others


@dataclass(frozen=True)
class WinnersAndOthers:
    """The facts of the winners' seats (ranked first) and of the others', summed apart: together, the group's."""

    winners: Insights
    others: Insights

    @property
    def group(self) -> Insights:
        """Every seat's facts: the group's insights (per game: the average player's game)."""
        return self.winners.merged(self.others)

    def rates(
        self, bag: str, labels: Mapping[SpecialActionKind, Promise] | Mapping[ObjectiveKind, Promise]
    ) -> tuple[Rate, ...]:
        """Each kind of ``bag`` (``special_actions``, ``cards``) per game among the winners and among the others."""
        return tuple(
            Rate(
                kind.value,
                label,
                self.winners.per_game(f"{bag}.{kind.value}"),
                self.others.per_game(f"{bag}.{kind.value}"),
                self.winners.games,
            )
            for kind, label in labels.items()
        )

    @property
    def compared(self) -> bool:
        """Whether the winners have :data:`MIN_WINNING_PLAYS` winning plays, so that a page marks where they took
        more."""
        return self.winners.games >= MIN_WINNING_PLAYS

    @property
    def least(self) -> int:
        """:data:`MIN_WINNING_PLAYS`, for the page that states it."""
        return MIN_WINNING_PLAYS

    @property
    def tables(self) -> tuple[tuple[Promise, tuple[Rate, ...]], ...]:
        """Which special actions and objective card kinds winners took more than the others, per game, under their
        headings, as the statistics page shows them."""
        return (
            (_("Special actions"), self.rates("special_actions", ACTIONS)),
            (_("Objective cards"), self.rates("cards", OBJECTIVE_KINDS)),
        )

    def to_data(self) -> dict[str, Json]:
        """As JSON data: the seats counted, and each kind's count per game among the winners and among the others."""
        return {
            "winners": self.winners.games,
            "others": self.others.games,
            **{
                name: {rate.kind: {"winners": rate.winners, "others": rate.others} for rate in self.rates(bag, labels)}
                for name, bag, labels in (
                    ("special_actions", "special_actions", ACTIONS),
                    ("objective_cards", "cards", OBJECTIVE_KINDS),
                )
            },
        }


# Shown ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InsightRow:
    """One figure of an insight: its label, the player's figure (``None`` on the group's page) and the group's."""

    label: str | Promise
    mine: float | None
    group: float | None


@dataclass(frozen=True)
class Insight:
    """An insight as a page shows it: its title, its one-sentence definition and its figures."""

    title: Promise
    definition: Promise
    rows: tuple[InsightRow, ...]


def shown(group: Insights, mine: Insights | None = None) -> list[Insight]:
    """The insights a page shows, each with its definition: the group's average player per game, beside
    ``mine`` (a player's) when given."""

    def row(label: str | Promise, figure: Callable[[Insights], float | None]) -> InsightRow:
        return InsightRow(label, None if mine is None else figure(mine), figure(group))

    def per_game(name: str) -> Callable[[Insights], float | None]:
        return lambda insights: insights.per_game(name)

    def by(of: type[Colour] | type[Shape], key: str) -> Callable[[Insights], float | None]:
        return lambda insights: insights.per_game_of(insights.tokens_by(of)[key])

    def completed(kind: ObjectiveKind) -> Callable[[Insights], float | None]:
        return lambda insights: insights.completed_share(kind)

    def favoured(insights: Insights) -> float | None:
        share = insights.favoured_share
        return None if share is None else round(100 * share)

    return [
        Insight(
            _("Territories closed"),
            _("Territories they closed (they played the tile that completed them), per game."),
            (row(_("per game"), per_game("territories_closed")),),
        ),
        Insight(
            _("Influence where they built"),
            _("Their influence (farm 3, warehouse 2, silo 1) averaged over the territories where they had some."),
            (row(_("average"), lambda insights: insights.average_influence),),
        ),
        Insight(
            _("Ties broken"),
            _(
                "Groups of players tied on influence that they put in order as the closer, per game; favoured: of "
                "those they were part of, the % in which they put themself first, to collect before the others."
            ),
            (row(_("per game"), per_game("ties_broken")), row(_("favoured (%)"), favoured)),
        ),
        Insight(
            _("Special actions"),
            _("The special actions they took, in a territory or with the Volcano, by kind, per game."),
            tuple(row(ACTIONS[kind], per_game(f"special_actions.{kind.value}")) for kind in SpecialActionKind),
        ),
        Insight(
            _("Tokens"),
            _("The reward tokens they held at the end of the game, by colour and by shape, per game."),
            (
                *(row(COLOURS[colour], by(Colour, colour.value)) for colour in Colour),
                *(row(SHAPES[shape], by(Shape, shape.value)) for shape in Shape),
            ),
        ),
        Insight(
            _("Objective cards"),
            _("Their objective cards at the end, by kind, per game; completed: the % of them that scored a set."),
            tuple(
                item
                for kind in ObjectiveKind
                for item in (
                    row(OBJECTIVE_KINDS[kind], per_game(f"cards.{kind.value}")),
                    row(format_lazy(_("{kind}: completed (%)"), kind=OBJECTIVE_KINDS[kind]), completed(kind)),
                )
            ),
        ),
        Insight(
            _("Explorer sets"),
            _("Sets of 4 tokens of different colours at the end (4 VP each), per game."),
            (row(_("per game"), per_game("explorer_sets")),),
        ),
        Insight(
            _("Gold nuggets"),
            _("The gold nuggets they held at the end, per game."),
            (row(_("per game"), per_game("nuggets")),),
        ),
    ]
