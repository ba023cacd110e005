"""What an entry is made of: the kinds of event, each kind's stages, the record fields each stage fills,
and the error of a tap that makes no sense."""

from __future__ import annotations

from rules import Building, EventType
from scoring.kinds import KINDS

EVENT_KINDS = tuple(EventType)
MAX_COUNT = 99
# Stages of counters: going back to one, or to an earlier stage, keeps their counts.
COUNTER_STAGES = {"board", "changes", "cards", "count"}
STAGES: dict[str, tuple[str, ...]] = {kind: entry.stages for kind, entry in KINDS.items()}
# The event fields each stage fills: reopening a stage clears the fields of the stages after it.
STAGE_FIELDS = {
    "territory": ("territory",),
    "board": ("rewards", "buildings", "closed_by"),
    "order": ("order",),
    "lone": ("lone_choice",),
    "action": ("special_action",),
    "picks": ("picks",),
    "player": ("player",),
    "reward": ("reward",),
    "cards": ("cards",),
    "changes": ("rewards", "nuggets", "note"),
    "count": ("rewards", "nuggets"),
}


# What the person sees as one screen: the stages of a screen appear one below the other on it, each
# answered one folding into a line, instead of replacing the page.
SCREENS = {"order": "resolve", "lone": "resolve", "action": "resolve", "picks": "resolve", "confirm": "resolve"}
MAX_CHIP = 4
"""The largest count a chip offers for the reward icons of one kind in a territory (more: tap + again)."""
MAX_WHOLE_POOL = 2
"""The most icons of one kind a whole pool chip shows: a territory that shows each of its colour's three kinds
once or twice is entered in one tap (8 chips), not one a kind."""
MAX_WHOLE_TAKES = 12
"""The most whole takes of two kinds or more a collector is offered as one chip each (four rows at 390 px: 3 of a
pool of 4 kinds mix in 10 ways); with more choices than that, the chips of each kind alone are clearer."""
BUILDING_PAIR = (Building.WAREHOUSE, Building.SILO)
"""A player's two buildings in one tap of their row of the buildings grid: one more of each (a warehouse and a
silo are the pair a player most often shows in one territory: 4 and 4 of them in a 4-player game)."""
MAX_WHOLE_ORDERS = 6
"""The most whole orders of tied players offered as one button each (a tie of 3, or two ties of 2)."""


class BadOp(Exception):
    """A tap that makes no sense (a forged or outdated form)."""
