"""Score sheets of Small Islands and Cooper Island, filled in at the table: the players' names start the game,
then each player's line is a form of its own (on that player's phone, or one phone fills every line), kept on the
seat as typed. When every line is done, the lines make the sheet document of ``score-sheets.md``, checked and
scored by ``rules``; an error goes back to the line and field it names.

Every count is a required whole number shown as 0 to begin with: a value that is not a number (``3-6``) is an
error at its field, never a 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from rules import (
    ALEXIS,
    FORMATS,
    RulesError,
    last_tile_candidates,
    name_key,
    names_problem,
    normal_text,
    parse_small_islands,
    score_sheet,
)
from rules.catalogue import Game as RulesGame
from rules.components import MAX_PLAYERS
from rules.cooper_island import LEFTOVERS, ROYAL_ORDERS_IN_PLAY
from rules.small_islands import DISCOVERY_TOKENS, HOUSES, MAX_PORTS
from scoring.confusables import new_players_problem
from scoring.models import NAME_LENGTH, Game, Seat
from scoring.wording import say

HIGH = 999
TOKEN_SPLIT = re.compile(r"[\s,;]+")
COUNT_ERRORS = {
    "required": _("Enter a number (0 if none)."),
    "invalid": _("Enter a whole number, such as 3."),
    "min_value": _("Enter 0 or more."),
    "max_value": _("Enter at most %(limit_value)s."),
}
"""A count's errors in the sheet's words (Django's own say "Ensure this value is less than or equal to 16.")."""
NAME_ERRORS = {
    "required": _("Enter the first player's name."),
    "max_length": _("A name has at most %(limit_value)d characters."),
}
"""A player's name's errors in the sheet's words."""


class CountInput(forms.TextInput):
    """A count's input: text with the phone's number keyboard, not ``type="number"``, whose browsers send
    ``3-6`` as an empty value (a royal order card, which may be left empty, was then no card, worth 0): the
    server gets what was typed and refuses it at its field."""


def count(label: Any, high: int = HIGH) -> forms.IntegerField:
    """A count from 0 to ``high``, shown with − and + buttons around it (``data-stepper``, within
    ``data-min`` and ``data-max``)."""
    field = forms.IntegerField(
        label=label, min_value=0, max_value=high, initial=0, error_messages=COUNT_ERRORS, widget=CountInput
    )
    field.widget.attrs.update(inputmode="numeric", autocomplete="off", **{"data-stepper": "", "data-max": high})
    return field


class SheetPlayersForm(forms.Form):
    """A sheet game begins with its players' names, in seat order: each fills in their own line later."""

    def __init__(self, *args: Any, known: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known = {name_key(name): name for name in known}
        for seat in range(1, MAX_PLAYERS + 1):
            field = forms.CharField(
                label=gettext("Player %(seat)d") % {"seat": seat},
                max_length=NAME_LENGTH,
                required=seat == 1,
                error_messages=NAME_ERRORS,
            )
            field.widget.attrs.update(autocomplete="off", list="names")
            self.fields[f"name_{seat}"] = field

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names = [normal_text(str(data.get(f"name_{seat}") or "")) for seat in range(1, MAX_PLAYERS + 1)]
        # A name typed as a known player's name in another case or form is that player.
        names = [self.known.get(name_key(name), name) for name in names if name]
        problem = names_problem(names)
        if problem is not None:
            raise forms.ValidationError(say(problem))
        looks = new_players_problem(names, self.known.values())
        if looks is not None:
            raise forms.ValidationError(looks)
        data["players"] = tuple(names)
        return data


def _player_count(value: object) -> int:
    return value if isinstance(value, int) else 1


class LineForm(forms.Form):
    """One player's line of the sheet. ``players`` is the table's size; ``taken`` maps a royal order card
    to the other player holding it."""

    def __init__(self, *args: Any, players: int, taken: dict[int, str] | None = None, **kwargs: Any) -> None:
        self.players = _player_count(players)
        self.taken = taken or {}
        super().__init__(*args, **kwargs)

    def full_clean(self) -> None:
        """Check the line; the first field refused takes the focus, so that the phone shows it with its reason
        (the page comes back at its top, the fields below)."""
        super().full_clean()
        first = next((name for name in self.fields if name in self.errors), None)
        if first is not None:
            self.fields[first].widget.attrs["autofocus"] = True

    def entry(self) -> dict[str, Any]:
        """This player's part of the sheet document (without the name), from a valid form."""
        raise NotImplementedError

    def extras(self) -> dict[str, Any]:
        """What the line adds to the whole sheet (the Alexis card of a solo game)."""
        return {}

    @staticmethod
    def values(player: dict[str, Any], sheet: dict[str, Any]) -> dict[str, str]:
        """The line's fields as typed, from a player of a scored sheet (to correct it)."""
        raise NotImplementedError

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The fields by part of the line, for the page."""
        return [("", list(self))]


class SmallIslandsLine(LineForm):
    prestige = count(_("Prestige points"))
    discoveries = forms.CharField(
        label=_("Discovery tokens: their values"),
        required=False,
        max_length=200,
        help_text=_("One number per token, with spaces: 3 5 2. Empty if none."),
    )
    ship_placed = forms.BooleanField(label=_("My ship tile is on the table"), required=False)
    ports = count(_("Ports around my ship"), MAX_PORTS)
    houses = count(_("Houses placed"), HOUSES)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["discoveries"].widget.attrs.update(autocomplete="off", inputmode="text")
        if self.players == 1:
            self.fields["alexis_base"] = count(format_lazy(_("{alexis}: base score"), alexis=ALEXIS))
            self.fields["alexis_per_house"] = count(format_lazy(_("{alexis}: points per house"), alexis=ALEXIS))
            self.fields["alexis_houses"] = count(format_lazy(_("{alexis}: houses"), alexis=ALEXIS), HOUSES)

    def clean_discoveries(self) -> list[int]:
        return tokens(str(self.cleaned_data.get("discoveries") or ""))

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "prestige": data["prestige"],
            "discoveries": data["discoveries"],
            "ship_placed": bool(data["ship_placed"]),
            "ports": data["ports"],
            "houses": data["houses"],
        }

    def extras(self) -> dict[str, Any]:
        if self.players != 1:
            return {}
        data = self.cleaned_data
        return {
            "alexis": {
                "base": data["alexis_base"],
                "per_house": data["alexis_per_house"],
                "houses": data["alexis_houses"],
            }
        }

    @staticmethod
    def values(player: dict[str, Any], sheet: dict[str, Any]) -> dict[str, str]:
        found = {key: str(player.get(key, 0)) for key in ("prestige", "ports", "houses")}
        found["discoveries"] = " ".join(str(value) for value in player.get("discoveries", []))
        if player.get("ship_placed"):
            found["ship_placed"] = "on"
        for key, value in dict(sheet.get("alexis") or {}).items():
            found[f"alexis_{key}"] = str(value)
        return found

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        solo = [self[name] for name in ("alexis_base", "alexis_per_house", "alexis_houses") if name in self.fields]
        main = [self[name] for name in ("prestige", "discoveries", "ship_placed", "ports", "houses")]
        return [("", main), (gettext("Solo against {alexis}").format(alexis=ALEXIS), solo)] if solo else [("", main)]


def tokens(raw: str) -> list[int]:
    """Discovery token values as typed (``3 5``): each a whole number, else an error naming it."""
    values = []
    for piece in TOKEN_SPLIT.split(raw.strip()):
        if not piece:
            continue
        if not piece.isascii() or not piece.isdigit() or int(piece) > HIGH:
            raise forms.ValidationError(
                _("“%(value)s” is not a token value: a whole number from 0 to %(high)d."),
                params={"value": piece, "high": HIGH},
            )
        values.append(int(piece))
    if len(values) > DISCOVERY_TOKENS:
        limit = {"limit": DISCOVERY_TOKENS}
        raise forms.ValidationError(
            ngettext(
                "The box holds %(limit)d discovery token.",
                "The box holds %(limit)d discovery tokens.",
                DISCOVERY_TOKENS,
            )
            % limit
        )
    return values


class CooperIslandLine(LineForm):
    logbooks = count(_("Logbooks"))
    sailed_1 = count(_("Ship 1: spaces past its last logbook"))
    sailed_2 = count(_("Ship 2: spaces past its last logbook"))
    buildings = count(_("Points from buildings"))
    coins = count(_("Coins left"))
    resources = count(_("Resources left"))
    cartographer = count(_("Cartographer steps left"))
    tiles = count(_("Double-terrain tiles left"))
    anchors = count(_("Anchors"))
    empty_spaces = count(_("Empty spaces on the island"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for card in self.cards():
            field = count(gettext("Card %(card)d") % {"card": card})
            field.required = False  # a card this player does not hold
            field.help_text = gettext("Taken by %(name)s") % {"name": self.taken[card]} if card in self.taken else ""
            if card in self.taken:
                field.widget.attrs["disabled"] = True
            self.fields[f"order_{card}"] = field

    def cards(self) -> range:
        """The royal order cards that may be in play with this many players."""
        return ROYAL_ORDERS_IN_PLAY[min(max(self.players, 1), MAX_PLAYERS)][0]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for card in self.cards():
            points = data.get(f"order_{card}")
            if points and card in self.taken:
                self.add_error(
                    f"order_{card}",
                    gettext("Card %(card)d holds one worker: it is already %(name)s's.")
                    % {"card": card, "name": self.taken[card]},
                )
        return data

    def orders(self) -> dict[str, int]:
        """The royal orders this player holds: card → points (a card with no points is not held)."""
        data = self.cleaned_data
        return {str(card): data[f"order_{card}"] for card in self.cards() if data.get(f"order_{card}")}

    def entry(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "logbooks": data["logbooks"],
            "spaces_past_logbook": [data["sailed_1"], data["sailed_2"]],
            "royal_orders": self.orders(),
            "buildings": data["buildings"],
            "leftovers": {key: data[key] for key in LEFTOVERS},
            "anchors": data["anchors"],
            "empty_spaces": data["empty_spaces"],
        }

    @staticmethod
    def values(player: dict[str, Any], sheet: dict[str, Any]) -> dict[str, str]:
        found = {key: str(player.get(key, 0)) for key in ("logbooks", "buildings", "anchors", "empty_spaces")}
        spaces = list(player.get("spaces_past_logbook", [0, 0]))
        found["sailed_1"], found["sailed_2"] = str(spaces[0]), str(spaces[1])
        found.update({key: str(value) for key, value in dict(player.get("leftovers", {})).items()})
        found.update({f"order_{card}": str(points) for card, points in dict(player.get("royal_orders", {})).items()})
        return found

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        parts = (
            ("", ("logbooks", "sailed_1", "sailed_2")),
            (
                gettext("Royal orders: the points of each card you hold"),
                tuple(f"order_{card}" for card in self.cards()),
            ),
            ("", ("buildings",)),
            (gettext("Left over (1 point per full 5)"), LEFTOVERS),
            ("", ("anchors", "empty_spaces")),
        )
        return [(title, [self[name] for name in names]) for title, names in parts]


LINE_FORMS: dict[str, type[LineForm]] = {
    Game.Kind.SMALL_ISLANDS: SmallIslandsLine,
    Game.Kind.COOPER_ISLAND: CooperIslandLine,
}


def held_cards(seats: Sequence[Seat], but: Seat | None = None) -> dict[int, str]:
    """Royal order card → the player whose line (done or not) gives it points, leaving out ``but``'s line."""
    held: dict[int, str] = {}
    for seat in seats:
        if seat == but:
            continue
        for key, value in seat.line.items():
            if key.startswith("order_") and str(value).strip() not in ("", "0"):
                number = key.removeprefix("order_")
                if number.isdigit():
                    held.setdefault(int(number), seat.name)
    return held


def line_form(game: Game, seat: Seat, data: Any = None) -> LineForm:
    """The form of ``seat``'s line: bound to ``data``, or to the line as last saved, or empty."""
    seats = list(game.seats.all())
    form_class = LINE_FORMS[game.kind]
    taken = held_cards(seats, seat) if game.kind == Game.Kind.COOPER_ISLAND else {}
    if data is None and seat.line:
        data = seat.line
    return form_class(data, players=len(seats), taken=taken, prefix=None)


@dataclass
class Assembled:
    """A sheet game's lines put together: the sheet document once every line is done and valid."""

    sheet: dict[str, Any] | None
    missing: list[Seat]
    """Lines not done yet, or done but no longer valid (their form says why)."""


def assemble(game: Game) -> Assembled:
    """The sheet document from the seats' lines, or what is missing."""
    seats = list(game.seats.all())
    players, extras, missing = [], {}, []
    for seat in seats:
        form = line_form(game, seat)
        if not seat.line_done or not form.is_valid():
            missing.append(seat)
            continue
        players.append({"name": seat.name, **form.entry()})
        extras.update(form.extras())
    if missing:
        return Assembled(None, missing)
    return Assembled({"format": FORMATS[RulesGame(game.kind)], "players": players, **extras}, [])


def tied_for_last_tile(sheet: dict[str, Any]) -> tuple[str, ...]:
    """The players among whom the last tile decides (Small Islands), or none."""
    if sheet["format"] != FORMATS[RulesGame.SMALL_ISLANDS] or "last_tile_by" in sheet or "alexis" in sheet:
        return ()
    return last_tile_candidates(parse_small_islands(sheet))


def review(sheet: dict[str, Any]) -> list[dict[str, object]]:
    """Every player's total and parts, by rank (``RulesError`` if the sheet is not valid)."""
    rows = [score.to_json() for score in score_sheet(sheet).players]
    return sorted(rows, key=lambda row: (int(str(row["rank"])), -int(str(row["total"]))))


def refused_line(error: RulesError, seats: Sequence[Seat]) -> Seat | None:
    """The line that an error of ``rules`` names, if it names one."""
    if error.where:
        return next((seat for seat in seats if seat.name == error.where[0]), None)
    return None


def sheet_lines(game: Game) -> None:
    """Each seat's line from the game's scored sheet (to correct it): every line done."""
    sheet = game.sheet or {}
    form_class = LINE_FORMS[game.kind]
    by_name = {player["name"]: player for player in sheet.get("players", [])}
    for seat in game.seats.all():
        player = by_name.get(seat.name)
        seat.line = form_class.values(player, sheet) if player else {}
        seat.line_done = player is not None
        seat.total = None
        seat.save(update_fields=["line", "line_done", "total"])
