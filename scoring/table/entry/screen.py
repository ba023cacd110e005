"""What one screen of the entry shows: the stage to do, what it offers, and its error."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations, product
from typing import Any, NamedTuple

from rules import (
    Building,
    CollectionTurn,
    Colour,
    EventOutcome,
    InfluenceReport,
    Reward,
    Shape,
    SpecialActionOptions,
    Territory,
    TieOrder,
    full_set_card,
)
from rules.components import whole_game_buildings
from scoring.table.entry.draft import Draft
from scoring.table.entry.stages import (
    BUILDING_PAIR,
    MAX_CHIP,
    MAX_WHOLE_ORDERS,
    MAX_WHOLE_POOL,
    MAX_WHOLE_TAKES,
    SCREENS,
    STAGES,
)


class WholeTake(NamedTuple):
    """A collector's whole take, tapped as one chip: each kind with its count, and its icons one by one."""

    parts: tuple[tuple[Reward, int], ...]

    @property
    def icons(self) -> list[Reward]:
        return [reward for reward, count in self.parts for _ in range(count)]

    @property
    def stacks(self) -> list[list[Reward]]:
        """Its icons kind by kind (a pool chip shows each kind's icons one above the other)."""
        return [[reward] * count for reward, count in self.parts]

    @property
    def encoded(self) -> str:
        """Its kinds and counts as an op writes them: ``green-square=2+blue-circle=1``."""
        return "+".join(f"{reward.value}={count}" for reward, count in self.parts)

    @property
    def op(self) -> str:
        """The chip's op: ``take:all:green-square=2+blue-circle=1``."""
        return f"take:all:{self.encoded}"


def mixed_takes(left: list[tuple[Reward, int]], room: int, most: int) -> list[WholeTake] | None:
    """Every way to take exactly ``room`` tokens from the pool ``left`` (kinds in order) that mixes two kinds
    or more, in the pool's order; ``None`` once there are more than ``most``."""
    takes: list[WholeTake] = []

    def extend(start: int, parts: tuple[tuple[Reward, int], ...], rest: int) -> bool:
        if rest == 0:
            if len(parts) > 1:
                takes.append(WholeTake(parts))
            return len(takes) <= most
        for number in range(start, len(left)):
            reward, count = left[number]
            for taken in range(min(count, rest), 0, -1):
                if not extend(number + 1, (*parts, (reward, taken)), rest - taken):
                    return False
        return True

    return takes if extend(0, (), room) else None


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
    room: dict[str, dict[Building, int]] = field(default_factory=dict)
    """A territory: how many buildings of each type each player can show around it (what they have at this
    point of the game, within what their buildings can still count in over the game: a cell of the buildings
    grid goes back to none past it; with none left, a tap is refused with the reason)."""
    round: int = 1
    """The game's round: in round 1 a cell of the buildings grid goes back to none past what round 1 gives."""
    note: str = ""
    """Why the tapped cell of the buildings grid went back to none before the whole game's supply (what round 1
    gives, or what the player's buildings can still count in)."""
    cell_op: str = ""
    """The tap (its op) on a cell of the buildings grid that ``error`` refuses or ``note`` explains: said next
    to that cell, where the player looks."""
    tie: TieOrder | None = None
    """The closer's tie-break as tapped so far, while it is being entered."""
    recipient: str | None = None
    options: SpecialActionOptions | None = None
    next_swaps: dict[Reward, tuple[Reward, ...]] = field(default_factory=dict)
    """An exchange under way: the next swap's choices (given → takens), after the swaps made so far."""
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
    def said_row(self) -> int | None:
        """The seat whose row of the buildings grid the tap refused or explained was in (its reason goes under
        that row)."""
        parts = self.cell_op.split(":")
        if (self.error or self.note) and len(parts) == 4 and parts[:2] == ["cycle", "buildings"] and parts[2].isdigit():
            seat = int(parts[2])
            return seat if seat < len(self.players) else None  # a forged seat's refusal is said at the top
        return None

    @property
    def event(self) -> dict[str, Any]:
        return self.draft.event

    @property
    def stages(self) -> tuple[str, ...]:
        return STAGES[self.draft.kind]

    @property
    def screen_name(self) -> str:
        """What the person sees as one screen: the stages of the territory's resolution share one."""
        return SCREENS.get(self.stage, self.stage)

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
    def whole_pools(self) -> list[tuple[WholeTake, bool]]:
        """The territory's icons of its colour in one tap, when it shows each of the three kinds once or twice (as
        the icons lie on the tiles: ■■⬢●): each pool, and whether it is the one entered. A pool of other counts is
        tapped kind by kind (:attr:`chips`)."""
        home = self.home_rewards
        if not home:
            return []
        entered = self.event.get("rewards", {})
        counts = product(range(1, MAX_WHOLE_POOL + 1), repeat=len(home))
        pools = [WholeTake(tuple(zip(home, pool, strict=True))) for pool in counts]
        return [(pool, all(entered.get(reward.value, 0) == count for reward, count in pool.parts)) for pool in pools]

    @property
    def chips(self) -> range:
        """The counts a reward icon's chips offer (more: its + button)."""
        return range(1, MAX_CHIP + 1)

    def most_buildings(self, player: str, building: Building) -> int:
        """The most a cell of the buildings grid counts to before a tap takes it back to none: what a player has
        in a whole game, or what their buildings of that type can still count in after the earlier territories."""
        most = whole_game_buildings(len(self.players))[building]
        room = self.room.get(player, {}).get(building, most)
        return min(most, room) if room else most

    @property
    def building_rows(self) -> list[tuple[int, str, list[tuple[Building, int, int]], int]]:
        """The buildings grid: for each player, their seat, name, count and most (:meth:`most_buildings`) of
        each building type, influence."""
        buildings = self.event.get("buildings", {})
        influence = self.report.influence if self.report else {}
        return [
            (
                seat,
                player,
                [
                    (kind, buildings.get(player, {}).get(kind.value, 0), self.most_buildings(player, kind))
                    for kind in Building
                ],
                influence.get(player, 0),
            )
            for seat, player in enumerate(self.players)
        ]

    @property
    def building_pair(self) -> tuple[Building, Building]:
        """The two buildings a tap of a player's row adds one of each (:data:`BUILDING_PAIR`)."""
        return BUILDING_PAIR

    @property
    def pick_rows(self) -> list[tuple[Reward, int, int, range]]:
        """The current collector's choice: each kind in the pool, how many are left, how many they took, and
        the counts its chips offer."""
        if self.turn is None:
            return []
        partial = self.draft.partial
        return [
            (reward, left, partial.get(reward.value, 0), range(1, min(left, self.turn.may_take) + 1))
            for reward, left in self.turn.left.items()
            if left
        ]

    @property
    def whole_orders(self) -> list[tuple[str, tuple[str, ...]]]:
        """The closer's tie-break in one tap, before any tied player is tapped, when it would take more than one
        tap (a tie of three, or two ties) and the orders are few: each as its op and the whole order."""
        report, tie = self.report, self.tie
        if report is None or tie is None or tie.chosen or len(tie.undecided) < 3:
            return []
        groups = [list(permutations(level)) if len(level) > 1 else [level] for level in report.levels]
        orders = [tuple(player for level in levels for player in level) for levels in product(*groups)]
        if len(orders) > MAX_WHOLE_ORDERS:
            return []
        tied = {player for level in report.ties for player in level}
        return [
            ("tie:all:" + ".".join(self.seat[player] for player in order if player in tied), order) for order in orders
        ]

    @property
    def answered_after_board(self) -> bool:
        """Whether the board is open again ("Change") after the resolution's first question was answered: the
        board then ends with "Done", keeping the later answers that still hold, instead of asking again."""
        if self.stage != "board" or self.report is None:
            return False
        if self.report.ties:
            return "order" in self.event
        if self.report.lone is not None:
            return "lone_choice" in self.event
        return "action" in self.draft.done and self.recipient is not None

    @property
    def whole_takes(self) -> list[WholeTake]:
        """The current collector's whole takes that mix kinds, one chip each, before any token is tapped, when
        they are few (a take of one kind is already one chip of its row)."""
        if self.turn is None or self.draft.partial or self.turn.may_take < 2:
            return []
        left = [(reward, count) for reward, count in self.turn.left.items() if count]
        return mixed_takes(left, self.turn.may_take, MAX_WHOLE_TAKES) or []

    @property
    def all_rewards(self) -> list[Reward]:
        """The twelve kinds in the record's order."""
        return list(Reward)

    @property
    def full_sets(self) -> list[tuple[str, tuple[Reward, ...]]]:
        """The full set cards one tap adds: a colour's (territory set), then a shape's (shape set); each as
        its op's argument (``colour:green``) and its icons."""
        sets: list[Colour | Shape] = [*Colour, *Shape]
        return [(f"{type(of).__name__.lower()}:{of.value}", full_set_card(of).rewards) for of in sets]

    @property
    def action_kind(self) -> str:
        """The special action chosen so far, or ``""``."""
        action = self.event.get("special_action")
        return str(action.get("action", "")) if isinstance(action, dict) else ""

    @property
    def others_entered(self) -> bool:
        """Whether icons of other colours are entered (they can be cleared at once)."""
        return any(self.event.get("rewards", {}).get(reward.value) for reward in self.other_rewards)
