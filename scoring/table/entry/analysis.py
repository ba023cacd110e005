"""Analysing a draft against the game as it is now: the first stage still to do, what ``rules`` allows
there; a stage that no longer holds after another phone's change is to do again, with the reason."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules import (
    GameState,
    Question,
    RecordError,
    Reward,
    RulesError,
    SpecialActionKind,
    SpecialActionOptions,
    TerritoryAnswer,
    answer_territory,
    apply_event,
    check_entered,
    exchange_options,
    parse_event,
    parse_territory_so_far,
    special_action_options,
    territory_room,
)
from rules.record import Bag, bag_to_json, parse_bag
from scoring.table.entry.draft import Draft
from scoring.table.entry.screen import Screen
from scoring.table.entry.stages import COUNTER_STAGES, STAGE_FIELDS, BadOp


def analyse(draft: Draft, state: GameState, index: int) -> Screen:
    """Find the first stage still to do, asking ``rules`` what is legal; errors go in ``error``.

    A stage done that no longer holds (the game changed under the draft) is made to do again, in the draft
    itself: its choice is dropped (a counter stage keeps its counts, a collector their tokens still in the
    pool), every other stage keeps its data, and the screen shows that stage with the reason.
    """
    screen = Screen(draft, state.players)
    try:
        return _ANALYSERS[screen.stages[0]](screen, state, index)
    except (RulesError, BadOp) as error:
        message = error.message if isinstance(error, RulesError) else str(error)
        stage = _stage_of_error(screen, error.where if isinstance(error, RulesError) else ())
        if _redo(draft, stage):
            again = analyse(draft, state, index)  # each round drops something: it ends
            again.error, again.repaired = again.error or message, True
            return again
        screen.error = message
        screen.passed = screen.passed[: screen.passed.index(stage)] if stage in screen.passed else screen.passed
        return screen.at(stage)


def _redo(draft: Draft, stage: str) -> bool:
    """Make ``stage`` of ``draft`` to do again (a counter stage keeps its counts); whether anything changed."""
    dropped = [] if stage in COUNTER_STAGES else [key for key in STAGE_FIELDS.get(stage, ()) if key in draft.event]
    for key in dropped:
        del draft.event[key]
    was_done = stage in draft.done
    draft.done = [name for name in draft.done if name != stage]
    if stage == "picks" and (dropped or was_done):
        draft.partial = {}
    return bool(dropped) or was_done


def _stage_of_error(screen: Screen, where: tuple[str, ...]) -> str:
    """The stage to show an error at: the one that fills the field named, else the first not passed."""
    owners = {key: stage for stage in screen.stages for key in STAGE_FIELDS.get(stage, ())}
    named = [owners[part] for part in where if part in owners]
    if named:
        return named[0]
    return next(stage for stage in screen.stages if stage not in screen.passed)


def _territory(screen: Screen, state: GameState, index: int) -> Screen:
    """The territory's stages from what ``rules`` answers about it as entered so far
    (:func:`rules.answer_territory`): the board until it is done, then the next question."""
    draft, players = screen.draft, screen.players
    event = draft.event
    if "territory" not in event:
        return screen.at("territory")
    screen.passed.append("territory")
    screen.room = {player: territory_room(state, player) for player in players}
    screen.round = state.round
    so_far = parse_territory_so_far(players, event, action="action" in draft.done)
    on_board = "board" not in draft.done or so_far.closed_by is None
    picking = parse_bag(draft.partial, ("picks",)) if draft.partial else {}
    answer = answer_territory(
        state,
        so_far,
        on_board=on_board,
        chosen=tuple(draft.chosen),
        action_answered="action" in draft.done,
        picking=picking,
    )
    screen.report = answer.report  # shown live while the buildings are entered
    screen.tie, screen.recipient = answer.tie, answer.recipient
    if answer.options is not None:
        _offer_action(screen, state, answer.options)
    if on_board:  # the resolution's first question is asked on the board: answering it ends the board
        return screen.at("board")
    screen.passed.append("board")
    if answer.plan is not None:
        _keep_picks(draft, answer, so_far.picks, picking)
    if answer.dropped is not None:
        screen.error, screen.repaired = answer.dropped.message, True
    screen.collecting = [
        (
            turn.player,
            turn.may_take,
            {reward.value: count for reward, count in answer.picks.get(turn.player, {}).items()},
        )
        for turn in answer.turns
    ]
    screen.passed += [_STAGE_OF[question] for question in answer.answered]
    if answer.question is Question.NONE:
        return _confirm(screen, state, index)
    screen.turn, screen.allowed = answer.turn, dict(answer.allowed)
    return screen.at(_STAGE_OF[answer.question])


_STAGE_OF = {
    Question.BOARD: "board",
    Question.ORDER: "order",
    Question.LONE: "lone",
    Question.ACTION: "action",
    Question.PICKS: "picks",
}
"""The stage of the entry that asks each question of a territory."""


def _keep_picks(draft: Draft, answer: TerritoryAnswer, picks: Mapping[str, Bag], picking: Bag) -> None:
    """The draft's ``picks`` and current taps (``picking``) become those that hold, with the picks ``rules``
    filled in (see :attr:`rules.TerritoryAnswer.picks`)."""
    if dict(answer.picks) != dict(picks):
        draft.event["picks"] = {player: bag_to_json(bag) for player, bag in answer.picks.items()}
    if dict(answer.picking) != dict(picking):
        draft.partial = bag_to_json(answer.picking)


def _confirm(screen: Screen, state: GameState, index: int) -> Screen:
    screen.at("confirm")
    screen.preview = apply_event(state.copy(), parse_event(screen.players, screen.event, index), index)
    return screen


def _plain(screen: Screen, state: GameState, index: int) -> Screen:
    """The stages of an event that is a player's, then one stage (:data:`_STAGE_OPTIONS`), then confirm."""
    if "player" not in screen.event:
        return screen.at("player")
    screen.passed.append("player")
    stage = screen.stages[1]
    done = stage in (screen.event if stage in _ONE_TAP else screen.draft.done)
    event = screen.event
    if stage == "action" and not done:  # the special action being chosen is checked once complete
        event = {key: value for key, value in event.items() if key != "special_action"}
    check_entered(screen.players, event, index)  # the player, the counts and the cards so far
    if not done:
        options = _STAGE_OPTIONS.get(stage)
        if options is not None:
            options(screen, state)
        return screen.at(stage)
    screen.passed.append(stage)
    return _confirm(screen, state, index)


_ONE_TAP = {"reward"}
"""The stages their one tap answers (their field entered is the stage done)."""


def _own_action_options(screen: Screen, state: GameState) -> None:
    """The special-action choices of the event's player, outside a territory (they collect nothing)."""
    screen.recipient = screen.event["player"]
    _offer_action(screen, state, special_action_options(state, screen.event["player"], collects=False))


def _offer_action(screen: Screen, state: GameState, options: SpecialActionOptions) -> None:
    """The special-action choices ``rules`` offers; for an exchange under way, its next swap's, after the
    swaps made so far (a swap that does not hold is an error, shown in place)."""
    screen.options = options
    player = options.player
    action = screen.event.get("special_action", {})
    if screen.action_kind in _EXCHANGES:
        swaps = tuple((Reward(given), Reward(taken)) for given, taken in action.get("swaps", []))
        try:
            screen.next_swaps = exchange_options(state, player, SpecialActionKind(screen.action_kind), swaps)
        except RecordError as error:
            screen.error = error.message


_EXCHANGES = {SpecialActionKind.EXCHANGE_SHAPE.value, SpecialActionKind.EXCHANGE_COLOUR.value}


def _supply(screen: Screen, state: GameState) -> None:
    screen.allowed = state.available_bag()


def _count_so_far(screen: Screen, state: GameState) -> None:
    """A player's count is checked against the game at each tap (``rules`` says when the players' counts
    of a kind, or of nuggets, would be more than the game has): the tap that breaks it is refused."""
    apply_event(state.copy(), parse_event(screen.players, screen.event, len(state.log)), len(state.log))


_STAGE_OPTIONS: dict[str, Callable[[Screen, GameState], None]] = {
    "action": _own_action_options,
    "reward": _supply,
    "count": _count_so_far,
}
"""What ``rules`` offers at a stage of a player's event, checked at each tap."""

type Analyser = Callable[[Screen, GameState, int], Screen]

_ANALYSERS: dict[str, Analyser] = {"territory": _territory, "player": _plain, "confirm": _confirm}
"""The analysis of an event by the first stage of its kind (:data:`scoring.kinds.KINDS`)."""
