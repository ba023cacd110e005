"""A finished game's result as its pages show it: each player by rank with their parts and seat colour, the
winners as stored, what decided, the chart; a finished score sheet's page; the links to share it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext

from rules import (
    Decider,
    ObjectiveScore,
    OkanaganResult,
    PlayerScore,
    score_sheet,
)
from rules.components import OBJECTIVE_POINTS
from rules.sheets import SheetResult
from scoring.access import may_log_play
from scoring.history.charts import stacked
from scoring.history.statistics import OKANAGAN_PARTS
from scoring.models import SEAT_COLOURS, Game
from scoring.results.bgstats import card, play_of
from scoring.standings import stored_result, winner_sentence
from scoring.wording import PARTS, explain


def result_links(request: HttpRequest, game: Game) -> dict[str, str]:
    """The spectator link (the public result page once the game is over) and, once over, the result image."""
    links = {"watch_url": request.build_absolute_uri(reverse("watch", args=[game.spectator_token]))}
    if not game.is_playing:
        links["image_url"] = request.build_absolute_uri(reverse("result_image", args=[game.spectator_token]))
    return links


@dataclass(frozen=True)
class FinalLine:
    """One player of the final result, in rank order: their score part by part and their seat's colour."""

    score: PlayerScore
    colour: str
    cards: tuple[tuple[ObjectiveScore, int], ...]
    """Each objective card scored, with the VP a set of it is worth."""


def seat_colours(players: Sequence[str]) -> dict[str, str]:
    """Each player's seat colour, from their place in seat (or sheet) order."""
    return {player: SEAT_COLOURS[position % len(SEAT_COLOURS)] for position, player in enumerate(players)}


def final_lines(result: OkanaganResult) -> list[FinalLine]:
    """Each player from first place to last, with their seat's colour and their cards' value per set."""
    seats = seat_colours(result.state.players)
    return [
        FinalLine(
            score,
            seats[score.name],
            tuple((objective, OBJECTIVE_POINTS[objective.card.kind]) for objective in score.objectives),
        )
        for score in result.final.by_rank
    ]


def final_context(game: Game, result: OkanaganResult) -> dict[str, object]:
    """The final result: each player's place, parts and total, and the winners, as stored (:mod:`scoring.standings`)
    with a chart of them; what decided, and from the game's state what the store does not keep (each player's
    objective cards, Explorer sets and place on the nugget ladder) and the final scoring's explanation."""
    stored = stored_result(game)
    by_rank = stored.by_rank if stored is not None else ()
    chart = stacked(
        gettext("Score breakdown"),
        [(player.name, [player.points.get(part, 0) for part in OKANAGAN_PARTS]) for player in by_rank],
        [str(PARTS[part]) for part in OKANAGAN_PARTS],
    )
    return {
        "players": by_rank,
        "lines": final_lines(result),
        "winner_sentence": winner_sentence(game.winners),
        "decided_by": result.final.decided_by.value,
        "decider": okanagan_decider(result),
        "section": result.sections[-1],
        "chart": chart,
    }


def bgstats_context(request: HttpRequest, game: Game, *, member: bool) -> dict[str, object]:
    """The BG Stats card of a finished game's page (``bgstats``), for who may log the play
    (:func:`~scoring.access.may_log_play`); ``None`` for anyone else, or a game whose result is not stored."""
    stored = stored_result(game) if may_log_play(request, game, member=member) else None
    return {"bgstats": None if stored is None else card(play_of(game, stored))}


def okanagan_decider(result: OkanaganResult) -> str:
    """The tie-break that decided the winner, in words; empty when the most VP did."""
    steps = result.sections[-1].steps
    return explain(steps[-1]) if result.final.decided_by is not Decider.POINTS and steps else ""


def sheet_decider(result: SheetResult) -> str:
    """The tie-break that decided the first place of a sheet, in words; empty when the most points did."""
    return "" if result.decider is None else explain(result.decider)


def sheet_context(game: Game) -> dict[str, object]:
    """A finished Small Islands or Cooper Island game, or an imported play of any of the three games: ``final``,
    each component per player from first place to last (players who share a place in sheet order) and the winners
    as stored (:mod:`scoring.standings`); what decided and the explanation from the sheet, if it has one (an
    imported play has its totals and ranks only: its chart is of the totals)."""
    result = None if game.imported else score_sheet(game.sheet)
    stored = stored_result(game)
    rows = [player.to_json() for player in stored.by_rank] if stored is not None else []
    columns = [key for key in rows[0] if key not in {"name", "total", "rank"}] if rows else []
    shown = columns or ["total"]
    chart = stacked(
        gettext("Score breakdown") if columns else gettext("Total"),
        [(str(row["name"]), [int(str(row[column])) for column in shown]) for row in rows],
        [str(PARTS[column]) if columns else gettext("Total") for column in shown],
    )
    final = {
        "rows": rows,
        "columns": columns,
        "winner_sentence": winner_sentence(game.winners),  # as stored
        "decider": "" if result is None else sheet_decider(result),
        "section": None if result is None else result.sections[0],
        "chart": chart,
    }
    return {"game": game, "final": final}
