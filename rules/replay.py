"""Replaying events: :func:`replay` rebuilds a game's state from a record; :func:`apply_event` adds
one event to a state, checking that it is legal there.
"""

from __future__ import annotations

from .buildings import check_round_one
from .components import Reward
from .errors import RecordError
from .explanation import Change, Changes, Message, Param, Step, Tokens, ngettext_lazy
from .explanation import gettext_noop as _
from .game import EventOutcome, GameState, new_game
from .record import (
    AdjustEvent,
    Event,
    HoldingsEvent,
    ObjectivesEvent,
    Record,
    RoundEndEvent,
    TerritoryEvent,
)
from .territory import resolve_territory


def replay(record: Record) -> GameState:
    """Replay every event of ``record``; raises :class:`RecordError` at the first illegal one."""
    state = new_game(record.players, record.options)
    for index, event in enumerate(record.events):
        _apply_in_place(state, event, index)  # no undo needed: an invalid record is refused whole
    return state


def apply_event(state: GameState, event: Event, index: int | None = None) -> EventOutcome:
    """Check ``event`` against ``state`` and apply it; ``index`` is its place in the record.

    The state is changed only when the event is legal: on :class:`RecordError` it is left as it was.
    """
    trial = state.copy()
    outcome = _apply_in_place(trial, event, len(state.log) if index is None else index)
    state.__dict__.update(trial.__dict__)
    return outcome


def _apply_in_place(state: GameState, event: Event, index: int) -> EventOutcome:
    try:
        steps = _apply(state, event, index)
    except RecordError as error:
        raise error.in_event(index, event.type) from None
    outcome = EventOutcome(index, event, tuple(steps))
    state.log.append(outcome)
    return outcome


def _apply(state: GameState, event: Event, index: int) -> list[Step]:
    match event:
        case TerritoryEvent():
            outcome, steps = resolve_territory(state, event, index)
            state.territories.append(outcome)
            return steps
        case ObjectivesEvent(player=player, cards=cards):
            state.holdings[player].objectives = cards
            if state.round == 2:
                state.kept_after_round_one.add(player)
            return [
                Step(
                    "okanagan.objectives.keep",
                    ngettext_lazy(
                        "{player} keeps {count} objective card.",
                        "{player} keeps {count} objective cards.",
                    ),
                    {"player": player, "count": len(cards)},
                )
            ]
        case RoundEndEvent():
            if state.round != 1:
                raise RecordError(Message(_("round 1 has already ended: a game has two rounds")))
            check_round_one(state)
            state.round = 2
            return [Step("okanagan.round.end", _("Round 1 is over; round 2 begins."))]
        case AdjustEvent():
            return _adjust(state, event)
        case HoldingsEvent():
            return _holdings(state, event)
        case _:  # a promo tile's event applies itself (rules.promos)
            return event.apply(state)


def _adjust(state: GameState, event: AdjustEvent) -> list[Step]:
    holding = state.holdings[event.player]
    for reward, change in event.rewards.items():
        if holding.rewards[reward] + change < 0:
            raise RecordError(
                Message(
                    _("{player} holds {held} × {reward}, cannot give back {count}"),
                    player=event.player,
                    held=holding.rewards[reward],
                    reward=reward,
                    count=-change,
                ),
                ("rewards",),
            )
        if change > state.correctable(reward):
            raise RecordError(
                Message(
                    _("the supply has {left} × {reward} left, cannot give {count}"),
                    left=state.correctable(reward),
                    reward=reward,
                    count=change,
                ),
                ("rewards",),
            )
    if holding.nuggets + event.nuggets < 0:
        raise RecordError(
            Message(
                ngettext_lazy(
                    "{player} holds {held} nugget, cannot give back {count}",
                    "{player} holds {held} nuggets, cannot give back {count}",
                    "held",
                ),
                player=event.player,
                held=holding.nuggets,
                count=-event.nuggets,
            ),
            ("nuggets",),
        )
    if event.nuggets > state.nuggets_left:
        raise RecordError(
            Message(
                ngettext_lazy(
                    "only {left} nugget card is left, cannot take {count}",
                    "only {left} nugget cards are left, cannot take {count}",
                    "left",
                ),
                left=state.nuggets_left,
                count=event.nuggets,
            ),
            ("nuggets",),
        )
    steps: list[Step] = []
    for reward, change in event.rewards.items():
        if reward in state.exhausted:  # a correction's give-back stays for corrections only
            state.corrected_back[reward] = state.corrected_back.get(reward, 0) - change
            if change > 0:
                steps.append(
                    Step(
                        "okanagan.adjust.exhausted",
                        _(
                            "{player} takes {count} × {reward} that a correction gave back; the kind stays "
                            "exhausted for the rest of the game."
                        ),
                        {"player": event.player, "count": change, "reward": reward},
                    )
                )
        if change > 0:
            state.take(event.player, reward, change)
        else:
            state.give_back(event.player, reward, -change)
    holding.nuggets += event.nuggets
    state.nuggets_left -= event.nuggets
    changes = [Change(reward, event.rewards[reward]) for reward in Reward if event.rewards.get(reward, 0)]
    if event.nuggets:
        changes.append(Change(None, event.nuggets))
    params: dict[str, Param] = {"player": event.player, "changes": Changes(changes)}
    if event.note:
        return [
            Step("okanagan.adjust", _("Correction for {player}: {changes} ({note})."), params | {"note": event.note}),
            *steps,
        ]
    return [Step("okanagan.adjust", _("Correction for {player}: {changes}."), params), *steps]


def _holdings(state: GameState, event: HoldingsEvent) -> list[Step]:
    """Set the player's tokens and nuggets to their count: what they gain comes from the supply and what they
    lose goes back to it, so every kind held by all players stays within the box's tokens (an exhausted kind
    included: a count says what the table holds, it takes nothing from the pool)."""
    player, holding = event.player, state.holdings[event.player]
    state.final_counts.add(player)
    box = state.options.reward_supply
    for reward in Reward:
        count = event.rewards.get(reward, 0)
        if count - holding.rewards[reward] > state.supply[reward]:
            raise RecordError(
                Message(
                    _(
                        "{player} cannot hold {count} × {reward}: the game has {limit} and the other players "
                        "hold {others}"
                    ),
                    player=player,
                    count=count,
                    reward=reward,
                    limit=box,
                    others=box - state.supply[reward] - holding.rewards[reward],
                ),
                ("rewards",),
            )
    if event.nuggets - holding.nuggets > state.nuggets_left:
        cards = state.options.nugget_supply
        raise RecordError(
            Message(
                _(
                    "gold nuggets of {player}: {count} is too many (the game's nugget cards: {limit}; held by the "
                    "other players: {others})"
                ),
                player=player,
                count=event.nuggets,
                limit=cards,
                others=cards - state.nuggets_left - holding.nuggets,
            ),
            ("nuggets",),
        )
    before = holding.tokens, holding.nuggets
    for reward in Reward:
        change = event.rewards.get(reward, 0) - holding.rewards[reward]
        state.supply[reward] -= change
        holding.rewards[reward] += change
        if change > 0 and state.supply[reward] == 0:
            state.exhausted.add(reward)
    state.nuggets_left -= event.nuggets - holding.nuggets
    holding.nuggets = event.nuggets
    params: dict[str, Param] = {
        "player": player,
        "rewards": Tokens.of(event.rewards),
        "tokens": holding.tokens,
        "nuggets": event.nuggets,
    }
    steps = [
        Step(
            "okanagan.quick_count",
            _("{player} counted their holdings: {rewards} (tokens: {tokens}); gold nuggets: {nuggets}."),
            params,
        )
    ]
    if before != (0, 0):
        steps.append(
            Step(
                "okanagan.quick_count",
                _(
                    "This count replaces what the earlier events gave {player} (tokens: {tokens}; "
                    "gold nuggets: {nuggets})."
                ),
                {"player": player, "tokens": before[0], "nuggets": before[1]},
            )
        )
    return steps
