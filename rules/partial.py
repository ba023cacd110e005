"""A territory being entered, answered as far as it goes: what is known of its resolution and the next
question to ask.

The site enters a territory a tap at a time: its icons, buildings and closer first, then the answers to the
questions the resolution asks, in its own order (the closer's tie-break, a lone player's choice, the special
action, each collector's pick). :func:`answer_territory` resolves a territory as far as it is entered (a
:class:`~rules.record.TerritorySoFar`), with the same functions as :func:`~rules.territory.resolve_territory`,
and says what the next question is and what may be answered to it::

    >>> from rules import new_game, parse_territory_so_far
    >>> state = new_game(("Ann", "Ben"))
    >>> event = {"type": "territory", "territory": "forest", "rewards": {"green-circle": 3},  # Ann 3, Ben 2
    ...          "buildings": {"Ann": {"farm": 1}, "Ben": {"warehouse": 1}}, "closed_by": "Ann"}
    >>> answer = answer_territory(state, parse_territory_so_far(state.players, event))
    >>> answer.question, answer.recipient
    (<Question.ACTION: 'action'>, 'Ben')

A wrong answer raises :class:`~rules.errors.RecordError` at the field it is in; :func:`question_of` says which
question that field answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum

from .buildings import check_buildings_counted, check_territory_buildings
from .components import Reward
from .errors import RecordError, RulesError
from .game import GameState
from .record import Bag, TerritorySoFar
from .special_actions import SpecialActionOptions, special_action_options
from .territory import (
    CollectionPlan,
    CollectionTurn,
    InfluenceReport,
    TieOrder,
    assess_influence,
    prepare_after_influence,
    special_action_recipient,
)


class Question(Enum):
    """What a territory being entered asks next, in the order the resolution asks it."""

    BOARD = "board"
    """Its icons, the buildings around it and who closed it."""
    ORDER = "order"
    """The closer's order of the tied players."""
    LONE = "lone"
    """The only player with influence: the special action or the rewards."""
    ACTION = "action"
    """The special action, of the player who takes it."""
    PICKS = "picks"
    """A collector's pick."""
    NONE = "none"
    """Nothing: the territory is complete."""


_FIELD_QUESTIONS: Mapping[str, Question] = {
    "territory": Question.BOARD,
    "rewards": Question.BOARD,
    "buildings": Question.BOARD,
    "closed_by": Question.BOARD,
    "order": Question.ORDER,
    "lone_choice": Question.LONE,
    "special_action": Question.ACTION,
    "picks": Question.PICKS,
}


def question_of(error: RulesError) -> Question | None:
    """The question whose answer the field of ``error`` holds (``None`` if it names no field of a territory)."""
    return next((_FIELD_QUESTIONS[part] for part in error.where if part in _FIELD_QUESTIONS), None)


@dataclass(frozen=True)
class TerritoryAnswer:
    """A territory being entered, resolved as far as it goes (see :func:`answer_territory`)."""

    question: Question
    """The next question (:attr:`Question.NONE` once the territory is complete)."""
    report: InfluenceReport
    """Influence from the buildings entered so far."""
    answered: tuple[Question, ...]
    """The questions after the board this territory asks that are answered, in order."""
    tie: TieOrder | None = None
    """The tie-break as put in order so far, while :attr:`Question.ORDER` is asked."""
    recipient: str | None = None
    """Who takes the special action, once known (a lone player: once they chose it)."""
    options: SpecialActionOptions | None = None
    """The special-action choices, while :attr:`Question.LONE` or :attr:`Question.ACTION` is asked."""
    plan: CollectionPlan | None = None
    """The pool and the collectors, once the special action is known."""
    turns: tuple[CollectionTurn, ...] = ()
    """The collectors' turns so far: each who picked, then the one to pick."""
    picks: Mapping[str, Bag] = field(default_factory=dict)
    """The picks that hold, each pick with nothing to choose filled in (see :meth:`CollectionTurn.settled`)."""
    picking: Bag = field(default_factory=dict)
    """The current collector's tokens tapped so far, as far as they hold."""
    allowed: Mapping[Reward, int] = field(default_factory=dict)
    """How many more of each kind the current collector may take (:meth:`CollectionTurn.still_allowed`)."""
    dropped: RecordError | None = None
    """A pick that no longer held against the pool (another change took from the supply): that collector
    picks again, from what of it the pool still holds (:attr:`picking`); the picks after wait for theirs."""

    @property
    def turn(self) -> CollectionTurn | None:
        """The collector to pick now, while :attr:`Question.PICKS` is asked."""
        return self.turns[-1] if self.question is Question.PICKS else None


def answer_territory(
    state: GameState,
    territory: TerritorySoFar,
    *,
    on_board: bool = False,
    chosen: tuple[str, ...] = (),
    action_answered: bool = False,
    picking: Bag | None = None,
) -> TerritoryAnswer:
    """Resolve ``territory`` (entered so far) against ``state`` (not changed) as far as it goes.

    ``on_board`` says the board (icons, buildings, closer) is still being entered: the question is then
    :attr:`Question.BOARD`, as it is without a closer, with influence and the first question the resolution
    will ask (a tie, a lone player's choice, or the special action and whose) answered as if the board were
    complete; the answers after the board are left out. ``chosen`` are the tied players the closer has put in
    order so far, while no ``order`` is entered; ``action_answered`` says whether the special action is
    answered (chosen in full, or none); ``picking`` is the current collector's tokens tapped so far.

    Raises :class:`RecordError` at the field entered that does not hold (see :func:`question_of`).
    """
    check_buildings_counted(state, territory.buildings)
    check_territory_buildings(state, territory.buildings)
    report = assess_influence(state.players, territory.territory, territory.closed_by, territory.buildings)
    if on_board or territory.closed_by is None:  # the board's answer: the first question, asked on the board
        board = replace(territory, order=None, lone_choice=None, special_action=None, picks={})
        first = _answer(state, report, board, (), action_answered=False, picking={})
        return replace(first, question=Question.BOARD, answered=(), plan=None, turns=(), picks={}, allowed={})
    return _answer(state, report, territory, chosen, action_answered=action_answered, picking=picking or {})


def _answer(
    state: GameState,
    report: InfluenceReport,
    territory: TerritorySoFar,
    chosen: tuple[str, ...],
    *,
    action_answered: bool,
    picking: Bag,
) -> TerritoryAnswer:
    answered: list[Question] = []
    if report.ties:
        if territory.order is None:
            return TerritoryAnswer(Question.ORDER, report, (), tie=report.tie_order(chosen))
        answered.append(Question.ORDER)
    order, _steps = report.check_order(territory.order) if report.influence else ((), ())
    if report.lone is not None:
        if territory.lone_choice is None:
            options = special_action_options(state, report.lone, collects=False)
            return TerritoryAnswer(Question.LONE, report, tuple(answered), options=options)
        answered.append(Question.LONE)
    recipient, _steps = special_action_recipient(report, order, territory.lone_choice)
    if recipient is not None:
        if not action_answered:
            options = special_action_options(state, recipient, collects=report.lone is None)
            return TerritoryAnswer(Question.ACTION, report, tuple(answered), recipient=recipient, options=options)
        answered.append(Question.ACTION)
    action = territory.special_action if action_answered else None
    plan = prepare_after_influence(state.copy(), report, replace(territory, special_action=action)).plan
    picks, picking, dropped = _settle_picks(plan, dict(territory.picks), picking)
    turn = plan.next_turn(picks)
    turns = tuple(plan.turns(picks))
    if turn is not None:
        allowed = turn.still_allowed(picking)
        return TerritoryAnswer(
            Question.PICKS,
            report,
            tuple(answered),
            None,
            recipient,
            None,
            plan,
            turns,
            picks,
            picking,
            allowed,
            dropped,
        )
    if plan.collectors:
        answered.append(Question.PICKS)
    return TerritoryAnswer(
        Question.NONE, report, tuple(answered), None, recipient, None, plan, turns, picks, {}, {}, dropped
    )


def _settle_picks(
    plan: CollectionPlan, picks: dict[str, Bag], picking: Bag
) -> tuple[dict[str, Bag], Bag, RecordError | None]:
    """Make the picks entered hold against ``plan`` (:func:`_hold_picks`), and fill in every pick that leaves
    nothing to choose, the current collector's included once ``picking`` decides it; the picks, the current
    collector's tokens tapped so far, and the first pick that did not hold."""
    wrong: RecordError | None = None
    while True:
        held = _hold_picks(plan, picks)
        if held is not None:
            wrong, picking = wrong or held[0], held[1]
        turn = plan.next_turn(picks)
        pick = turn.settled(picking) if turn is not None else None
        if turn is None or pick is None:
            return picks, picking if turn is not None else {}, wrong
        picks[turn.player], picking = pick, {}


def _hold_picks(plan: CollectionPlan, picks: dict[str, Bag]) -> tuple[RecordError, Bag] | None:
    """Make ``picks`` (changed) hold against ``plan``, whose pool may be smaller than when they were entered;
    the error of the first pick that did not hold and what of it that collector may still take, if any.

    That collector picks again, starting from what of their pick the pool still holds; the later picks stay,
    checked in their turn. If the pool is empty by then, nobody from that collector on takes anything. The
    picks after a collector who has not picked yet wait: they are checked once that collector has picked.
    """
    for number, (player, _influence) in enumerate(plan.collectors):
        if player not in picks:
            return None
        earlier = {name: picks[name] for name, _ in plan.collectors[:number]}
        turn = plan.turns(earlier)[-1]
        try:
            plan.turns(earlier | {player: picks[player]})
        except RecordError as error:
            if turn.may_take:
                return error, _still_takes(turn, picks.pop(player))
            for name, _ in plan.collectors[number:]:
                picks.pop(name, None)
            return error, {}
    return None


def _still_takes(turn: CollectionTurn, pick: Bag) -> Bag:
    """What of ``pick`` the collector may still take on ``turn``, kind after kind."""
    kept: dict[Reward, int] = {}
    for reward, count in pick.items():
        count = min(count, turn.still_allowed(kept).get(reward, 0))
        if count:
            kept[reward] = count
    return kept
