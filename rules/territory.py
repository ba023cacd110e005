"""Resolving a completed territory, step by step: influence, the special action, collection.

Each step is a function the site can call on its own while players enter a territory, and
:func:`resolve_territory` chains the same functions when a record is replayed:

1. :func:`assess_influence` — from the buildings: influence, tied groups, the lone player;
2. :meth:`InfluenceReport.check_order` — the closer's tie-break;
3. :func:`special_action_recipient` — who takes the special action (or the lone choice);
4. :func:`plan_collection` — the pool and the collection order with each collector's entitlement;
5. :meth:`CollectionPlan.turns` / :meth:`CollectionPlan.check` — the picks, one collector at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .actions import ChooseFirst
from .buildings import check_buildings_counted, count_buildings
from .components import Building, Reward, Territory
from .errors import RecordError
from .explanation import Figure, Message, Order, Part, Parts, Players, Step, Tokens
from .explanation import gettext_noop as _
from .game import GameState, TerritoryOutcome
from .record import Bag, LoneChoice, TerritoryEvent, TerritorySoFar
from .special_actions import apply_special_action

# 1. Influence ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TieOrder:
    """The closer's tie-break as entered so far (see :meth:`InfluenceReport.tie_order`)."""

    chosen: tuple[str, ...]
    """The tied players put in order so far, first first."""
    undecided: tuple[str, ...]
    """The tied players still to put in order (empty when the order is complete)."""
    order: tuple[str, ...] | None
    """The whole order of influence once every tie is decided, else ``None``."""


@dataclass(frozen=True)
class InfluenceReport:
    """Influence in a completed territory, and what the closer must still decide."""

    territory: Territory
    closed_by: str | None
    """Who closed it (``None`` while a territory being entered does not say yet)."""
    influence: Mapping[str, int]
    """Every player with influence (more than 0), in seat order."""
    levels: tuple[tuple[str, ...], ...]
    """Players grouped by equal influence, most first; a group of two or more is a tie."""
    steps: tuple[Step, ...]

    @property
    def closer(self) -> str:
        """Who closed the territory, who orders the tied players; :class:`ValueError` while not known."""
        if self.closed_by is None:
            raise ValueError("the closer orders the tied players: name the closer first")
        return self.closed_by

    @property
    def lone(self) -> str | None:
        """The only player with influence, who must choose special action or rewards."""
        return next(iter(self.influence)) if len(self.influence) == 1 else None

    @property
    def ties(self) -> tuple[tuple[str, ...], ...]:
        """The groups of players with equal influence, which the closer must order."""
        return tuple(level for level in self.levels if len(level) > 1)

    @property
    def default_order(self) -> tuple[str, ...]:
        """Most to least influence, tied players in seat order (the order when nobody ties)."""
        return tuple(player for level in self.levels for player in level)

    def tie_order(self, chosen: Sequence[str]) -> TieOrder:
        """The order of influence as far as the closer has put the tied players in order, tapping them from
        first to last in ``chosen``: each tied group in the order tapped, its last player placed by itself.

        Raises :class:`RecordError` when ``chosen`` names a player who is not tied, or one twice.
        """
        tied = {player for level in self.ties for player in level}
        for number, player in enumerate(chosen):
            if player not in tied or player in chosen[:number]:
                raise RecordError(
                    Message(_("{player} is not among the tied players still to order"), player=player), ("order",)
                )
        order: list[str] = []
        undecided: list[str] = []
        for level in self.levels:
            rest = [player for player in level if player not in chosen]
            order += [player for player in chosen if player in level] + rest
            if len(rest) > 1:
                undecided += rest
        return TieOrder(tuple(chosen), tuple(undecided), None if undecided else tuple(order))

    def check_order(self, order: Sequence[str] | None) -> tuple[tuple[str, ...], tuple[Step, ...]]:
        """Validate the order of influence (``None`` when nobody ties); the order and its steps."""
        if order is None:
            if self.ties:
                tied = self.ties[0]
                raise RecordError(
                    Message(
                        _(
                            "{tied} tie with {influence} influence: 'order' must say how {closer}, who closed "
                            "the {territory}, ordered them"
                        ),
                        tied=Players(tied),
                        influence=self.influence[tied[0]],
                        closer=self.closer,
                        territory=self.territory,
                    ),
                    ("order",),
                )
            order = self.default_order
        order = tuple(order)
        if sorted(order) != sorted(self.influence):
            raise RecordError(
                Message(
                    _("must list every player with influence once ({expected}), not {given}"),
                    expected=Players(self.influence),
                    given=Players(order),
                ),
                ("order",),
            )
        for before, after in zip(order, order[1:], strict=False):
            if self.influence[before] < self.influence[after]:
                raise RecordError(
                    Message(
                        _("puts {before} ({first}) before {after} ({second}): only tied players may be ordered freely"),
                        before=before,
                        first=self.influence[before],
                        after=after,
                        second=self.influence[after],
                    ),
                    ("order",),
                )
        steps = [
            Step(
                "okanagan.influence.order",
                _("Order of influence: {order}."),
                {"order": Order(Figure(player, self.influence[player]) for player in order)},
            )
        ]
        for level in self.ties:
            chosen = [player for player in order if player in level]
            steps.append(
                Step(
                    "okanagan.influence.tie",
                    _(
                        "{tied} tie with {influence}; {closer}, who closed the {territory}, put them in this order: "
                        "{chosen}."
                    ),
                    {
                        "tied": Players(level),
                        "influence": self.influence[level[0]],
                        "closer": self.closer,
                        "territory": self.territory,
                        "chosen": Order(chosen),
                    },
                )
            )
        return order, tuple(steps)


def influence_of(buildings: Mapping[Building, int]) -> int:
    """A player's influence from their buildings in the territory."""
    return sum(building.influence * count for building, count in buildings.items())


def assess_influence(
    players: Sequence[str],
    territory: Territory,
    closed_by: str | None,
    buildings: Mapping[str, Mapping[Building, int]],
) -> InfluenceReport:
    """Step 1: each player's influence from their buildings, and the tied groups."""
    influence = {player: influence_of(buildings[player]) for player in players if player in buildings}
    influence = {player: value for player, value in influence.items() if value}
    values = sorted(set(influence.values()), reverse=True)
    levels = tuple(tuple(player for player in influence if influence[player] == value) for value in values)
    steps = []
    for player, value in influence.items():
        parts = Parts(Part(count, building) for building, count in buildings[player].items() if count)
        steps.append(
            Step(
                "okanagan.influence",
                _("{player} has {influence} influence: {parts}."),
                {"player": player, "influence": value, "parts": parts},
            )
        )
    if not influence:
        steps.append(
            Step(
                "okanagan.territory.empty",
                _("Nobody has a building in this {territory}: nobody collects and nobody takes a special action."),
                {"territory": territory},
            )
        )
    return InfluenceReport(territory, closed_by, influence, levels, tuple(steps))


# 2. The special action ---------------------------------------------------------------------------


def special_action_recipient(
    report: InfluenceReport, order: Sequence[str], lone_choice: LoneChoice | None
) -> tuple[str | None, tuple[Step, ...]]:
    """Step 2: who gets the special action, checking the lone player's choice; and the steps."""
    lone = report.lone
    if lone is None:
        if lone_choice is not None:
            raise RecordError(
                Message(_("only a player alone in the territory chooses between the special action and the rewards")),
                ("lone_choice",),
            )
        if not order:
            return None, ()
        last = order[-1]
        return last, (
            Step(
                "okanagan.special.lowest", _("{player}, last in the order, takes the special action."), {"player": last}
            ),
        )
    if lone_choice is None:
        raise RecordError(
            Message(
                _(
                    "{player} is alone in the {territory}: 'lone_choice' must say whether {player} took the special "
                    "action or the rewards"
                ),
                player=lone,
                territory=report.territory,
            ),
            ("lone_choice",),
        )
    if lone_choice is LoneChoice.REWARDS:
        return None, (
            Step(
                "okanagan.special.lone",
                _("{player} is alone and chose the rewards, not the special action."),
                {"player": lone},
            ),
        )
    return lone, (
        Step(
            "okanagan.special.lone",
            _("{player} is alone and chose the special action, not the rewards."),
            {"player": lone},
        ),
    )


# 3. Collection -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CollectionTurn:
    """One collector's turn: how many tokens they may take, and from what."""

    player: str
    influence: int
    left: Mapping[Reward, int]
    """The pool left when this player collects."""

    @property
    def may_take(self) -> int:
        """Their entitlement: their influence, or what is left if that is less."""
        return min(self.influence, sum(self.left.values()))

    def still_allowed(self, partial: Bag) -> dict[Reward, int]:
        """With ``partial`` tapped so far, how many more of each kind this player may take."""
        room = self.may_take - sum(partial.values())
        return {
            reward: min(room, count - partial.get(reward, 0))
            for reward, count in self.left.items()
            if room > 0 and count - partial.get(reward, 0) > 0
        }

    def settled(self, partial: Bag) -> dict[Reward, int] | None:
        """The whole pick once nothing is left to choose after ``partial`` (tapped so far), else ``None``.

        Nothing is left to choose when the entitlement is reached, when the rest of it is everything still in
        the pool, or when only one kind is still in the pool. With ``partial`` empty: whether the turn offers
        any choice at all.
        """
        rest = {reward: count - partial.get(reward, 0) for reward, count in self.left.items()}
        rest = {reward: count for reward, count in rest.items() if count > 0}
        room = self.may_take - sum(partial.values())
        pick = {reward: count for reward, count in partial.items() if count}
        if room == 0:
            return pick
        if room == sum(rest.values()) or len(rest) == 1:
            for reward, count in rest.items():
                taken = min(count, room)
                pick[reward], room = pick.get(reward, 0) + taken, room - taken
            return pick
        return None


@dataclass(frozen=True)
class CollectionPlan:
    """The pool of a territory and who collects from it, in which order, with what influence."""

    pool: Mapping[Reward, int]
    collectors: tuple[tuple[str, int], ...]
    """(player, influence) in collection order."""
    steps: tuple[Step, ...]

    def turns(self, picks: Mapping[str, Bag]) -> list[CollectionTurn]:
        """The turns so far: every collector whose pick is in ``picks``, then the one to pick next.

        Checks the picks given; the last turn returned is the collector still to pick, if any.
        """
        left = dict(self.pool)
        turns = []
        for player, influence in self.collectors:
            turn = CollectionTurn(player, influence, dict(left))
            turns.append(turn)
            if player not in picks:
                break
            _check_pick(turn, picks[player])
            for reward, count in picks[player].items():
                left[reward] -= count
        return turns

    def next_turn(self, picks: Mapping[str, Bag]) -> CollectionTurn | None:
        """The collector who picks next (who may take something), or ``None`` when collection is over."""
        turns = self.turns(picks)
        last = turns[-1] if turns else None
        if last is None or last.player in picks or last.may_take == 0:
            return None
        return last

    def check(self, picks: Mapping[str, Bag]) -> tuple[dict[str, Bag], tuple[Step, ...]]:
        """Step 5: check every pick; what each collector took, and the steps."""
        collectors = dict(self.collectors)
        for player, pick in picks.items():
            if player not in collectors and pick:
                raise RecordError(
                    Message(_("{player} has no influence here and cannot collect"), player=player), ("picks",)
                )
        complete = {player: picks.get(player, {}) for player, _influence in self.collectors}
        steps = []
        for turn in self.turns(complete):
            taken = complete[turn.player]
            if sum(taken.values()):
                steps.append(
                    Step(
                        "okanagan.collect.order",
                        _("{player} (influence {influence}) takes {taken}."),
                        {"player": turn.player, "influence": turn.influence, "taken": Tokens.of(taken)},
                    )
                )
            else:
                steps.append(
                    Step(
                        "okanagan.collect.order",
                        _("{player} takes nothing: the territory is empty."),
                        {"player": turn.player},
                    )
                )
        return {player: dict(bag) for player, bag in complete.items()}, tuple(steps)


def _check_pick(turn: CollectionTurn, pick: Bag) -> None:
    for reward, count in pick.items():
        if count > turn.left.get(reward, 0):
            raise RecordError(
                Message(
                    _("{player} took {count} × {reward} but the pool had {left} left"),
                    player=turn.player,
                    count=count,
                    reward=reward,
                    left=turn.left.get(reward, 0),
                ),
                ("picks",),
            )
    taken = sum(pick.values())
    if taken != turn.may_take:
        raise RecordError(
            Message(
                _("{player} took {taken} tokens but may take {allowed}"),
                player=turn.player,
                taken=taken,
                allowed=turn.may_take,
            ),
            ("picks",),
        )


def plan_collection(
    state: GameState,
    rewards: Bag,
    order: Sequence[str],
    influence: Mapping[str, int],
    *,
    first: str | None = None,
    lone_took_action: bool = False,
) -> CollectionPlan:
    """Step 4: the pool (``rewards`` capped by the supply after the special action) and the order.

    ``first`` is the player whose special action was ``choose_first``; a lone player who took the
    special action collects nothing.
    """
    pool = {reward: min(count, state.available(reward)) for reward, count in rewards.items()}
    pool = {reward: count for reward, count in pool.items() if count}
    steps = [Step("okanagan.collect.pool", _("The pool holds {pool}."), {"pool": Tokens.of(pool)})]
    for reward, count in rewards.items():
        if pool.get(reward, 0) < count:
            steps.append(
                Step(
                    "okanagan.supply.exhausted",
                    _("The territory shows {shown} × {reward} but the supply has {left} left to give."),
                    {"shown": count, "reward": reward, "left": pool.get(reward, 0)},
                )
            )
    if lone_took_action:
        return CollectionPlan(pool, (), tuple(steps))
    sequence = list(order)
    if first is not None:
        sequence.remove(first)
        sequence.insert(0, first)
        steps.append(
            Step("okanagan.special.choose_first", _("{player} collects first (special action)."), {"player": first})
        )
    steps.append(Step("okanagan.collect.order", _("Collection order: {order}."), {"order": Order(sequence)}))
    steps.append(Step("okanagan.collect.all", _("Each collector takes their influence in tokens while any are left.")))
    return CollectionPlan(pool, tuple((player, influence[player]) for player in sequence), tuple(steps))


# All steps ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PreparedTerritory:
    """A territory resolved up to collection: influence, order, special action, and the plan."""

    report: InfluenceReport
    order: tuple[str, ...]
    recipient: str | None
    plan: CollectionPlan
    steps: tuple[Step, ...]


def prepare_collection(state: GameState, event: TerritoryEvent) -> PreparedTerritory:
    """Steps 1 to 4 for a territory entered so far (its picks are ignored); applies the special action.

    ``state`` is changed by the special action: pass ``state.copy()`` to look ahead without changing it.
    """
    check_buildings_counted(state, event.buildings)
    report = assess_influence(state.players, event.territory, event.closed_by, event.buildings)
    return prepare_after_influence(state, report, event)


def prepare_after_influence(
    state: GameState, report: InfluenceReport, event: TerritoryEvent | TerritorySoFar
) -> PreparedTerritory:
    """Steps 2 to 4 of :func:`prepare_collection`, once ``report`` (step 1) is known: the order, the special
    action (applied to ``state``) and the plan of a territory entered up to its picks."""
    if not report.influence and event.order:
        raise RecordError(
            Message(
                _("nobody has influence here, so there is no order: leave it out, not {order}"),
                order=Players(event.order),
            ),
            ("order",),
        )
    order, order_steps = report.check_order(event.order) if report.influence else ((), ())
    recipient, action_steps = special_action_recipient(report, order, event.lone_choice)
    steps = [*report.steps, *order_steps, *action_steps]
    action = event.special_action
    if action is not None and recipient is None:
        if not report.influence:
            raise RecordError(
                Message(_("no special action can be taken: nobody has influence here")), ("special_action",)
            )
        raise RecordError(
            Message(_("no special action can be taken: {player} chose the rewards"), player=str(report.lone)),
            ("special_action",),
        )
    first = None
    if action is not None and recipient is not None:
        if isinstance(action, ChooseFirst) and report.lone is not None:
            raise RecordError(
                Message(
                    _(
                        "{player} chose the special action instead of the rewards, so 'choose_first' gives nothing: "
                        "record lone_choice 'rewards' instead"
                    ),
                    player=recipient,
                ),
                ("special_action",),
            )
        first = recipient if isinstance(action, ChooseFirst) else None
        steps.extend(apply_special_action(state, recipient, action, in_territory=True))
    elif recipient is not None:
        steps.append(
            Step("okanagan.special.lowest", _("{player}'s special action is not recorded."), {"player": recipient})
        )
    lone_took_action = report.lone is not None and recipient is not None
    plan = plan_collection(
        state, event.rewards, order, report.influence, first=first, lone_took_action=lone_took_action
    )
    return PreparedTerritory(report, order, recipient, plan, (*steps, *plan.steps))


def resolve_territory(state: GameState, event: TerritoryEvent, index: int) -> tuple[TerritoryOutcome, list[Step]]:
    """Resolve a recorded territory against ``state`` (which it changes); its outcome and steps."""
    prepared = prepare_collection(state, event)
    lone = prepared.report.lone
    if lone is not None and lone == prepared.recipient and any(event.picks.values()):
        raise RecordError(Message(_("{player} chose the special action and collects nothing"), player=lone), ("picks",))
    collected, pick_steps = prepared.plan.check(event.picks)
    for player, bag in collected.items():
        for reward, count in bag.items():
            state.take(player, reward, count)
    count_buildings(state, event.buildings, index)
    outcome = TerritoryOutcome(
        event=index,
        influence=dict(prepared.report.influence),
        order=prepared.order,
        special_action_to=prepared.recipient,
        collected={player: collected.get(player, {}) for player in prepared.report.influence},
    )
    return outcome, [*prepared.steps, *pick_steps]
