"""Entering an event step by step: a draft of the record's event, changed one tap at a time.

The draft travels in the page (a hidden field), so the same flow works as plain forms and with HTMX, and
the server keeps a copy (:mod:`scoring.drafts`), so that a reload or another phone picks it up. Each
tap is an *op* (the value of the pressed button, e.g. ``add:rewards:green-circle:1``); after each op
the draft is checked by ``rules`` and, if the op made it illegal, the op is undone and the error shown
in place. This module only maps taps to record fields and asks ``rules`` what is legal:
it decides no rule itself.

A draft is always analysed against the game as it is now: when another phone changed the game under it
and a stage no longer holds, that stage is to do again, with the reason, and every other stage keeps its
data (see :func:`analyse`).
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from rules import (
    Building,
    CollectionPlan,
    CollectionTurn,
    EventOutcome,
    GameState,
    InfluenceReport,
    LoneChoice,
    ObjectiveKind,
    RecordError,
    Reward,
    RulesError,
    Shape,
    SpecialActionKind,
    SpecialActionOptions,
    Territory,
    apply_event,
    apply_special_action,
    assess_influence,
    normal_text,
    note_problem,
    parse_event,
    parse_special_action,
    prepare_collection,
    special_action_options,
    special_action_recipient,
)
from rules.reading import read_json
from rules.record import Bag, TerritoryEvent, parse_bag

from .http import posted_whole
from .wording import say

EVENT_KINDS = ("territory", "volcano", "beaver_dam", "objectives", "round_end", "adjust")
PROMO_KINDS = ("volcano", "beaver_dam")
MAX_COUNT = 99
REWARDS = frozenset(reward.value for reward in Reward)
BUILDINGS = frozenset(building.value for building in Building)
OBJECTIVE_KINDS = frozenset(kind.value for kind in ObjectiveKind)
TERRITORIES = frozenset(territory.value for territory in Territory)
LONE_CHOICES = frozenset(choice.value for choice in LoneChoice)
ACTIONS = frozenset(kind.value for kind in SpecialActionKind)
SHAPES = frozenset(shape.value for shape in Shape)
# Stages of counters: going back to one, or to an earlier stage, keeps their counts.
COUNTER_STAGES = {"rewards", "buildings", "changes", "cards"}
STAGES = {
    "territory": ("territory", "rewards", "buildings", "closer", "order", "lone", "action", "picks", "confirm"),
    "volcano": ("player", "action", "confirm"),
    "beaver_dam": ("player", "reward", "confirm"),
    "objectives": ("player", "cards", "confirm"),
    "round_end": ("confirm",),
    "adjust": ("player", "changes", "confirm"),
}
# The event fields each stage fills: reopening a stage clears the fields of the stages after it.
STAGE_FIELDS = {
    "territory": ("territory",),
    "rewards": ("rewards",),
    "buildings": ("buildings",),
    "closer": ("closed_by",),
    "order": ("order",),
    "lone": ("lone_choice",),
    "action": ("special_action",),
    "picks": ("picks",),
    "player": ("player",),
    "reward": ("reward",),
    "cards": ("cards",),
    "changes": ("rewards", "nuggets", "note"),
}


class BadOp(Exception):
    """A tap that makes no sense (a forged or outdated form)."""


@dataclass
class Draft:
    """An event being entered: the record's event so far, the stages confirmed, the taps in progress."""

    event: dict[str, Any]
    done: list[str] = field(default_factory=list)
    partial: dict[str, int] = field(default_factory=dict)
    """The current collector's taps (territory), or the rewards of the card being built (objectives)."""
    card: str = ""
    """The kind of the objective card being built."""
    original: dict[str, Any] | None = None
    """For an edit: the event as it was in the log when the edit began (to tell whether another phone
    changed it meanwhile); ``None`` for a new event."""

    @property
    def kind(self) -> str:
        return str(self.event["type"])

    def to_json(self) -> str:
        return json.dumps(self.to_data())

    def to_data(self) -> dict[str, Any]:
        """The draft as JSON data (what the page posts back and the server keeps)."""
        return {
            "event": self.event,
            "done": self.done,
            "partial": self.partial,
            "card": self.card,
            "original": self.original,
        }

    @classmethod
    def new(cls, kind: str) -> Draft:
        return cls({"type": kind})

    @classmethod
    def of_event(cls, event: dict[str, Any]) -> Draft:
        """A draft of a recorded event, every stage confirmed (for editing)."""
        return cls(json.loads(json.dumps(event)), done=list(STAGES[event["type"]]), original=copy.deepcopy(event))

    @classmethod
    def from_json(cls, text: str, players: tuple[str, ...]) -> Draft:
        """The draft sent back by the page in a game of ``players``; :class:`BadOp` if it is not one."""
        try:
            data = read_json(text)
        except RulesError as error:
            raise BadOp(_("The form was damaged; start again.")) from error
        return cls.from_data(data, players)

    @classmethod
    def from_data(cls, data: object, players: tuple[str, ...]) -> Draft:
        """The draft in JSON data (as :meth:`to_data` writes it) in a game of ``players``; :class:`BadOp` if it
        is not one."""
        try:
            if not isinstance(data, dict):
                raise TypeError
            # A page rendered before edits carried their original has none: it is then not checked.
            draft = cls(data["event"], data["done"], data["partial"], data["card"], data.get("original"))
        except (KeyError, TypeError) as error:
            raise BadOp(_("The form was damaged; start again.")) from error
        shapes = _field_shapes(frozenset(players))
        if not (
            _is_event(draft.event, shapes)
            and isinstance(draft.done, list)
            and all(stage in STAGES[draft.kind] for stage in draft.done)
            and _is_bag(draft.partial)
            and (draft.card == "" or _is_one_of(draft.card, OBJECTIVE_KINDS))
            and (draft.original is None or _is_event(draft.original, shapes))
        ):
            raise BadOp(_("The form was damaged; start again."))
        return draft

    def copy(self) -> Draft:
        """A deep copy, to change without changing this one."""
        return Draft(
            copy.deepcopy(self.event), list(self.done), dict(self.partial), self.card, copy.deepcopy(self.original)
        )


def _is_event(value: object, shapes: dict[str, Callable[[object], bool]]) -> bool:
    """An event as a draft holds it: a known type, each field of its shape."""
    return (
        isinstance(value, dict)
        and value.get("type") in EVENT_KINDS
        and all(key in shapes and shapes[key](item) for key, item in value.items())
    )


def _is_one_of(value: object, kinds: frozenset[str]) -> bool:
    return isinstance(value, str) and value in kinds


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_COUNT


def _is_counts(value: object, kinds: frozenset[str]) -> bool:
    return isinstance(value, dict) and all(key in kinds and _is_count(count) for key, count in value.items())


def _is_bag(value: object) -> bool:
    return _is_counts(value, REWARDS)


def _is_by_player(value: object, players: frozenset[str], each: Callable[[object], bool]) -> bool:
    return isinstance(value, dict) and all(player in players and each(item) for player, item in value.items())


def _is_list_of(value: object, kinds: frozenset[str]) -> bool:
    return isinstance(value, list) and all(_is_one_of(item, kinds) for item in value)


def _is_action(value: object, players: frozenset[str]) -> bool:
    """A special action as the entry builds it: a known action, each detail of the right kind."""
    if not isinstance(value, dict) or not _is_one_of(value.get("action"), ACTIONS):
        return False
    details: dict[str, Callable[[object], bool]] = {
        "action": lambda item: True,
        "shape": lambda item: _is_one_of(item, SHAPES),
        "reward": lambda item: _is_one_of(item, REWARDS),
        "give": lambda item: _is_one_of(item, REWARDS),
        "get": lambda item: _is_one_of(item, REWARDS),
        "with": lambda item: _is_one_of(item, players),
        "from": lambda item: _is_by_player(item, players, lambda reward: _is_one_of(reward, REWARDS)),
        "swaps": lambda item: (
            isinstance(item, list)
            and len(item) <= 2
            and all(_is_list_of(swap, REWARDS) and len(swap) == 2 for swap in item)
        ),
    }
    return all(key in details and details[key](item) for key, item in value.items())


def _is_cards(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(card, dict)
        and set(card) == {"kind", "rewards"}
        and _is_one_of(card["kind"], OBJECTIVE_KINDS)
        and _is_list_of(card["rewards"], REWARDS)
        for card in value
    )


def _field_shapes(players: frozenset[str]) -> dict[str, Callable[[object], bool]]:
    """What each field of a draft in a game of ``players`` may hold: identifiers of the record, players of
    the game, bounded counts. The record checks the rest; this keeps a damaged or forged form from
    reaching code that expects these types."""
    return {
        "type": lambda value: _is_one_of(value, frozenset(EVENT_KINDS)),
        "territory": lambda value: _is_one_of(value, TERRITORIES),
        "closed_by": lambda value: _is_one_of(value, players),
        "player": lambda value: _is_one_of(value, players),
        "reward": lambda value: _is_one_of(value, REWARDS),
        "lone_choice": lambda value: _is_one_of(value, LONE_CHOICES),
        "note": lambda value: isinstance(value, str),
        "rewards": _is_bag,
        "nuggets": _is_count,
        "buildings": lambda value: _is_by_player(value, players, lambda counts: _is_counts(counts, BUILDINGS)),
        "picks": lambda value: _is_by_player(value, players, _is_bag),
        "order": lambda value: _is_list_of(value, players),
        "special_action": lambda value: _is_action(value, players),
        "cards": _is_cards,
    }


@dataclass
class Screen:
    """What the entry page shows: the current stage, what ``rules`` says about the draft, errors."""

    draft: Draft
    players: tuple[str, ...]
    stage: str = ""
    error: str = ""
    typed_note: str = ""
    """A correction's note as typed, shown again when the tap was refused, so that nothing typed is lost."""
    report: InfluenceReport | None = None
    ties: list[list[tuple[str, ...]]] = field(default_factory=list)
    """For each tied group, every order the closer may choose."""
    recipient: str | None = None
    options: SpecialActionOptions | None = None
    collecting: list[tuple[str, int, dict[str, int]]] = field(default_factory=list)
    """The collectors so far: (player, may take, what they took)."""
    turn: CollectionTurn | None = None
    allowed: dict[Reward, int] = field(default_factory=dict)
    preview: EventOutcome | None = None
    passed: list[str] = field(default_factory=list)
    """The stages behind the current one that apply to this event (a summary line each)."""
    repaired: bool = False
    """The draft did not hold against the game (another phone changed it): the stage shown is to do again,
    ``error`` says why, and the draft was changed to match."""

    @property
    def event(self) -> dict[str, Any]:
        return self.draft.event

    @property
    def stages(self) -> tuple[str, ...]:
        return STAGES[self.draft.kind]

    def at(self, stage: str) -> Screen:
        self.stage = stage
        return self

    @property
    def seat(self) -> dict[str, str]:
        """Each player's seat number, which the buttons carry instead of the name."""
        return {player: str(number) for number, player in enumerate(self.players)}

    @property
    def taken(self) -> int:
        """Tokens tapped so far by the current collector."""
        return sum(self.draft.partial.values())

    @property
    def rows(self) -> list[tuple[str, str]]:
        """The stages passed (``done``: a summary line each), then the current one (its controls)."""
        return [*((stage, "done") for stage in self.passed), (self.stage, "current")]

    @property
    def home_rewards(self) -> list[Reward]:
        """The three kinds of the territory's colour, shown first."""
        colour = Territory(self.event["territory"]).colour if "territory" in self.event else None
        return [reward for reward in Reward if reward.colour is colour]

    @property
    def other_rewards(self) -> list[Reward]:
        """The other nine kinds, shown on demand (tiles can show icons of other colours)."""
        home = self.home_rewards
        return [reward for reward in Reward if reward not in home]

    @property
    def all_rewards(self) -> list[Reward]:
        """The twelve kinds in the record's order."""
        return list(Reward)

    @property
    def reward_grid(self) -> list[list[Reward]]:
        """The twelve kinds, a row per colour."""
        return [list(Reward)[row : row + 3] for row in range(0, 12, 3)]

    @property
    def action_kind(self) -> str:
        """The special action chosen so far, or ``""``."""
        action = self.event.get("special_action")
        return str(action.get("action", "")) if isinstance(action, dict) else ""

    @property
    def others_open(self) -> bool:
        """Whether the territory shows icons of other colours (keep that part open)."""
        return any(self.event.get("rewards", {}).get(reward.value) for reward in self.other_rewards)


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
    base = {key: value for key, value in event.items() if key not in {"special_action", "picks"}}
    # The counts so far are checked by the record parser (the closer is not known yet: any player will do).
    parsed = _territory_event(players, {"closed_by": players[0]} | base, index)
    for stage, present in (
        ("rewards", "rewards" in draft.done),
        ("buildings", "buildings" in draft.done),
        ("closer", "closed_by" in event),
    ):
        if not present:
            return screen.at(stage)
        screen.passed.append(stage)
    report = assess_influence(players, parsed.territory, parsed.closed_by, parsed.buildings)
    screen.report = report
    screen.ties = [list(itertools.permutations(level)) for level in report.ties]
    if report.ties:
        if "order" not in event:
            return screen.at("order")
        screen.passed.append("order")
    order, _steps = report.check_order(parsed.order) if report.influence else ((), ())
    if report.lone is not None:
        if "lone_choice" not in event:
            return screen.at("lone")
        screen.passed.append("lone")
    recipient, _steps = special_action_recipient(report, order, parsed.lone_choice)
    screen.recipient = recipient
    if recipient is not None:
        if "action" not in draft.done:
            screen.options = special_action_options(state, recipient, collects=report.lone is None)
            return screen.at("action")
        screen.passed.append("action")
    action = {"special_action": event["special_action"]} if event.get("special_action") else {}
    prepared = prepare_collection(state.copy(), _territory_event(players, base | action, index))
    picks = {player: parse_bag(bag, ("picks", player)) for player, bag in event.get("picks", {}).items()}
    wrong = _hold_picks(draft, prepared.plan, picks)
    if wrong is not None:
        screen.error, screen.repaired = wrong.message, True
    screen.collecting = [
        (turn.player, turn.may_take, {reward.value: count for reward, count in picks.get(turn.player, {}).items()})
        for turn in prepared.plan.turns(picks)
    ]
    turn = prepared.plan.next_turn(picks)
    if turn is not None:
        screen.turn = turn
        screen.allowed = turn.still_allowed(parse_bag(draft.partial, ("picks", turn.player)) if draft.partial else {})
        return screen.at("picks")
    if prepared.plan.collectors:
        screen.passed.append("picks")
    return _confirm(screen, state, index)


def _hold_picks(draft: Draft, plan: CollectionPlan, picks: dict[str, dict[Reward, int]]) -> RulesError | None:
    """Make the collectors' picks hold against ``plan``, whose pool may have shrunk since they were entered
    (another phone's save took from the supply); the error of the first pick that did not hold, if any.

    That collector picks again, starting from what of their pick the pool still holds; the later picks stay,
    checked in their turn. If the pool is empty by then, nobody from that collector on takes anything.
    """
    event_picks: dict[str, Any] = draft.event.get("picks", {})
    for number, (player, _influence) in enumerate(plan.collectors):
        if player not in picks:
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
            checked["special_action"] = _PLACEHOLDERS["volcano"]["special_action"]  # checked once complete
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
    "volcano": {"special_action": {"action": "new_tiles"}},
    "beaver_dam": {"reward": Reward.GREEN_SQUARE.value},
    "objectives": {"cards": []},
}


def _volcano_options(screen: Screen, state: GameState) -> None:
    screen.recipient = screen.event["player"]
    screen.options = special_action_options(state, screen.event["player"], collects=False)


def _supply(screen: Screen, state: GameState) -> None:
    screen.allowed = state.available_bag()


type Analyser = Callable[[Screen, GameState, int], Screen]

_ANALYSERS: dict[str, Analyser] = {
    "territory": _territory,
    "volcano": _then("action", lambda screen: "action" in screen.draft.done, _volcano_options),
    "beaver_dam": _then("reward", lambda screen: "reward" in screen.event, _supply),
    "objectives": _then("cards", lambda screen: "cards" in screen.draft.done),
    "round_end": _confirm,
    "adjust": _then("changes", lambda screen: "changes" in screen.draft.done),
}


# Ops ---------------------------------------------------------------------------------------------


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
    """Go back to ``stage``: it and every later stage are to do again; later choices are dropped, counts are
    kept (the record needs a territory's buildings whatever the step: dropping them refused the tap)."""
    stages = STAGES[draft.kind]
    start = stages.index(stage)
    for name in stages[start:]:
        if name not in COUNTER_STAGES:
            for key in STAGE_FIELDS.get(name, ()):
                draft.event.pop(key, None)
    draft.done = [name for name in draft.done if name in stages[:start]]
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
        if not draft.event.get("rewards") and not draft.event.get("nuggets"):
            raise BadOp(_("Change at least one count."))
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
