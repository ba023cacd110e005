"""What a game page shows, from the replayed log: the scoreboard, the log, the table, the final scores."""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext

from rules import (
    Decider,
    GameState,
    NuggetLadder,
    ObjectiveScore,
    OkanaganResult,
    Options,
    PlayerScore,
    RecordError,
    Reward,
    Territory,
    explorer_sets,
    score_sheet,
)
from rules.components import BUILDINGS_PER_ROUND, OBJECTIVE_POINTS
from rules.okanagan import event_section
from rules.record import HoldingsEvent, ObjectivesEvent

from . import drafts
from .charts import stacked
from .entry import EVENT_KINDS, PROMO_KINDS
from .log import replay_game
from .models import SEAT_COLOURS, Game
from .phones import known_phone, my_seat
from .result_image import ImageLine, draw_result
from .statistics import OKANAGAN_PARTS
from .wording import LABELS, explain


@dataclass(frozen=True)
class BoardLine:
    """One player on the scoreboard: tokens by kind, nuggets, Explorer sets so far."""

    name: str
    rewards: tuple[tuple[Reward, int], ...]
    tokens: int
    nuggets: int
    explorer_sets: int
    objectives: int
    colour: str


@dataclass(frozen=True)
class LogEntry:
    """One event of the log with its explanation, in the reader's language."""

    index: int
    type: str
    title: str
    steps: tuple[tuple[str, str], ...]
    """Each step's text and the rule it cites."""
    player: str = ""
    """The player the event is about, if one (objective cards: whose they are)."""
    entered_for: str = ""
    """Objective cards entered on another phone: who entered them ("-": a phone that is nobody)."""


type Explained = tuple[str, tuple[tuple[str, str], ...]]
_EXPLAINED: OrderedDict[tuple[str, str | None], list[Explained]] = OrderedDict()
_EXPLAINED_KEPT = 32


def _explained_log(result: OkanaganResult, events: list[dict[str, object]]) -> list[Explained]:
    """Each event's title and steps in the reader's language. The same log is shown on every phone after each
    change, and polled: it is explained once per log and language in this process (the key is the log
    itself, never stale; the words are the same for every reader, secret cards are never in them)."""
    key = (json.dumps(events, sort_keys=True), get_language())
    if key in _EXPLAINED:
        _EXPLAINED.move_to_end(key)
        return _EXPLAINED[key]
    explained = []
    for outcome in result.state.log:
        section = event_section(outcome)
        explained.append((explain(section), tuple((explain(step), step.rule) for step in section.steps)))
    _EXPLAINED[key] = explained
    while len(_EXPLAINED) > _EXPLAINED_KEPT:
        _EXPLAINED.popitem(last=False)
    return explained


def game_context(request: HttpRequest, game: Game, *, member: bool, spectator: bool = False) -> dict[str, object]:
    """Everything the game page, the spectator page and their live fragments show."""
    rows = list(game.events.all())
    events = [row.data for row in rows]
    whole_log = wants_whole_log(request)
    me = None if spectator else my_seat(request, game)
    context: dict[str, object] = {
        "game": game,
        "member": member,
        "spectator": spectator,
        "can_enter": game.is_playing and not spectator,
        "revision": game.revision,
        "event_count": len(events),
        "me": me,
        "seats": game.seats.all(),
        "seats_held": any(seat.phone for seat in game.seats.all()),
        "owner": not spectator and game.group.owner_id == request.user.pk,
        "live_url": reverse("live", args=[game.spectator_token])
        + ("?view=watch" if spectator else "?view=game")
        + ("&log=all" if whole_log else ""),
        "poll_every": "1500ms" if game.is_playing else "10s",
        "etag": live_etag(game.pk, game.revision, game.activity, whole_log=whole_log),
        "whole_log": whole_log,
    }
    try:
        result = replay_game(game, events)
    except RecordError as error:  # only a database edited by hand gets here
        context["log_error"] = str(error)
        return context
    holdings = result.state.holdings
    log = [
        LogEntry(
            outcome.index,
            outcome.event.type,
            *explained,
            getattr(outcome.event, "player", ""),
            rows[outcome.index].entered_for,
        )
        for outcome, explained in zip(result.state.log, _explained_log(result, events), strict=True)
    ][::-1]
    counted = counted_players(result.state)
    board = [
        BoardLine(
            name=player,
            rewards=tuple((reward, count) for reward, count in holdings[player].rewards.items() if count),
            tokens=holdings[player].tokens,
            nuggets=holdings[player].nuggets,
            explorer_sets=explorer_sets(holdings[player].rewards),
            objectives=len(holdings[player].objectives),
            colour=SEAT_COLOURS[position % len(SEAT_COLOURS)],
        )
        for position, player in enumerate(result.state.players)
    ]
    context |= {
        "result": result,
        "board": board,
        "round": result.state.round,
        "option_lines": option_lines(result.state.options),
        "redraw_due": me is not None and redraw_due(result, me.name),
        "my_cards": len(holdings[me.name].objectives) if me is not None else 0,
        "round_one_buildings": list(BUILDINGS_PER_ROUND[len(result.state.players)][0].items()),
        "nuggets_left": result.state.nuggets_left,
        "counts": [{"name": line.name, "colour": line.colour, "counted": line.name in counted} for line in board],
        "my_count": me is not None and me.name in counted,
        "log": log,
        "log_shown": log if whole_log else log[:LOG_SHOWN],
        "log_more": 0 if whole_log else max(0, len(log) - LOG_SHOWN),
        # The grid of the other events; the final count has its own card ("Quick count").
        "event_kinds": [
            kind for kind in EVENT_KINDS if kind != "holdings" and (game.promos or kind not in PROMO_KINDS)
        ],
        "territories": list(Territory),
        "entering": drafts.entering(game, "" if spectator else known_phone(request)) if game.is_playing else [],
        "final": None if game.is_playing else final_context(result),
    }
    context["watch_url"] = request.build_absolute_uri(reverse("watch", args=[game.spectator_token]))
    if not game.is_playing:
        context["image_url"] = request.build_absolute_uri(reverse("result_image", args=[game.spectator_token]))
    if not spectator:
        context["join_url"] = request.build_absolute_uri(reverse("join_code", args=[game.table_code]))
    return context


def option_lines(options: Options) -> list[str]:
    """The game's options that differ from the printed game, in words (the scoreboard shows them)."""
    printed = Options()
    lines = []
    if options.reward_supply != printed.reward_supply:
        count = options.reward_supply
        lines.append(
            ngettext("%(count)d token of each kind", "%(count)d tokens of each kind", count) % {"count": count}
        )
    if options.nugget_supply != printed.nugget_supply:
        count = options.nugget_supply
        lines.append(ngettext("%(count)d nugget card", "%(count)d nugget cards", count) % {"count": count})
    if options.nugget_ladder is NuggetLadder.FEWEST_ZERO:
        lines.append(gettext("Fewest nuggets score 0"))
    return lines


def just_saved(context: dict[str, object], saved: str) -> LogEntry | None:
    """The log's last event if it is the one this phone has just saved (``saved``, its index, from the entry's
    redirect): the game page shows it first, with its explanation, Undo and Edit. Anything else (an index
    since undone, followed by another event, or not a number) shows nothing."""
    log = context.get("log")
    last = log[0] if isinstance(log, list) and log else None
    return last if isinstance(last, LogEntry) and str(last.index) == saved else None


def redraw_due(result: OkanaganResult, player: str) -> bool:
    """Whether ``player`` still has to enter the cards they keep after the end of round 1 (they draw 2
    and keep 3 of their 5): the round is over and no card of theirs was entered since."""
    ends = [outcome.index for outcome in result.state.log if outcome.event.type == "round_end"]
    return bool(ends) and not any(
        outcome.index > ends[0] and outcome.event.player == player
        for outcome in result.state.log
        if isinstance(outcome.event, ObjectivesEvent)
    )


def counted_players(state: GameState) -> set[str]:
    """The players whose final count (the quick count's ``holdings`` event) is in the log."""
    return {outcome.event.player for outcome in state.log if isinstance(outcome.event, HoldingsEvent)}


LOG_SHOWN = 10
"""The last events the game page shows (the whole log is one tap away): the page's cost, and how far a phone
scrolls, do not grow with the game."""


def wants_whole_log(request: HttpRequest) -> bool:
    """Whether the reader asked for the whole log (``?log=all``), not only its last :data:`LOG_SHOWN` events."""
    return request.GET.get("log") == "all"


def live_etag(game_id: int, revision: int, activity: int, *, whole_log: bool = False) -> str:
    """The live fragment's version: it changes with the log, with the table's activity (seats claimed,
    entries started or ended), with the reader's language and with how much of the log they see."""
    return f"{game_id}.{revision}.{activity}.{get_language()}{'.all' if whole_log else ''}"


@dataclass(frozen=True)
class FinalLine:
    """One player of the final result, in rank order: their score part by part and their seat's colour."""

    score: PlayerScore
    colour: str
    cards: tuple[tuple[ObjectiveScore, int], ...]
    """Each objective card scored, with the VP a set of it is worth."""


def final_lines(result: OkanaganResult) -> list[FinalLine]:
    """Each player from first place to last, with their seat's colour and their cards' value per set."""
    seats = {player: SEAT_COLOURS[position % len(SEAT_COLOURS)] for position, player in enumerate(result.state.players)}
    return [
        FinalLine(
            score,
            seats[score.name],
            tuple((objective, OBJECTIVE_POINTS[objective.card.kind]) for objective in score.objectives),
        )
        for score in result.final.by_rank
    ]


def final_context(result: OkanaganResult) -> dict[str, object]:
    """The final result: the players by rank (each part, their objective cards, Explorer sets and place on the
    nugget ladder), the winners, what decided, the final scoring's explanation and a chart."""
    final = result.final
    by_rank = final.by_rank
    chart = stacked(
        gettext("Score breakdown"),
        [(score.name, [getattr(score, part) for part in OKANAGAN_PARTS]) for score in by_rank],
        [str(LABELS[f"component:{part}"]) for part in OKANAGAN_PARTS],
    )
    section = result.sections[-1]
    return {
        "players": by_rank,
        "lines": final_lines(result),
        "winners": final.winners,
        "decided_by": final.decided_by.value,
        "decider": explain(section.steps[-1]) if section.steps else "",
        "section": section,
        "chart": chart,
    }


def winners_line(winners: tuple[str, ...]) -> str:
    """The winners' line ("Winner: Ann", "Shared win: Ann, Ben") in the reader's language."""
    return ngettext("Winner: %(names)s", "Shared win: %(names)s", len(winners)) % {"names": ", ".join(winners)}


def result_png(result: OkanaganResult, game: Game) -> bytes:
    """The result as a PNG for a chat's link preview: the winners, what decided, each player by rank."""
    lines = [
        ImageLine(
            line.score.rank,
            line.score.name,
            line.colour,
            ngettext("%(points)d VP", "%(points)d VP", line.score.total) % {"points": line.score.total},
            " · ".join(f"{LABELS[f'component:{part}']} {getattr(line.score, part)}" for part in OKANAGAN_PARTS),
        )
        for line in final_lines(result)
    ]
    title = f"Okanagan · {game.finished or game.created:%Y-%m-%d}"
    steps = result.sections[-1].steps
    decider = explain(steps[-1]) if result.final.decided_by is not Decider.POINTS and steps else ""
    return draw_result(title, winners_line(result.final.winners), decider, lines, get_language() or "en")


def sheet_context(game: Game) -> dict[str, object]:
    """A Small Islands or Cooper Island game: each component per player from first place to last (players who
    share a place in sheet order), the winners, the explanation."""
    result = score_sheet(game.sheet)
    rows = [score.to_json() for score in sorted(result.players, key=lambda score: score.rank)]
    columns = [key for key in rows[0] if key not in {"name", "total", "rank"}] if rows else []
    chart = stacked(
        gettext("Score breakdown"),
        [(str(row["name"]), [int(str(row[column])) for column in columns]) for row in rows],
        [str(LABELS.get(f"component:{column}", column)) for column in columns],
    )
    return {
        "game": game,
        "result": result,
        "rows": rows,
        "columns": columns,
        "section": result.sections[0],
        "chart": chart,
    }
