"""Score-sheet forms for Small Islands and Cooper Island: a line per player, turned into the sheet
document of ``score-sheets.md`` and checked by ``rules``; its errors go back to the field they name."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules import RulesError, last_tile_needed, normal_text, parse_small_islands

from .models import NAME_LENGTH, Game
from .wording import say

SEATS = 4
NUMBERS = re.compile(r"-?\d+")


def _number(label: Any, high: int = 999) -> forms.IntegerField:
    field = forms.IntegerField(label=label, min_value=0, max_value=high, required=False)
    field.widget.attrs.update(inputmode="numeric")
    return field


class SheetForm(forms.Form):
    """Up to four players' lines of a score sheet."""

    KIND: Game.Kind
    MIN_PLAYERS = 1

    def seat_fields(self) -> dict[str, forms.Field]:
        """The fields of one player's line, after the name."""
        raise NotImplementedError

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(1, SEATS + 1):
            self.fields[f"name_{seat}"] = forms.CharField(
                label=gettext("Player %(seat)d") % {"seat": seat}, max_length=NAME_LENGTH, required=False
            )
            for key, field in self.seat_fields().items():
                self.fields[f"{key}_{seat}"] = field

    def seat_rows(self) -> list[list[forms.BoundField]]:
        """Each seat's fields, for a block of the form."""
        keys = ["name", *self.seat_fields()]
        return [[self[f"{key}_{seat}"] for key in keys] for seat in range(1, SEATS + 1)]

    def lines(self) -> list[tuple[int, str]]:
        """(seat, name) of each line with a name."""
        found = []
        for seat in range(1, SEATS + 1):
            name = normal_text(str(self.cleaned_data.get(f"name_{seat}") or ""))
            if name:
                found.append((seat, name))
        return found

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names = [name for _seat, name in self.lines()]
        if len(names) < self.MIN_PLAYERS:
            raise forms.ValidationError(_("Name at least one player."))
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each player needs a different name."))
        return data

    def sheet(self) -> dict[str, Any]:
        """The sheet document, from a valid form."""
        raise NotImplementedError

    def refuse(self, error: RulesError) -> None:
        """Show an error of ``rules`` at the field it names (player, field), or above the form."""
        seats = {name: seat for seat, name in self.lines()}
        if len(error.where) >= 2 and error.where[0] in seats:
            key = f"{error.where[1]}_{seats[error.where[0]]}"
            if key in self.fields:
                self.add_error(key, say(error.message))
                return
        self.add_error(None, say(error.message))


class SmallIslandsForm(SheetForm):
    KIND = Game.Kind.SMALL_ISLANDS

    last_tile_by = forms.TypedChoiceField(
        label=_("Who placed the last tile"), coerce=int, required=False, empty_value=None
    )
    alexis_base = _number(_("Alexis: base score"))
    alexis_per_house = _number(_("Alexis: points per house"))
    alexis_houses = _number(_("Alexis: houses"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ask_last_tile = bool(self.data.get("last_tile_by"))
        self.fields["last_tile_by"].choices = [  # type: ignore[attr-defined]
            ("", gettext("not known")),
            *((seat, gettext("Player %(seat)d") % {"seat": seat}) for seat in range(1, SEATS + 1)),
        ]

    def seat_fields(self) -> dict[str, forms.Field]:
        return {
            "prestige": _number(_("Prestige points")),
            "discoveries": forms.CharField(label=_("Discovery tokens (their values)"), required=False, max_length=100),
            "ship_placed": forms.BooleanField(label=_("Own ship on the table"), required=False),
            "ports": _number(_("Ports around the ship"), 16),
            "houses": _number(_("Houses placed"), 8),
        }

    def sheet(self) -> dict[str, Any]:
        data = self.cleaned_data
        players = []
        for seat, name in self.lines():
            discoveries = [int(value) for value in NUMBERS.findall(str(data.get(f"discoveries_{seat}") or ""))]
            players.append(
                {
                    "name": name,
                    "prestige": data.get(f"prestige_{seat}") or 0,
                    "discoveries": discoveries,
                    "ship_placed": bool(data.get(f"ship_placed_{seat}")),
                    "ports": data.get(f"ports_{seat}") or 0,
                    "houses": data.get(f"houses_{seat}") or 0,
                }
            )
        sheet: dict[str, Any] = {"format": "small-islands-sheet/1", "players": players}
        seats = dict(self.lines())
        if data.get("last_tile_by") in seats:
            sheet["last_tile_by"] = seats[data["last_tile_by"]]
        if len(players) == 1:
            sheet["alexis"] = {
                "base": data.get("alexis_base") or 0,
                "per_house": data.get("alexis_per_house") or 0,
                "houses": data.get("alexis_houses") or 0,
            }
        return sheet

    def needs_last_tile(self, sheet: dict[str, Any]) -> bool:
        """Players tie on points, houses and ports, and nobody said who placed the last tile."""
        return "last_tile_by" not in sheet and last_tile_needed(parse_small_islands(sheet))


class CooperIslandForm(SheetForm):
    KIND = Game.Kind.COOPER_ISLAND

    def seat_fields(self) -> dict[str, forms.Field]:
        return {
            "logbooks": _number(_("Logbooks")),
            "sailed_1": _number(_("Ship 1: spaces past its last logbook")),
            "sailed_2": _number(_("Ship 2: spaces past its last logbook")),
            "royal_orders": forms.CharField(
                label=_("Royal orders (card: points, …)"),
                required=False,
                max_length=100,
                help_text=_("For example 3: 6, 5: 4"),
            ),
            "buildings": _number(_("Points from buildings")),
            "coins": _number(_("Coins left")),
            "resources": _number(_("Resources left")),
            "cartographer": _number(_("Cartographer steps left")),
            "tiles": _number(_("Double-terrain tiles left")),
            "anchors": _number(_("Anchors")),
            "empty_spaces": _number(_("Empty spaces on the island")),
        }

    def sheet(self) -> dict[str, Any]:
        data = self.cleaned_data
        players = []
        for seat, name in self.lines():
            pairs = re.findall(r"(\d+)\s*[:=]\s*(-?\d+)", str(data.get(f"royal_orders_{seat}") or ""))
            players.append(
                {
                    "name": name,
                    "logbooks": data.get(f"logbooks_{seat}") or 0,
                    "spaces_past_logbook": [data.get(f"sailed_1_{seat}") or 0, data.get(f"sailed_2_{seat}") or 0],
                    "royal_orders": {card: int(points) for card, points in pairs},
                    "buildings": data.get(f"buildings_{seat}") or 0,
                    "leftovers": {
                        key: data.get(f"{key}_{seat}") or 0 for key in ("coins", "resources", "cartographer", "tiles")
                    },
                    "anchors": data.get(f"anchors_{seat}") or 0,
                    "empty_spaces": data.get(f"empty_spaces_{seat}") or 0,
                }
            )
        return {"format": "cooper-island-sheet/1", "players": players}


SHEET_FORMS: dict[str, type[SheetForm]] = {
    Game.Kind.SMALL_ISLANDS: SmallIslandsForm,
    Game.Kind.COOPER_ISLAND: CooperIslandForm,
}
