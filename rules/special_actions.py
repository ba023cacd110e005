"""The ten special actions: which choices are possible now, and their effect on the game.

Tokens that an action gives come from the general supply [I]; a kind whose supply ran out cannot be
taken (``okanagan.supply.exhausted``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import (
    CHOOSE_FIRST_ONLY_IN_TERRITORY,
    ChooseFirst,
    Exchange,
    Gifts,
    GoldNugget,
    NewObjectives,
    NewTiles,
    RewardOfShape,
    SpecialAction,
    Trade,
    TwoRewards,
)
from .components import MAX_SWAPS, Reward, SpecialActionKind
from .errors import RecordError
from .explanation import Gift, Message, Param, Series, Step
from .explanation import gettext_noop as _

if TYPE_CHECKING:  # the state is above the promo tiles' events, which apply special actions
    from .game import GameState


@dataclass(frozen=True)
class SpecialActionOptions:
    """What ``player`` may do with a special action in a given state: the choices to offer."""

    player: str
    possible: tuple[SpecialActionKind, ...]
    """The actions that are legal now, in the rulebook's order."""
    nuggets_left: int
    supply: Mapping[Reward, int]
    """Each kind that can be taken from the supply (for reward of a shape, two rewards)."""
    holders: Mapping[str, tuple[Reward, ...]]
    """Every other player holding a token, and the kinds they hold: for gifts, who must give and
    what they may give; for a trade, whom one may trade with and for what."""
    own: tuple[Reward, ...]
    """The kinds ``player`` holds (what they may trade away or exchange)."""
    exchange_shape: Mapping[Reward, tuple[Reward, ...]]
    """For each held kind, the kinds of the same colour and another shape left in the supply."""
    exchange_colour: Mapping[Reward, tuple[Reward, ...]]
    """For each held kind, the kinds of the same shape and another colour left in the supply."""


def special_action_options(state: GameState, player: str, *, collects: bool = True) -> SpecialActionOptions:
    """The special-action choices open to ``player`` now.

    ``collects`` says whether the player collects in a territory after the action: ``choose_first``
    is possible only then (not for the Volcano, nor for a lone player who gave up the rewards).
    """
    own = tuple(state.holdings[player].held())
    supply = state.available_bag()
    holders = {
        other: tuple(state.holdings[other].held())
        for other in state.players
        if other != player and state.holdings[other].tokens
    }
    exchange_shape = _swaps_open(state, player, SpecialActionKind.EXCHANGE_SHAPE)
    exchange_colour = _swaps_open(state, player, SpecialActionKind.EXCHANGE_COLOUR)
    possible = {
        SpecialActionKind.REWARD_OF_SHAPE: bool(supply),
        SpecialActionKind.TWO_REWARDS: True,
        SpecialActionKind.CHOOSE_FIRST: collects,
        SpecialActionKind.GOLD_NUGGET: True,
        SpecialActionKind.NEW_OBJECTIVES: True,
        SpecialActionKind.GIFTS: True,
        SpecialActionKind.TRADE: bool(own and holders),
        SpecialActionKind.NEW_TILES: True,
        SpecialActionKind.EXCHANGE_SHAPE: bool(exchange_shape),
        SpecialActionKind.EXCHANGE_COLOUR: bool(exchange_colour),
    }
    return SpecialActionOptions(
        player=player,
        possible=tuple(kind for kind in SpecialActionKind if possible[kind]),
        nuggets_left=state.nuggets_left,
        supply=supply,
        holders=holders,
        own=own,
        exchange_shape=exchange_shape,
        exchange_colour=exchange_colour,
    )


def exchange_options(
    state: GameState, player: str, kind: SpecialActionKind, swaps: Sequence[tuple[Reward, Reward]] = ()
) -> dict[Reward, tuple[Reward, ...]]:
    """The next swap ``player`` may make in an exchange of ``kind``, once ``swaps`` are made: for each kind
    they may give, the kinds they may take for it.

    The French rulebook (*Actions spéciales*) says only "Deux fois" (twice) [R]; the swaps are made one
    after the other [I], as :func:`apply_special_action` applies them: the next swap sees the player's
    tokens and the supply as the swaps so far left them. So it may give the token a swap just took, and take
    a kind a swap just gave back, unless that kind had run out: an exhausted kind stays gone
    (``okanagan.supply.exhausted`` [R]). With no swap made, this is the ``exchange_shape`` or
    ``exchange_colour`` of :func:`special_action_options`. Empty when no swap is possible, or after
    :data:`MAX_SWAPS` swaps.

    ``state`` is not changed. Raises :class:`ValueError` if ``kind`` is not an exchange, and
    :class:`RecordError` (under the field ``swaps``) if the swaps made so far are not legal.
    """
    if kind not in _EXCHANGES:
        raise ValueError(f"{kind.value} is not an exchange")
    if len(swaps) > MAX_SWAPS:
        raise RecordError(Message(_("an exchange makes 1 or 2 swaps, not {count}"), count=len(swaps)), ("swaps",))
    after = state.copy()
    _exchange(after, player, kind, tuple(swaps), f"okanagan.special.{kind.value}")
    return {} if len(swaps) == MAX_SWAPS else _swaps_open(after, player, kind)


_EXCHANGES = frozenset({SpecialActionKind.EXCHANGE_SHAPE, SpecialActionKind.EXCHANGE_COLOUR})


def _swaps_open(state: GameState, player: str, kind: SpecialActionKind) -> dict[Reward, tuple[Reward, ...]]:
    """For each kind ``player`` holds, the kinds left in the supply a swap of ``kind`` may take for it (kinds
    with none left out)."""
    supply = state.available_bag()
    offers = {
        given: tuple(taken for taken in supply if _fits(kind, given, taken)) for given in state.holdings[player].held()
    }
    return {given: takens for given, takens in offers.items() if takens}


def _fits(kind: SpecialActionKind, given: Reward, taken: Reward) -> bool:
    if kind is SpecialActionKind.EXCHANGE_SHAPE:
        return given.colour is taken.colour and given.shape is not taken.shape
    return given.shape is taken.shape and given.colour is not taken.colour


def apply_special_action(state: GameState, player: str, action: SpecialAction, *, in_territory: bool) -> list[Step]:
    """Check ``player``'s special action against ``state`` and apply it; the explanation's steps.

    Raises :class:`RecordError` (under the field ``special_action``) when the action is not legal.
    """
    try:
        return _apply(state, player, action, in_territory)
    except RecordError as error:
        raise RecordError(error.message, ("special_action", *error.where)) from None


def _apply(state: GameState, player: str, action: SpecialAction, in_territory: bool) -> list[Step]:
    rule = f"okanagan.special.{action.kind.value}"
    params: dict[str, Param] = {"player": player}
    match action:
        case GoldNugget():
            if not state.nuggets_left:
                return [Step(rule, _("{player} takes a gold nugget, but no cards are left: nothing."), params)]
            state.nuggets_left -= 1
            state.holdings[player].nuggets += 1
            return [
                Step(rule, _("{player} draws a gold nugget card ({left} left)."), params | {"left": state.nuggets_left})
            ]
        case RewardOfShape(shape=shape, reward=reward):
            if not state.available(reward):
                raise RecordError(
                    Message(_("no {reward} is left in the supply: choose another {shape}"), reward=reward, shape=shape)
                )
            state.take(player, reward)
            return [
                Step(rule, _("{player} takes a {reward} from the supply."), params | {"reward": reward}),
                Step("okanagan.special.from_supply", _("Special-action tokens come from the supply.")),
            ]
        case TwoRewards(reward=reward):
            count = min(2, state.available(reward))
            if count:
                state.take(player, reward, count)
            steps = [
                Step(
                    rule,
                    _("{player} takes {count} × {reward} from the supply."),
                    params | {"count": count, "reward": reward},
                )
            ]
            if count < 2:
                steps.append(
                    Step(
                        "okanagan.special.two_rewards.shortage",
                        _("Only {count} × {reward} left: {player} takes what is left."),
                        params | {"count": count, "reward": reward},
                    )
                )
            return steps
        case ChooseFirst():
            if not in_territory:
                raise RecordError(CHOOSE_FIRST_ONLY_IN_TERRITORY)
            return [Step(rule, _("{player} will choose their rewards first."), params)]
        case NewObjectives():
            return [Step(rule, _("{player} draws 2 objective cards and discards 2."), params)]
        case NewTiles():
            return [Step(rule, _("{player} replaces the face-up tiles."), params)]
        case Gifts(givers=givers):
            return _gifts(state, player, givers, rule)
        case Trade():
            return _trade(state, player, action, rule)
        case Exchange(kind=kind, swaps=swaps):
            return _exchange(state, player, kind, swaps, rule)


def _gifts(state: GameState, player: str, givers: Mapping[str, Reward], rule: str) -> list[Step]:
    if player in givers:
        raise RecordError(Message(_("{player} cannot give a gift to themself"), player=player), ("from",))
    for other in state.players:
        holding = state.holdings[other]
        if other != player and holding.tokens and other not in givers:
            raise RecordError(
                Message(_("{giver} holds tokens and must give one to {player}"), giver=other, player=player), ("from",)
            )
        if other in givers and not holding.tokens:
            raise RecordError(Message(_("{giver} holds no token and gives nothing"), giver=other), ("from",))
        if other in givers and not holding.rewards[givers[other]]:
            raise RecordError(_holds_none(other, givers[other]), ("from",))
    for giver, reward in givers.items():
        state.hand_over(giver, player, reward)
    gifts = Series(Gift(giver, reward) for giver, reward in givers.items())
    if not givers:
        return [Step(rule, _("Nobody else holds a token: {player} receives nothing."), {"player": player})]
    return [
        Step(
            rule,
            _("{player} receives a gift from each other player holding a token ({gifts})."),
            {"player": player, "gifts": gifts},
        )
    ]


def _trade(state: GameState, player: str, trade: Trade, rule: str) -> list[Step]:
    if trade.partner == player:
        raise RecordError(Message(_("{player} cannot trade with themself"), player=player), ("with",))
    if not state.holdings[player].rewards[trade.give]:
        raise RecordError(_holds_none(player, trade.give), ("give",))
    if not state.holdings[trade.partner].rewards[trade.get]:
        raise RecordError(_holds_none(trade.partner, trade.get), ("get",))
    state.hand_over(player, trade.partner, trade.give)
    state.hand_over(trade.partner, player, trade.get)
    return [
        Step(
            rule,
            _("{player} gives {partner} a {give} for a {get}."),
            {"player": player, "partner": trade.partner, "give": trade.give, "get": trade.get},
        )
    ]


def _exchange(
    state: GameState, player: str, kind: SpecialActionKind, swaps: tuple[tuple[Reward, Reward], ...], rule: str
) -> list[Step]:
    mismatch = (
        _("{given} for {taken} is not the same colour and another shape")
        if kind is SpecialActionKind.EXCHANGE_SHAPE
        else _("{given} for {taken} is not the same shape and another colour")
    )
    steps = []
    for given, taken in swaps:
        if not _fits(kind, given, taken):
            raise RecordError(Message(mismatch, given=given, taken=taken), ("swaps",))
        if not state.holdings[player].rewards[given]:
            raise RecordError(_holds_none(player, given), ("swaps",))
        if not state.available(taken):
            raise RecordError(Message(_("no {reward} is left in the supply"), reward=taken), ("swaps",))
        state.give_back(player, given)
        state.take(player, taken)
        steps.append(
            Step(
                rule,
                _("{player} gives the supply a {given} and takes a {taken}."),
                {"player": player, "given": given, "taken": taken},
            )
        )
    return steps


def _holds_none(player: str, reward: Reward) -> Message:
    return Message(_("{player} holds no {reward} to give"), player=player, reward=reward)
