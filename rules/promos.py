"""The promo tiles' events, each whole in one class: its record fields and how they are read
(:meth:`~VolcanoEvent.read`), how it changes the game and the steps that explain it
(:meth:`~VolcanoEvent.apply`), its title and its JSON.

A new promo tile is a class here, listed in :data:`PROMO_TILES`, with its kind in
:class:`~rules.event_types.EventType` and its rule in :mod:`rules.catalogue`; :mod:`rules.record` reads it
and :mod:`rules.replay` applies it from that list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, Protocol

from .actions import CHOOSE_FIRST_ONLY_IN_TERRITORY, ChooseFirst, SpecialAction, special_action_to_json
from .components import Reward
from .errors import RecordError
from .event_types import EventType
from .explanation import Message, Param, Step
from .explanation import gettext_noop as _
from .fields import Fields
from .special_actions import apply_special_action

if TYPE_CHECKING:  # the state is below the record, which reads these events
    from .game import GameState


class EventReader(Protocol):
    """What reading a promo tile's event needs of the record's reader (:mod:`rules.record`)."""

    def player(self, fields: Fields, key: str) -> str:
        """The player named in field ``key``; :class:`RecordError` if it names none of the game's."""
        ...

    def special_action(self, fields: Fields) -> SpecialAction:
        """The special action the ``fields`` hold."""
        ...


@dataclass(frozen=True)
class VolcanoEvent:
    """The Volcano promo tile: its player takes a special action at once."""

    player: str
    special_action: SpecialAction
    type: ClassVar = EventType.VOLCANO

    @classmethod
    def read(cls, reader: EventReader, fields: Fields) -> VolcanoEvent:
        """The event in the record's ``fields``; :class:`RecordError` at the field that is wrong."""
        action = reader.special_action(fields.nested("special_action"))
        if isinstance(action, ChooseFirst):
            raise fields.fail("special_action", CHOOSE_FIRST_ONLY_IN_TERRITORY)
        return cls(reader.player(fields, "player"), action)

    def apply(self, state: GameState) -> list[Step]:
        """Apply it to ``state``; the steps that explain it. :class:`RecordError` if it is not legal there."""
        return [
            Step(
                "okanagan.promo.volcano",
                _("{player} played the Volcano and takes a special action at once."),
                {"player": self.player},
            ),
            *apply_special_action(state, self.player, self.special_action, in_territory=False),
        ]

    @property
    def title(self) -> tuple[str, dict[str, Param]]:
        """The title of its explanation, a template (``{index}``: its place in the log) and its params."""
        return _("Event {index}: Volcano played by {player}"), {"player": self.player}

    def to_json(self) -> dict[str, object]:
        """The event as the record's JSON object."""
        return {"type": self.type, "player": self.player, "special_action": special_action_to_json(self.special_action)}


@dataclass(frozen=True)
class BeaverDamEvent:
    """The Beaver Dam promo tile: its player takes one token from the supply."""

    player: str
    reward: Reward
    type: ClassVar = EventType.BEAVER_DAM

    @classmethod
    def read(cls, reader: EventReader, fields: Fields) -> BeaverDamEvent:
        """The event in the record's ``fields``; :class:`RecordError` at the field that is wrong."""
        return cls(reader.player(fields, "player"), fields.choice("reward", Reward))

    def apply(self, state: GameState) -> list[Step]:
        """Apply it to ``state``; the steps that explain it. :class:`RecordError` if it is not legal there."""
        if not state.available(self.reward):
            raise RecordError(Message(_("no {reward} is left in the supply"), reward=self.reward), ("reward",))
        state.take(self.player, self.reward)
        return [
            Step(
                "okanagan.promo.beaver_dam",
                _("{player} played the Beaver Dam and takes a {reward}."),
                {"player": self.player, "reward": self.reward},
            )
        ]

    @property
    def title(self) -> tuple[str, dict[str, Param]]:
        """The title of its explanation, a template (``{index}``: its place in the log) and its params."""
        return _("Event {index}: Beaver Dam played by {player}"), {"player": self.player}

    def to_json(self) -> dict[str, object]:
        """The event as the record's JSON object."""
        return {"type": self.type, "player": self.player, "reward": self.reward.value}


type PromoEvent = VolcanoEvent | BeaverDamEvent
"""The event of a promo tile."""

PROMO_TILES: Final[tuple[type[PromoEvent], ...]] = (VolcanoEvent, BeaverDamEvent)
"""The promo tiles' events, in the order the site offers them."""

PROMO_EVENTS: Final = tuple(tile.type for tile in PROMO_TILES)
"""The kinds of event of the promo tiles: a game without them has none."""
