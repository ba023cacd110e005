"""The tap language: each tap is an *op* (the pressed button's value, e.g. ``add:rewards:green-circle:1``)
that changes the draft; a tap that makes the draft illegal is undone and its error shown."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import (
    Building,
    Colour,
    EventType,
    GameState,
    LoneChoice,
    ObjectiveCard,
    Reward,
    RulesError,
    Shape,
    SpecialActionKind,
    Territory,
    apply_special_action,
    card_of_rewards,
    full_set_card,
    normal_text,
    note_problem,
    on_one_card,
    parse_special_action,
)
from rules.components import MAX_OBJECTIVE_CARDS, round_one_buildings, whole_game_buildings
from rules.fields import members
from scoring.http import posted_whole
from scoring.table.entry.analysis import analyse
from scoring.table.entry.draft import Draft
from scoring.table.entry.screen import Screen
from scoring.table.entry.stages import BUILDING_PAIR, COUNTER_STAGES, MAX_COUNT, STAGE_FIELDS, BadOp
from scoring.wording import label, reward_label, say


def tap(screen: Screen, op: str, form: dict[str, str], state: GameState, index: int) -> Screen:
    """Apply the tap ``op`` (with the other fields of the ``form``) and analyse the new draft.

    If the tap makes the draft illegal, the draft stays as it was and the error is shown. If it makes a stage
    already done no longer hold (a later collector's pick, a confirmed step the event as a whole refuses), that
    stage is to do again, with the error (see :func:`analyse`): going back would offer the same tap again.
    """
    shown, before = screen, screen.draft.copy()
    try:
        if screen.stage == "board" and op.startswith(BOARD_ANSWERS) and op != "tie:clear":
            # The resolution's first question, answered on the board: the board is done, then the answer.
            _mark_done(screen, "board", form)
            screen = analyse(screen.draft, state, index)
            if screen.error:
                raise BadOp(screen.error)
            if op.startswith("action:") and screen.stage not in {"action", "lone"}:
                raise BadOp(_("That button is out of date; here is the current step."))
        _apply_op(screen, op, form)
        if screen.draft.kind == EventType.HOLDINGS and "player" in screen.event and "rewards" not in screen.event:
            screen.event.update(count_from_holdings(state, screen.event["player"]))
    except BadOp as error:
        return _with_error(_undone(shown, before), str(error), form)
    after = analyse(screen.draft, state, index)
    after.note = screen.note
    try:
        if not after.error and after.stage == "action" and _action_complete(after, state):
            after.draft.done.append("action")
            after = analyse(after.draft, state, index)
    except RulesError as error:
        after.error = error.message
    if after.error and not after.repaired:
        return _with_error(_undone(shown, before), after.error, form)
    return after


def _undone(shown: Screen, before: Draft) -> Screen:
    """The screen shown before a refused tap, its draft as it was: the analysis of that draft still holds, so
    it is not analysed again."""
    shown.draft, shown.note = before, ""
    return shown


BOARD_ANSWERS = ("tie:", "set:lone_choice:", "action:")
"""The taps that answer, on the board, the first question of the territory's resolution."""


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
            player = _player(screen, value)
            if key == "player" and event.get("player") != player:
                _forget_player_s_own(draft)  # another player's entry starts from theirs, never the last one's
            event[key] = player
        case "set", ["lone_choice", value]:
            event["lone_choice"] = _choice(value, LoneChoice)
        case "set", ["reward", value]:
            event["reward"] = _choice(value, Reward)
        case "clear", ["other-rewards"]:
            for reward in screen.other_rewards:
                event.get("rewards", {}).pop(reward.value, None)
        case "count", ["rewards", reward, count]:
            _set_count(
                event.setdefault("rewards", {}), _choice(reward, Reward), _bounded(posted_whole(count), signed=False)
            )
        case "count", ["pool", pool]:
            _set_pool(screen, pool)
        case "add", ["rewards", reward, step]:
            _add(
                event.setdefault("rewards", {}),
                _choice(reward, Reward),
                _step(step),
                signed=draft.kind == EventType.ADJUST,
            )
        case "add", ["nuggets", step]:
            event["nuggets"] = _bounded(event.get("nuggets", 0) + _step(step), signed=True)
        case "cycle", ["buildings", player, pair] if pair == _PAIR:
            _add_pair(screen, _player(screen, player))
        case "cycle", ["buildings", player, building]:
            _cycle_building(screen, _player(screen, player), Building(_choice(building, Building)))
        case "tie", ["clear"]:
            draft.chosen = []
        case "tie", ["all", _seats]:
            _tie_all(screen, op)
        case "tie", [seat]:
            _tie(screen, _player(screen, seat))
        case "action", ["none"]:
            event.pop("special_action", None)
            _choose_action(screen)
            draft.done.append("action")
        case "action", [kind]:
            _choose_action(screen)
            event["special_action"] = {"action": _choice(kind, SpecialActionKind)}
        case "action", [kind, reward] if kind in _ACTIONS_WITH_A_TOKEN:  # the action and its token in one tap
            _choose_action(screen)
            event["special_action"] = {"action": kind}
            _detail(screen, "reward", reward)
        case "detail", [key, value]:
            _detail(screen, key, value)
        case "take", ["all", take]:
            _take_all(screen, take)
        case "take", [reward, count]:
            _take(
                screen,
                Reward(_choice(reward, Reward)),
                _bounded(posted_whole(count), signed=False),
                form.get("collector", ""),
            )
        case "card", ["specific", reward]:
            _keep_card(event, _card([Reward(_choice(reward, Reward))]))
        case "card", ["toggle", reward]:
            _toggle_icon(draft, Reward(_choice(reward, Reward)))
        case "card", ["full", "colour", colour]:
            _add_full_set(draft, Colour(_choice(colour, Colour)))
        case "card", ["full", "shape", shape]:
            _add_full_set(draft, Shape(_choice(shape, Shape)))
        case "card", ["add"] if draft.partial:
            _add_card(draft)
        case "card", ["remove", number] if 0 <= posted_whole(number) < len(event.get("cards", [])):
            del event["cards"][int(number)]
        case _:
            raise BadOp(_("That button is out of date; here is the current step."))


_ACTIONS_WITH_A_TOKEN = {SpecialActionKind.REWARD_OF_SHAPE.value, SpecialActionKind.TWO_REWARDS.value}
"""The actions whose one detail is a token of the supply, tapped with it."""


def _reopen(draft: Draft, stage: str) -> None:
    """Go back to ``stage`` ("Change"): only it is to do again. Every later step keeps its data and stays
    done while it still holds once the stage is done again; one that no longer holds is made to do again
    with the reason (:func:`scoring.table.entry.analysis.analyse`). A counter stage keeps its counts."""
    if stage not in COUNTER_STAGES:
        for key in STAGE_FIELDS.get(stage, ()):
            draft.event.pop(key, None)
    draft.done = [name for name in draft.done if name != stage]
    draft.partial, draft.chosen = {}, []


def _forget_player_s_own(draft: Draft) -> None:
    """What the draft holds of its player is dropped, and its stage is to do again: another player's objective
    cards are theirs to enter (a phone never shows its holder's secret cards as someone else's), and another
    player's final count starts from what the game gave them, not from the last player's counts."""
    own: dict[str, str] = {EventType.OBJECTIVES: "cards", EventType.HOLDINGS: "count"}
    stage = own.get(draft.kind)
    if stage is None:  # a correction's changes are the changes the person means, whoever they are for
        return
    for key in STAGE_FIELDS[stage]:
        draft.event.pop(key, None)
    draft.partial = {}
    draft.done = [name for name in draft.done if name != stage]


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
    if stage == "board" and "closed_by" not in draft.event:
        raise BadOp(_("Who closed the territory? Tap their name."))
    if stage == "count":  # a kind not tapped is none of it; no nugget tapped is none
        draft.event.setdefault("rewards", {})
        draft.event.setdefault("nuggets", 0)
    if stage == "cards":
        if draft.partial:  # the card being tapped is kept too
            _add_card(draft)
        draft.event.setdefault("cards", [])  # no card kept is a choice too
    draft.done.append(stage)


def count_from_holdings(state: GameState, player: str) -> dict[str, Any]:
    """The start of ``player``'s final count: what the game gave them (at the end of a game scored territory
    by territory, the count is a correction, often of a few taps; in a quick count, nothing)."""
    holding = state.holdings[player]
    return {
        "rewards": {reward.value: count for reward, count in holding.rewards.items() if count},
        "nuggets": holding.nuggets,
    }


def _set_count(counts: dict[str, int], key: str, count: int) -> None:
    """A chip: the counter becomes ``count``; tapping the chip of its count again makes it 0."""
    _add(counts, key, (0 if counts.get(key) == count else count) - counts.get(key, 0), signed=False)


def _set_pool(screen: Screen, pool: str) -> None:
    """The territory's icons of its colour in one tap (a chip of :attr:`Screen.whole_pools`): each of its three
    kinds becomes the pool's count; icons of other colours stay as they are."""
    offered = {whole.encoded: whole for whole, _entered in screen.whole_pools}
    whole = offered.get(pool)
    if whole is None:
        raise BadOp(_("That button is out of date; here is the current step."))
    rewards = screen.event.setdefault("rewards", {})
    for reward, count in whole.parts:
        _add(rewards, reward.value, count - rewards.get(reward.value, 0), signed=False)


def _cycle_building(screen: Screen, player: str, building: Building) -> None:
    """One more of ``building`` for ``player``; past what a player has at this point of the game (in round 1,
    the round-1 buildings), or what their buildings of that type can still count in after the earlier
    territories, back to none (with no room at all, the tap is refused with the reason)."""
    counts = screen.event.setdefault("buildings", {}).setdefault(player, {})
    count = counts.get(building.value, 0)
    supply = whole_game_buildings(len(screen.players))[building]
    most = screen.most_buildings(player, building)
    _add(counts, building.value, (count + 1) % (most + 1) - count, signed=False)
    if count == most < supply:  # back to none before the supply: say why, by the cell
        screen.note = _cap_reason(screen, player, building, most)
    if not counts:
        del screen.event["buildings"][player]


_PAIR = "+".join(BUILDING_PAIR)
"""The op's name of a player's two buildings in one tap: ``cycle:buildings:0:warehouse+silo``."""


def _add_pair(screen: Screen, player: str) -> None:
    """One more of each building of :data:`BUILDING_PAIR` for ``player``, in one tap; refused with the reason, by
    their row, when either is already at the most they can show here (a cell taps it back to none)."""
    counts = screen.event.setdefault("buildings", {}).setdefault(player, {})
    for building in BUILDING_PAIR:
        most = screen.most_buildings(player, building)
        if counts.get(building.value, 0) >= most:
            raise BadOp(
                _("Not added: %(player)s can show %(count)d × %(building)s at most here.")
                % {"player": player, "count": most, "building": label(building, "building")}
            )
    for building in BUILDING_PAIR:
        _add(counts, building.value, 1, signed=False)


def _cap_reason(screen: Screen, player: str, building: Building, most: int) -> str:
    """Why ``player``'s cell of ``building`` went back to none past ``most``: what round 1 gives each player,
    or what their buildings of that type can still count in after the earlier territories."""
    what = label(building, "building")
    if screen.round == 1 and most == round_one_buildings(len(screen.players))[building]:
        return _(
            "Round 1 gives each player %(count)d × %(building)s: back to none. If round 1 is over, enter its end first."
        ) % {"count": most, "building": what}
    return ngettext(
        "%(player)s's %(building)s can be counted in %(count)d more territory only: back to none.",
        "%(player)s's %(building)s can be counted in %(count)d more territories only: back to none.",
        most,
    ) % {"player": player, "count": most, "building": what}


def _tie(screen: Screen, player: str) -> None:
    """The closer puts ``player`` next in the order of the tied players; once ``rules`` says the order is
    complete (the last of each tied group goes by itself), it is the event's order."""
    report = screen.report
    if report is None or not report.ties or "order" in screen.event:
        raise BadOp(_("Nobody ties here."))
    try:
        tie = report.tie_order([*screen.draft.chosen, player])
    except RulesError as error:
        raise BadOp(say(error.message)) from error
    if tie.order is None:
        screen.draft.chosen = list(tie.chosen)
    else:
        screen.event["order"], screen.draft.chosen = list(tie.order), []


def _tie_all(screen: Screen, op: str) -> None:
    """The closer's whole tie-break in one tap (a button of :attr:`Screen.whole_orders`)."""
    order = dict(screen.whole_orders).get(op)
    if order is None:
        raise BadOp(_("That button is out of date; here is the current step."))
    screen.event["order"], screen.draft.chosen = list(order), []


def _choose_action(screen: Screen) -> None:
    """Choosing an action where a lone player is asked is their choice of the special action too."""
    if screen.stage == "lone":
        screen.event["lone_choice"] = LoneChoice.SPECIAL_ACTION


def _take(screen: Screen, reward: Reward, count: int, shown: str) -> None:
    """The current collector takes ``count`` of ``reward`` (the same count again: none). ``shown`` is the
    collector the phone showed: when another phone's save ended or changed the turn, the tap is refused,
    naming the player and the token."""
    token = reward_label(reward)
    turn = screen.turn
    if turn is None or screen.stage != "picks":
        raise BadOp(
            _("Not taken: %(token)s. %(player)s collects no more here (the game changed on another phone).")
            % {"token": token, "player": shown or _("this collector")}
        )
    if shown and shown != turn.player:
        raise BadOp(
            _("Not taken for %(shown)s: %(token)s. It is %(player)s's turn to collect now.")
            % {"token": token, "shown": shown, "player": turn.player}
        )
    had = screen.draft.partial.get(reward.value, 0)
    if count != had and count > had + screen.allowed.get(reward, 0):
        raise BadOp(_("%(player)s may not take another %(token)s.") % {"player": turn.player, "token": token})
    _set_count(screen.draft.partial, reward.value, count)


def _take_all(screen: Screen, take: str) -> None:
    """The current collector's whole take in one tap (a chip of :attr:`Screen.whole_takes`), before any
    token of theirs is tapped: ``green-square=2+blue-circle=1``."""
    if screen.turn is None or screen.draft.partial:
        raise BadOp(_("That button is out of date; here is the current step."))
    offered = {whole.op: whole for whole in screen.whole_takes}
    whole = offered.get(f"take:all:{take}")
    if whole is None:
        raise BadOp(_("That button is out of date; here is the current step."))
    screen.draft.partial = {reward.value: count for reward, count in whole.parts}


def _toggle_icon(draft: Draft, reward: Reward) -> None:
    """Tap an icon of the card being built: tapped again, it is untapped. An icon that no card could show
    with the icons so far starts the next card, and the icons so far, a card by themselves, are kept (no
    "Add this card" tap); otherwise it joins them."""
    if draft.partial.pop(reward.value, None) is not None:
        return
    so_far = [Reward(key) for key in draft.partial]
    if so_far and on_one_card(so_far) and not on_one_card([*so_far, reward]):
        _add_card(draft)
        _keep_room(draft.event, for_cards=1)  # the card this icon starts must fit too
    draft.partial[reward.value] = 1
    _add_card_if_complete(draft)


def _add_full_set(draft: Draft, of: Colour | Shape) -> None:
    """The full set card of a colour or a shape, in one tap. The icons tapped so far complete into it when they
    are part of it; otherwise they are a card of their own, kept first."""
    card = full_set_card(of)
    if draft.partial and not set(map(Reward, draft.partial)) <= set(card.rewards):
        _add_card(draft)
    draft.partial = {}
    _keep_card(draft.event, card)


def _add_card_if_complete(draft: Draft) -> None:
    """A set card whose icons leave no room for another (3 of one colour, 4 of one shape) is added at once."""
    if len(draft.partial) < 2:
        return
    try:
        card = card_of_rewards([Reward(reward) for reward in draft.partial])
    except RulesError:
        return  # not a card yet: "Add this card" says why
    if card.complete:
        _keep_card(draft.event, card)
        draft.partial = {}


def _add_card(draft: Draft) -> None:
    """The card whose icons were tapped joins the cards kept (its kind follows from the icons)."""
    _keep_card(draft.event, _card([Reward(reward) for reward in draft.partial]))
    draft.partial = {}


def _card(rewards: list[Reward]) -> ObjectiveCard:
    """The card that shows ``rewards``, as ``rules`` reads it; :class:`BadOp` with the reason if none does."""
    try:
        return card_of_rewards(rewards)
    except RulesError as error:
        raise BadOp(say(error.message)) from error


def _keep_card(event: dict[str, Any], card: ObjectiveCard) -> None:
    _keep_room(event, for_cards=1)
    event.setdefault("cards", []).append(card.to_json())


def _keep_room(event: dict[str, Any], *, for_cards: int) -> None:
    """:class:`BadOp` unless ``for_cards`` more cards fit among the cards kept."""
    if len(event.get("cards", [])) + for_cards > MAX_OBJECTIVE_CARDS:
        raise BadOp(_("A player keeps 3 cards at most: remove one first."))


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
    elif key == "give" and kind == SpecialActionKind.TRADE:
        action["give"] = _choice(value, Reward)
    elif key == "get" and kind == SpecialActionKind.TRADE:  # whom with and what, in one tap: ``1=green-square``
        partner, _sep, token = value.partition("=")
        action["with"], action["get"] = _player(screen, partner), _choice(token, Reward)
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
    _fill_forced(screen, kind, action)
    holders = screen.options.holders if screen.options else {}
    if kind is SpecialActionKind.GIFTS and set(action.get("from", {})) != set(holders):
        return False
    if kind is SpecialActionKind.TRADE and not {"with", "give", "get"} <= set(action):
        return False
    exchange = kind in {SpecialActionKind.EXCHANGE_SHAPE, SpecialActionKind.EXCHANGE_COLOUR}
    if exchange and len(action.get("swaps", [])) < 2 and (not action.get("swaps") or screen.next_swaps):
        return False  # one swap with no second one to make is the whole exchange
    if kind in {SpecialActionKind.REWARD_OF_SHAPE, SpecialActionKind.TWO_REWARDS} and "reward" not in action:
        return False
    parsed = parse_special_action(screen.players, action)
    apply_special_action(state.copy(), screen.recipient, parsed, in_territory=screen.draft.kind == EventType.TERRITORY)
    return True


def _fill_forced(screen: Screen, kind: SpecialActionKind, action: dict[str, Any]) -> None:
    """Fill in the details of the chosen action that leave nothing to choose: a giver who holds one kind only,
    the only kind one can trade away or get."""
    options = screen.options
    if options is None:
        return
    if kind is SpecialActionKind.GIFTS:
        forced = {giver: gifts[0].value for giver, gifts in options.holders.items() if len(gifts) == 1}
        action["from"] = forced | action.get("from", {})
    offers = [(partner, reward) for partner, kinds in options.holders.items() for reward in kinds]
    if kind is SpecialActionKind.TRADE and len(options.own) == 1:
        action.setdefault("give", options.own[0].value)
    if kind is SpecialActionKind.TRADE and len(offers) == 1 and "get" not in action:
        action["with"], action["get"] = offers[0][0], offers[0][1].value


def _choice[E: StrEnum](value: str, kind: type[E]) -> str:
    """``value`` if it names a member of ``kind``; :class:`BadOp` if not (a forged or outdated button)."""
    if value not in members(kind):
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
