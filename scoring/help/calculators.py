"""The calculators, which settle a dispute at the table: a form each, answered by :mod:`rules.disputes`.

A calculator is a form of up to four players' lines (a name and some figures) plus a few other
fields, the function of ``rules`` that rules on it, and the rulebook's example to try.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules import Building, ObjectiveCard, ObjectiveKind, Reward, Step, cooper_island, final_scoring, small_islands
from rules.components import MAX_PLAYERS
from rules.disputes import (
    Ranking,
    collection_ruling,
    cooper_island_tie_break,
    influence_ruling,
    nugget_ruling,
    okanagan_tie_break,
    sets_ruling,
    small_islands_tie_break,
)
from rules.record import check_card
from scoring.models import NAME_LENGTH
from scoring.wording import CARDS, NUGGET_LADDERS, say

MAX_FIGURE = 999


def seat_choices() -> list[tuple[int, str]]:
    """Player 1 to Player 4, in the reader's language (a callable: translated when the form is shown)."""
    return [(seat, gettext("Player %(seat)d") % {"seat": seat}) for seat in range(1, MAX_PLAYERS + 1)]


class SeatsForm(forms.Form):
    """Up to four players' lines: ``SEAT_FIELDS`` (name, label) after each player's name."""

    SEAT_FIELDS: tuple[tuple[str, Any], ...] = ()
    MIN_PLAYERS = 2

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(1, MAX_PLAYERS + 1):
            self.fields[f"name_{seat}"] = forms.CharField(
                label=_("Player %(seat)d") % {"seat": seat}, max_length=NAME_LENGTH, required=False
            )
            for key, label in self.SEAT_FIELDS:
                self.fields[f"{key}_{seat}"] = forms.IntegerField(
                    label=label, min_value=0, max_value=MAX_FIGURE, required=False
                )
                self.fields[f"{key}_{seat}"].widget.attrs.update(inputmode="numeric", size=3)

    def seat_rows(self) -> list[list[forms.BoundField]]:
        """Each seat's fields, for a row of the form."""
        keys = ["name", *(key for key, _label in self.SEAT_FIELDS)]
        return [[self[f"{key}_{seat}"] for key in keys] for seat in range(1, MAX_PLAYERS + 1)]

    def players(self) -> list[dict[str, Any]]:
        """The lines with a name: ``{"name": ..., <figure>: value or 0}``."""
        rows = []
        for seat in range(1, MAX_PLAYERS + 1):
            name = (self.cleaned_data.get(f"name_{seat}") or "").strip()
            if name:
                figures = {key: self.cleaned_data.get(f"{key}_{seat}") or 0 for key, _label in self.SEAT_FIELDS}
                rows.append({"name": name, **figures})
        return rows

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names = [str(data.get(f"name_{seat}") or "").strip() for seat in range(1, MAX_PLAYERS + 1)]
        named = [name for name in names if name]
        if len(named) < self.MIN_PLAYERS:
            raise forms.ValidationError(
                _("Name at least %(count)d players."), params={"count": self.MIN_PLAYERS}, code="players"
            )
        if len(set(named)) != len(named):
            raise forms.ValidationError(_("Each player needs a different name."), code="names")
        return data


class InfluenceForm(SeatsForm):
    SEAT_FIELDS = (
        (Building.FARM.value, _("Farms")),
        (Building.WAREHOUSE.value, _("Warehouses")),
        (Building.SILO.value, _("Silos")),
    )
    MIN_PLAYERS = 1
    closer = forms.TypedChoiceField(label=_("Who completed the territory"), coerce=int, choices=seat_choices)


class CollectionForm(SeatsForm):
    SEAT_FIELDS = (("influence", _("Influence")),)
    MIN_PLAYERS = 1
    tokens = forms.IntegerField(label=_("Tokens in the territory"), min_value=0, max_value=MAX_FIGURE)


class NuggetForm(SeatsForm):
    SEAT_FIELDS = (("nuggets", _("Nuggets")),)


class OkanaganTieForm(SeatsForm):
    SEAT_FIELDS = (("total", _("Total VP")), ("tokens", _("Tokens")))


class SmallIslandsTieForm(SeatsForm):
    SEAT_FIELDS = (("total", _("Total")), ("houses", _("Houses")), ("ports", _("Ports")))
    last_tile = forms.TypedChoiceField(
        label=_("Who placed the last tile"),
        coerce=int,
        empty_value=None,
        required=False,
        choices=lambda: [("", gettext("not known")), *seat_choices()],
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for row in self.players():
            if row["ports"] > row["total"]:
                raise forms.ValidationError(
                    _("%(name)s's total includes the ports: it cannot be less than %(ports)d."),
                    params={"name": row["name"], "ports": row["ports"]},
                )
        return data


class CooperIslandTieForm(SeatsForm):
    SEAT_FIELDS = (("total", _("Total")), ("empty", _("Empty spaces")))


class SetsForm(forms.Form):
    """One player's tokens, and one objective card."""

    card_kind = forms.ChoiceField(
        label=_("Objective card"),
        required=False,
        choices=[("", _("none")), *((kind.value, word) for kind, word in CARDS.items())],
    )
    card_rewards = forms.MultipleChoiceField(
        label=_("Rewards printed on the card"),
        required=False,
        choices=[(reward.value, reward.value) for reward in Reward],
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for reward in Reward:
            self.fields[reward.value] = forms.IntegerField(
                label=reward.value, min_value=0, max_value=MAX_FIGURE, required=False
            )
            self.fields[reward.value].widget.attrs.update(inputmode="numeric", size=3)

    def reward_fields(self) -> list[forms.BoundField]:
        return [self[reward.value] for reward in Reward]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("card_kind")
        if kind:
            card = ObjectiveCard(ObjectiveKind(kind), tuple(Reward(value) for value in data.get("card_rewards", [])))
            problem = check_card(card)
            if problem:
                raise forms.ValidationError(say(problem))
            data["card"] = card
        return data


@dataclass(frozen=True)
class Answer:
    """What a calculator shows: the steps (each citing a rule), and optional rows of figures."""

    steps: tuple[Step, ...]
    readings: tuple[tuple[str, tuple[Step, ...]], ...] = ()
    places: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Calculator:
    """One calculator."""

    slug: str
    title: Any
    question: Any
    form: type[forms.Form]
    answer: Callable[[Any], Answer]
    example: str
    """The rulebook's (or a typical) case, as the form's query string."""


def _seat_of(form: SeatsForm, number: int | None) -> str | None:
    if number is None:
        return None
    name = str(form.cleaned_data.get(f"name_{number}") or "").strip()
    if not name:
        raise forms.ValidationError(_("Player %(seat)d has no name."), params={"seat": number})
    return name


def _influence(form: InfluenceForm) -> Answer:
    players = form.players()
    closer = _seat_of(form, form.cleaned_data["closer"]) or ""
    buildings = {row["name"]: {building: row[building.value] for building in Building} for row in players}
    return Answer(tuple(influence_ruling([row["name"] for row in players], closer, buildings)))


def _collection(form: CollectionForm) -> Answer:
    collectors = [(row["name"], row["influence"]) for row in form.players()]
    return Answer(tuple(collection_ruling(form.cleaned_data["tokens"], collectors)))


def _nuggets(form: NuggetForm) -> Answer:
    rulings = nugget_ruling({row["name"]: row["nuggets"] for row in form.players()})
    return Answer(
        (), tuple((str(NUGGET_LADDERS[ladder]), tuple(steps)) for ladder, (_points, steps) in rulings.items())
    )


def _sets(form: SetsForm) -> Answer:
    rewards = {reward: form.cleaned_data.get(reward.value) or 0 for reward in Reward}
    return Answer(tuple(sets_ruling(rewards, form.cleaned_data.get("card"))))


def _ranking(ranking: Ranking) -> Answer:
    return Answer(ranking.steps, places=ranking.places)


def _okanagan_tie(form: OkanaganTieForm) -> Answer:
    return _ranking(okanagan_tie_break([final_scoring.Standing(**row) for row in form.players()]))


def _small_islands_tie(form: SmallIslandsTieForm) -> Answer:
    standings = [small_islands.Standing(**row) for row in form.players()]
    return _ranking(small_islands_tie_break(standings, _seat_of(form, form.cleaned_data.get("last_tile"))))


def _cooper_island_tie(form: CooperIslandTieForm) -> Answer:
    return _ranking(
        cooper_island_tie_break(
            [cooper_island.Standing(row["name"], row["total"], row["empty"]) for row in form.players()]
        )
    )


CALCULATORS: dict[str, Calculator] = {
    calculator.slug: calculator
    for calculator in (
        Calculator(
            "influence",
            _("Influence, ties and the special action"),
            _("Who is ahead in a completed territory, who orders a tie, who takes the special action?"),
            InfluenceForm,
            _influence,
            "name_1=White&farm_1=1&silo_1=1&name_2=Red&warehouse_2=1&name_3=Yellow&warehouse_3=1&closer=2",
        ),
        Calculator(
            "collection",
            _("Taking tokens from a territory"),
            _("In the order of influence, how many tokens may each player take?"),
            CollectionForm,
            _collection,
            "tokens=6&name_1=White&influence_1=4&name_2=Yellow&influence_2=2&name_3=Red&influence_3=2",
        ),
        Calculator(
            "nuggets",
            _("Gold nuggets"),
            _("Who scores what for gold nuggets, with ties, under both readings for 2–3 players?"),
            NuggetForm,
            _nuggets,
            "name_1=Ann&nuggets_1=3&name_2=Ben&nuggets_2=1",
        ),
        Calculator(
            "sets",
            _("Explorer sets and an objective card"),
            _("How many Explorer sets do these tokens make, and what does this card score?"),
            SetsForm,
            _sets,
            "green-square=3&green-hexagon=3&green-circle=3&blue-circle=4&yellow-circle=2&black-square=2&card_kind=shape&card_rewards=green-circle&card_rewards=blue-circle&card_rewards=yellow-circle",
        ),
        Calculator(
            "okanagan-tie",
            _("Okanagan: a tie at the end"),
            _("Players tie on VP: who wins?"),
            OkanaganTieForm,
            _okanagan_tie,
            "name_1=Ann&total_1=40&tokens_1=9&name_2=Ben&total_2=40&tokens_2=11",
        ),
        Calculator(
            "small-islands-tie",
            _("Small Islands: a tie at the end"),
            _("Players tie on points: houses, then ports, then the last tile."),
            SmallIslandsTieForm,
            _small_islands_tie,
            "name_1=Ann&total_1=43&houses_1=7&ports_1=3&name_2=Ben&total_2=43&houses_2=7&ports_2=3&last_tile=2",
        ),
        Calculator(
            "cooper-island-tie",
            _("Cooper Island: a tie at the end"),
            _("Players tie on points: fewer empty spaces wins."),
            CooperIslandTieForm,
            _cooper_island_tie,
            "name_1=Ann&total_1=50&empty_1=3&name_2=Ben&total_2=50&empty_2=1",
        ),
    )
}
