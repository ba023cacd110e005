"""The tap language: each tap is an *op* (the pressed button's value, e.g. ``add:rewards:green-circle:1``)
that changes the draft; a tap that makes the draft illegal is undone and its error shown."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rules import (
    Building,
    GameState,
    ObjectiveKind,
    Reward,
    RulesError,
    SpecialActionKind,
    Territory,
    apply_special_action,
    normal_text,
    note_problem,
    parse_special_action,
)
from scoring.http import posted_whole
from scoring.wording import say

from .analysis import analyse
from .draft import Draft
from .screen import Screen
from .stages import COUNTER_STAGES, MAX_COUNT, STAGE_FIELDS, BadOp


def tap(screen: Screen, op: str, form: dict[str, str], state: GameState, index: int) -> Screen:
    """Apply the tap ``op`` (with the other fields of the ``form``) and analyse the new draft.

    If the tap makes the draft illegal, the draft stays as it was and the error is shown. If it makes a stage
    already done no longer hold (a later collector's pick, a confirmed step the event as a whole refuses), that
    stage is to do again, with the error (see :func:`analyse`): going back would offer the same tap again.
    """
    before = screen.draft.copy()
    try:
        _apply_op(screen, op, form)
    except BadOp as error:
        return _with_error(analyse(before, state, index), str(error), form)
    after = analyse(screen.draft, state, index)
    try:
        if not after.error and after.stage == "action" and _action_complete(after, state):
            after.draft.done.append("action")
            after = analyse(after.draft, state, index)
    except RulesError as error:
        after.error = error.message
    if after.error and not after.repaired:
        return _with_error(analyse(before, state, index), after.error, form)
    return after


def _with_error(screen: Screen, error: str, form: dict[str, str]) -> Screen:
    screen.error, screen.typed_note = error, form.get("note", "")
    return screen


def _apply_op(screen: Screen, op: str, form: dict[str, str]) -> None:
    draft = screen.draft
    event = draft.event
    verb, _sep, rest = op.partition(":")
    args = rest.split(":") if rest else []
    match verb, args:
        case "reopen", [stage] if stage in screen.stages and stage != "confirm":
            _reopen(draft, stage)
        case "done", [stage] if stage in screen.stages:
            _mark_done(screen, stage, form)
        case "set", ["territory", value]:
            event["territory"] = _choice(value, Territory)
            event.setdefault("rewards", {})
            event.setdefault("buildings", {})
        case "set", ["closed_by" | "player" as key, value]:
            event[key] = _player(screen, value)
        case "set", ["lone_choice", "special_action" | "rewards" as value]:
            event["lone_choice"] = value
        case "set", ["reward", value]:
            event["reward"] = _choice(value, Reward)
        case "add", ["rewards", reward, step]:
            _add(event.setdefault("rewards", {}), _choice(reward, Reward), _step(step), signed=draft.kind == "adjust")
        case "add", ["nuggets", step]:
            event["nuggets"] = _bounded(event.get("nuggets", 0) + _step(step), signed=True)
        case "add", ["buildings", player, building, step]:
            name = _player(screen, player)
            counts = event.setdefault("buildings", {}).setdefault(name, {})
            _add(counts, _choice(building, Building), _step(step), signed=False)
            if not counts:
                del event["buildings"][name]
        case "order", []:
            _choose_order(screen, form)
        case "action", ["none"]:
            event.pop("special_action", None)
            draft.done.append("action")
        case "action", [kind]:
            event["special_action"] = {"action": _choice(kind, SpecialActionKind)}
        case "detail", [key, value]:
            _detail(screen, key, value)
        case "pick", [reward, step]:
            if _step(step) > 0 and not screen.allowed.get(Reward(_choice(reward, Reward))):
                player = screen.turn.player if screen.turn else ""
                raise BadOp(_("%(player)s may not take another of these.") % {"player": player})
            _add(draft.partial, _choice(reward, Reward), _step(step), signed=False)
        case "card", ["kind", kind]:
            draft.card, draft.partial = _choice(kind, ObjectiveKind), {}
        case "card", ["toggle", reward]:
            key = _choice(reward, Reward)
            if draft.partial.pop(key, None) is None:
                draft.partial[key] = 1
        case "card", ["add"] if draft.card:
            rewards = [reward.value for reward in Reward if reward.value in draft.partial]
            event.setdefault("cards", []).append({"kind": draft.card, "rewards": rewards})
            draft.card, draft.partial = "", {}
        case "card", ["remove", number] if 0 <= posted_whole(number) < len(event.get("cards", [])):
            del event["cards"][int(number)]
        case _:
            raise BadOp(_("That button is out of date; here is the current step."))


def _reopen(draft: Draft, stage: str) -> None:
    """Go back to ``stage`` ("Change"): only it is to do again. Every later step keeps its data and stays
    done while it still holds once the stage is done again; one that no longer holds is made to do again
    with the reason (:func:`scoring.entry.analysis.analyse`). A counter stage keeps its counts."""
    if stage not in COUNTER_STAGES:
        for key in STAGE_FIELDS.get(stage, ()):
            draft.event.pop(key, None)
    draft.done = [name for name in draft.done if name != stage]
    draft.partial, draft.card = {}, ""


def _mark_done(screen: Screen, stage: str, form: dict[str, str]) -> None:
    draft = screen.draft
    if stage == "picks":
        turn = screen.turn
        if turn is None or sum(draft.partial.values()) != turn.may_take:
            raise BadOp(_("Take exactly the tokens allowed first."))
        draft.event.setdefault("picks", {})[turn.player] = dict(draft.partial)
        draft.partial = {}
        return
    if stage == "changes":
        note = normal_text(form.get("note", ""))
        problem = note_problem(note)
        if problem is not None:
            raise BadOp(_("The note %(problem)s.") % {"problem": say(problem)})
        if note:
            draft.event["note"] = note
        else:
            draft.event.pop("note", None)
        # A correction that changes no count is a valid record event (a note for the log, or nothing).
    if stage == "action" and "special_action" not in draft.event:
        raise BadOp(_("Choose an action first."))
    if stage == "cards":
        draft.event.setdefault("cards", [])  # no card kept is a choice too
    draft.done.append(stage)


def _choose_order(screen: Screen, form: dict[str, str]) -> None:
    report = screen.report
    if report is None or not report.ties:
        raise BadOp(_("Nobody ties here."))
    chosen: dict[str, int] = {}
    for number, orders in enumerate(screen.ties):
        picked = posted_whole(form.get(f"tie_{number}", "0"), 0)
        match = orders[picked] if picked < len(orders) else orders[0]
        chosen |= {player: position for position, player in enumerate(match)}
    screen.event["order"] = sorted(
        report.default_order, key=lambda player: (-report.influence[player], chosen.get(player, 0))
    )


def _detail(screen: Screen, key: str, value: str) -> None:
    action = screen.event.get("special_action")
    if not isinstance(action, dict):
        raise BadOp(_("Choose an action first."))
    kind = action.get("action")
    if key == "reward":
        reward = Reward(_choice(value, Reward))
        action["reward"] = reward.value
        if kind == SpecialActionKind.REWARD_OF_SHAPE:
            action["shape"] = reward.shape.value
    elif key in {"with", "give", "get"} and kind == SpecialActionKind.TRADE:
        action[key] = _player(screen, value) if key == "with" else _choice(value, Reward)
        if key == "with":
            action.pop("get", None)
    elif key == "gift" and kind == SpecialActionKind.GIFTS:
        giver, _sep, gift = value.partition("=")
        action.setdefault("from", {})[_player(screen, giver)] = _choice(gift, Reward)
    elif key == "swap" and kind in {SpecialActionKind.EXCHANGE_SHAPE, SpecialActionKind.EXCHANGE_COLOUR}:
        given, _sep, taken = value.partition(">")
        swaps = action.setdefault("swaps", [])
        if len(swaps) >= 2:
            raise BadOp(_("An exchange makes at most 2 swaps."))
        swaps.append([_choice(given, Reward), _choice(taken, Reward)])
    elif key == "clear":
        action.pop("swaps", None)
    else:
        raise BadOp(_("That button is out of date; here is the current step."))


def _action_complete(screen: Screen, state: GameState) -> bool:
    """Whether the chosen action needs no more taps and ``rules`` accepts it."""
    action = screen.event.get("special_action")
    if screen.recipient is None or not isinstance(action, dict):
        return False
    kind = SpecialActionKind(action["action"])
    holders = screen.options.holders if screen.options else {}
    if kind is SpecialActionKind.GIFTS and set(action.get("from", {})) != set(holders):
        return False
    if kind is SpecialActionKind.TRADE and not {"with", "give", "get"} <= set(action):
        return False
    exchange = kind in {SpecialActionKind.EXCHANGE_SHAPE, SpecialActionKind.EXCHANGE_COLOUR}
    if exchange and len(action.get("swaps", [])) < 2:
        return False
    if kind in {SpecialActionKind.REWARD_OF_SHAPE, SpecialActionKind.TWO_REWARDS} and "reward" not in action:
        return False
    if kind is SpecialActionKind.GIFTS:
        action.setdefault("from", {})
    parsed = parse_special_action(screen.players, action)
    apply_special_action(state.copy(), screen.recipient, parsed, in_territory=screen.draft.kind == "territory")
    return True


def _choice(value: str, kind: type[Any]) -> str:
    if value not in kind._value2member_map_:
        raise BadOp(_("That button is out of date; here is the current step."))
    return value


def _player(screen: Screen, seat: str) -> str:
    """The player at ``seat`` (buttons name players by seat: a name may hold any character)."""
    number = posted_whole(seat)
    if not 0 <= number < len(screen.players):
        raise BadOp(_("That button is out of date; here is the current step."))
    return screen.players[number]


def _step(value: str) -> int:
    if value not in {"1", "-1"}:
        raise BadOp(_("That button is out of date; here is the current step."))
    return int(value)


def _bounded(count: int, *, signed: bool) -> int:
    if count > MAX_COUNT or count < (-MAX_COUNT if signed else 0):
        raise BadOp(_("That count is out of range."))
    return count


def _add(counts: dict[str, int], key: str, step: int, *, signed: bool) -> None:
    """Add ``step`` to a counter; counters stay in the record's order of kinds (as shown on screen)."""
    count = _bounded(counts.get(key, 0) + step, signed=signed)
    counts[key] = count
    ordered = {name: counts[name] for name in _ORDER if counts.get(name)}
    counts.clear()
    counts.update(ordered)


_ORDER = [*(reward.value for reward in Reward), *(building.value for building in Building)]
