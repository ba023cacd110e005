"""The special actions as a record holds them: one frozen dataclass per kind, and their JSON.

They are below :mod:`rules.record`, which reads them, and :mod:`rules.special_actions`, which applies them:
both, and the promo tiles (:mod:`rules.promos`), share them without importing each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final

from .components import Reward, Shape, SpecialActionKind
from .explanation import Message
from .explanation import gettext_noop as _

CHOOSE_FIRST_ONLY_IN_TERRITORY: Final = Message(_("'choose_first' can only be taken in a completed territory"))


@dataclass(frozen=True)
class GoldNugget:
    """Draw one gold nugget card, while cards are left."""

    kind: ClassVar = SpecialActionKind.GOLD_NUGGET


@dataclass(frozen=True)
class RewardOfShape:
    """Take one token of ``reward``, which has the tile's ``shape``, from the supply."""

    shape: Shape
    reward: Reward
    kind: ClassVar = SpecialActionKind.REWARD_OF_SHAPE


@dataclass(frozen=True)
class TwoRewards:
    """Take two tokens of ``reward`` from the supply, or what is left."""

    reward: Reward
    kind: ClassVar = SpecialActionKind.TWO_REWARDS


@dataclass(frozen=True)
class ChooseFirst:
    """Collect first in this territory, up to one's own influence."""

    kind: ClassVar = SpecialActionKind.CHOOSE_FIRST


@dataclass(frozen=True)
class NewObjectives:
    """Draw 2 objectives and discard 2; the kept cards are recorded by an ``objectives`` event."""

    kind: ClassVar = SpecialActionKind.NEW_OBJECTIVES


@dataclass(frozen=True)
class Gifts:
    """Each other player holding a token gives one: ``givers`` maps giver → the reward given."""

    givers: Mapping[str, Reward]
    kind: ClassVar = SpecialActionKind.GIFTS


@dataclass(frozen=True)
class Trade:
    """Swap ``give`` (one's own token) for ``get`` (a token of player ``partner``)."""

    partner: str
    give: Reward
    get: Reward
    kind: ClassVar = SpecialActionKind.TRADE


@dataclass(frozen=True)
class NewTiles:
    """Replace the face-up tiles; no effect on the score."""

    kind: ClassVar = SpecialActionKind.NEW_TILES


@dataclass(frozen=True)
class Exchange:
    """One or two swaps with the supply: each gives a held token and takes another kind.

    ``kind`` is ``exchange_shape`` (same colour, other shape) or ``exchange_colour`` (same shape,
    other colour).
    """

    kind: SpecialActionKind
    swaps: tuple[tuple[Reward, Reward], ...]


type SpecialAction = (
    GoldNugget | RewardOfShape | TwoRewards | ChooseFirst | NewObjectives | Gifts | Trade | NewTiles | Exchange
)


def special_action_to_json(action: SpecialAction) -> dict[str, object]:
    """A special action as the record's JSON object."""
    out: dict[str, object] = {"action": action.kind.value}
    match action:
        case RewardOfShape(shape=shape, reward=reward):
            out |= {"shape": shape.value, "reward": reward.value}
        case TwoRewards(reward=reward):
            out["reward"] = reward.value
        case Gifts(givers=givers):
            out["from"] = {giver: reward.value for giver, reward in givers.items()}
        case Trade(partner=partner, give=give, get=get):
            out |= {"with": partner, "give": give.value, "get": get.value}
        case Exchange(swaps=swaps):
            out["swaps"] = [[given.value, taken.value] for given, taken in swaps]
    return out
