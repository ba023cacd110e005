"""Analysing a draft against the game as it is now: the first stage still to do, what ``rules`` allows
there; a stage that no longer holds after another phone's change is to do again, with the reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import (
    CollectionPlan,
    CollectionTurn,
    EventType,
    GameState,
    RecordError,
    Reward,
    RulesError,
    SpecialActionKind,
    apply_event,
    assess_influence,
    check_buildings_counted,
    check_territory_buildings,
    exchange_options,
    parse_event,
    prepare_collection,
    special_action_options,
    special_action_recipient,
    territory_room,
)
from rules.record import Bag, TerritoryEvent, parse_bag

from .draft import Draft
from .screen import Screen
from .stages import COUNTER_STAGES, STAGE_FIELDS, BadOp


def analyse(draft: Draft, state: GameState, index: int) -> Screen:
    """Find the first stage still to do, asking ``rules`` what is legal; errors go in ``error``.

    A stage done that no longer holds (the game changed under the draft) is made to do again, in the draft
    itself: its choice is dropped (a counter stage keeps its counts, a collector their tokens still in the
    pool), every other stage keeps its data, and the screen shows that stage with the reason.
    """
    screen = Screen(draft, state.players)
    try:
        return _ANALYSERS[draft.kind](screen, state, index)
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
    draft, players = screen.draft, screen.players
    event = draft.event
    if "territory" not in event:
        return screen.at("territory")
    screen.passed.append("territory")
    screen.room = {player: territory_room(state, player) for player in players}
    screen.round = state.round
    base = {key: value for key, value in event.items() if key not in {"special_action", "picks"}}
    # The counts so far are checked by the record parser (the closer is not known yet: any player will do).
    parsed = _territory_event(players, {"closed_by": players[0]} | base, index)
    # A building tapped beyond what the player's buildings can be counted in over the game is refused here, and
    # in round 1 more around this territory than round 1 gives (the end of round 1 is one tap: it comes first).
    check_buildings_counted(state, parsed.buildings)
    check_territory_buildings(state, parsed.buildings)
    report = assess_influence(players, parsed.territory, parsed.closed_by, parsed.buildings)
    screen.report = report  # shown live while the buildings are entered
    if "board" not in draft.done or "closed_by" not in event:
        # The resolution's first question is asked on the board: answering it ends the board.
        if report.ties:
            screen.tie = report.tie_order(())
        elif len(report.influence) > 1:
            order, _steps = report.check_order(None)
            screen.recipient, _steps = special_action_recipient(report, order, None)
            _offer_action(screen, state, screen.recipient or "", collects=True)
        elif report.lone is not None:  # a lone player's action, tapped on the board, is their choice too
            _offer_action(screen, state, report.lone, collects=False)
        return screen.at("board")
    screen.passed.append("board")
    if report.ties:
        if "order" not in event:
            screen.tie = report.tie_order(draft.chosen)
            return screen.at("order")
        screen.passed.append("order")
    order, _steps = report.check_order(parsed.order) if report.influence else ((), ())
    if report.lone is not None:
        if "lone_choice" not in event:
            _offer_action(screen, state, report.lone, collects=False)
            return screen.at("lone")
        screen.passed.append("lone")
    recipient, _steps = special_action_recipient(report, order, parsed.lone_choice)
    screen.recipient = recipient
    if recipient is not None:
        if "action" not in draft.done:
            _offer_action(screen, state, recipient, collects=report.lone is None)
            return screen.at("action")
        screen.passed.append("action")
    action = {"special_action": event["special_action"]} if event.get("special_action") else {}
    prepared = prepare_collection(state.copy(), _territory_event(players, base | action, index))
    picks = {player: parse_bag(bag, ("picks", player)) for player, bag in event.get("picks", {}).items()}
    turn, wrong = _settle_picks(draft, prepared.plan, picks)
    if wrong is not None:
        screen.error, screen.repaired = wrong.message, True
    screen.collecting = [
        (turn.player, turn.may_take, {reward.value: count for reward, count in picks.get(turn.player, {}).items()})
        for turn in prepared.plan.turns(picks)
    ]
    if turn is not None:
        screen.turn = turn
        screen.allowed = turn.still_allowed(parse_bag(draft.partial, ("picks", turn.player)) if draft.partial else {})
        return screen.at("picks")
    if prepared.plan.collectors:
        screen.passed.append("picks")
    return _confirm(screen, state, index)


def _settle_picks(
    draft: Draft, plan: CollectionPlan, picks: dict[str, dict[Reward, int]]
) -> tuple[CollectionTurn | None, RulesError | None]:
    """Fill in every pick that leaves nothing to choose (``rules`` says when: :meth:`CollectionTurn.settled`),
    the current collector's included once their taps decide it, each time making the picks entered hold
    (:func:`_hold_picks`); the turn still to pick, if any, and the first pick that did not hold."""
    wrong: RulesError | None = None
    while True:
        held = _hold_picks(draft, plan, picks)
        wrong = wrong or held
        turn = plan.next_turn(picks)
        partial = parse_bag(draft.partial, ("picks", turn.player)) if turn is not None and draft.partial else {}
        pick = turn.settled(partial) if turn is not None else None
        if turn is None or pick is None:
            return turn, wrong
        picks[turn.player] = pick
        draft.event.setdefault("picks", {})[turn.player] = {
            reward.value: pick[reward] for reward in Reward if pick.get(reward)
        }
        draft.partial = {}


def _hold_picks(draft: Draft, plan: CollectionPlan, picks: dict[str, dict[Reward, int]]) -> RulesError | None:
    """Make the collectors' picks hold against ``plan``, whose pool may have shrunk since they were entered
    (another phone's save took from the supply); the error of the first pick that did not hold, if any.

    That collector picks again, starting from what of their pick the pool still holds; the later picks stay,
    checked in their turn. If the pool is empty by then, nobody from that collector on takes anything. The
    picks after a collector who has not picked yet wait: they are checked once that collector has picked.
    """
    event_picks: dict[str, Any] = draft.event.get("picks", {})
    for number, (player, _influence) in enumerate(plan.collectors):
        if player not in picks:  # the later picks are checked once this collector has picked
            return None
        earlier = {name: picks[name] for name, _ in plan.collectors[:number]}
        turn = plan.turns(earlier)[-1]
        try:
            plan.turns(earlier | {player: picks[player]})
        except RecordError as error:
            if turn.may_take:
                kept = _still_in_pool(picks.pop(player), turn)
                draft.partial = {reward.value: count for reward, count in kept.items()}
                event_picks.pop(player)
            else:
                for name, _ in plan.collectors[number:]:
                    picks.pop(name, None)
                    event_picks.pop(name, None)
            return error
    return None


def _still_in_pool(pick: Bag, turn: CollectionTurn) -> Bag:
    """What of ``pick`` the collector may still take on ``turn``: each kind as far as the pool holds it, in
    all no more than they may take."""
    kept: dict[Reward, int] = {}
    room = turn.may_take
    for reward, count in pick.items():
        count = min(count, turn.left.get(reward, 0), room)
        if count:
            kept[reward], room = count, room - count
    return kept


def _territory_event(players: tuple[str, ...], value: dict[str, Any], index: int) -> TerritoryEvent:
    event = parse_event(players, value, index)
    assert isinstance(event, TerritoryEvent)
    return event


def _confirm(screen: Screen, state: GameState, index: int) -> Screen:
    screen.at("confirm")
    screen.preview = apply_event(state.copy(), parse_event(screen.players, screen.event, index), index)
    return screen


def _then(
    stage: str, done: Callable[[Screen], bool], prepare: Callable[[Screen, GameState], None] | None = None
) -> Analyser:
    """An analyser for events of plain stages: a player first, then ``stage`` until ``done``, then confirm."""

    def analyse_stages(screen: Screen, state: GameState, index: int) -> Screen:
        if "player" not in screen.event:
            return screen.at("player")
        screen.passed.append("player")
        checked = _PLACEHOLDERS.get(screen.draft.kind, {}) | screen.event
        if stage == "action" and not done(screen):
            checked["special_action"] = _PLACEHOLDERS[EventType.VOLCANO]["special_action"]  # checked once complete
        parse_event(screen.players, checked, index)  # the player, the counts and the cards so far
        if not done(screen):
            if prepare is not None:
                prepare(screen, state)
            return screen.at(stage)
        screen.passed.append(stage)
        return _confirm(screen, state, index)

    return analyse_stages


# What an event of each kind needs before its stage is done, to check the rest meanwhile.
_PLACEHOLDERS: dict[str, dict[str, Any]] = {
    EventType.VOLCANO: {"special_action": {"action": SpecialActionKind.NEW_TILES}},
    EventType.BEAVER_DAM: {"reward": Reward.GREEN_SQUARE.value},
    EventType.OBJECTIVES: {"cards": []},
    EventType.HOLDINGS: {"rewards": {}, "nuggets": 0},
}


def _volcano_options(screen: Screen, state: GameState) -> None:
    screen.recipient = screen.event["player"]
    _offer_action(screen, state, screen.event["player"], collects=False)


def _offer_action(screen: Screen, state: GameState, player: str, *, collects: bool) -> None:
    """The special-action choices of ``player``; for an exchange under way, its next swap's, after the swaps
    made so far (a swap that does not hold is an error, shown in place)."""
    screen.options = special_action_options(state, player, collects=collects)
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
    event = _PLACEHOLDERS[EventType.HOLDINGS] | screen.event
    apply_event(state.copy(), parse_event(screen.players, event, len(state.log)), len(state.log))


type Analyser = Callable[[Screen, GameState, int], Screen]

_ANALYSERS: dict[str, Analyser] = {
    EventType.TERRITORY: _territory,
    EventType.VOLCANO: _then("action", lambda screen: "action" in screen.draft.done, _volcano_options),
    EventType.BEAVER_DAM: _then("reward", lambda screen: "reward" in screen.event, _supply),
    EventType.OBJECTIVES: _then("cards", lambda screen: "cards" in screen.draft.done),
    EventType.ROUND_END: _confirm,
    EventType.ADJUST: _then("changes", lambda screen: "changes" in screen.draft.done),
    EventType.HOLDINGS: _then("count", lambda screen: "count" in screen.draft.done, _count_so_far),
}
