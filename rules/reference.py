"""What the rules reference shows besides the rules: the rulebook's worked examples, and the open
questions the rulebook leaves, each with the app's default, the other reading and the game option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .explanation import gettext_noop as _


@dataclass(frozen=True)
class WorkedExample:
    """A worked example printed in the rulebook, as a record the engine scores and explains."""

    id: str
    title: str
    summary: str
    reference: str
    rules: tuple[str, ...]
    """The rules it illustrates (ids of the catalogue)."""
    record: Mapping[str, object]
    """The example as an ``okanagan-record/1`` document."""


@dataclass(frozen=True)
class OpenQuestion:
    """A point the printed rules leave open: what the app does, the other reading, and how to switch."""

    id: str
    question: str
    default: str
    alternative: str
    option: str
    """The game option that switches to the alternative (``""`` when there is none)."""
    rules: tuple[str, ...]


FOREST_EXAMPLE: Final = WorkedExample(
    "forest",
    _("A forest completed by Red"),
    _(
        "White has a farm and a silo in the forest (4 influence), Red and Yellow a warehouse each (2). Red "
        "completed it and orders the tie: Yellow before Red. Red, last, takes the special action (a gold "
        "nugget); White takes 4 tokens, Yellow the last 2, Red none."
    ),
    "French rulebook, Calcul de l'influence dans le territoire (example)",
    ("okanagan.influence", "okanagan.influence.tie", "okanagan.special.lowest", "okanagan.collect.order"),
    {
        "format": "okanagan-record/1",
        "players": ["White", "Red", "Yellow"],
        "events": [
            {
                "type": "territory",
                "territory": "forest",
                "closed_by": "Red",
                "rewards": {"green-square": 3, "green-circle": 2, "green-hexagon": 1},
                "buildings": {"White": {"farm": 1, "silo": 1}, "Red": {"warehouse": 1}, "Yellow": {"warehouse": 1}},
                "order": ["White", "Yellow", "Red"],
                "special_action": {"action": "gold_nugget"},
                "picks": {
                    "White": {"green-square": 3, "green-circle": 1},
                    "Yellow": {"green-circle": 1, "green-hexagon": 1},
                },
            }
        ],
    },
)

FINAL_SCORING_EXAMPLE: Final = WorkedExample(
    "final-scoring",
    _("A final score of 59"),
    _(
        "Ann ends with 2 Explorer sets (8 VP), a territory card scored 3 times (15), a specific card 4 times "
        "(12) and a shape card twice (14): 49 VP; she has the most gold nuggets (+10): 59 VP."
    ),
    "French rulebook, Fin de partie (example)",
    (
        "okanagan.score.explorer",
        "okanagan.score.territory",
        "okanagan.score.specific",
        "okanagan.score.shape",
        "okanagan.score.shared_tokens",
        "okanagan.nuggets.places",
    ),
    {
        "format": "okanagan-record/1",
        "players": ["Ann", "Ben"],
        "events": [
            {
                "type": "adjust",
                "player": "Ann",
                "nuggets": 3,
                "rewards": {
                    "green-square": 3,
                    "green-hexagon": 3,
                    "green-circle": 3,
                    "blue-circle": 4,
                    "yellow-circle": 2,
                    "black-square": 2,
                },
                "note": "Ann's tokens at the end",
            },
            {"type": "adjust", "player": "Ben", "nuggets": 1, "rewards": {}, "note": "Ben's nugget"},
            {
                "type": "objectives",
                "player": "Ann",
                "cards": [
                    {"kind": "territory", "rewards": ["green-square", "green-hexagon", "green-circle"]},
                    {"kind": "specific", "rewards": ["blue-circle"]},
                    {"kind": "shape", "rewards": ["green-circle", "blue-circle", "yellow-circle"]},
                ],
            },
        ],
    },
)

EXAMPLES: Final[tuple[WorkedExample, ...]] = (FOREST_EXAMPLE, FINAL_SCORING_EXAMPLE)

OPEN_QUESTIONS: Final[tuple[OpenQuestion, ...]] = (
    OpenQuestion(
        "empty-territory",
        _("A territory is completed with no building in it: who collects, who takes the special action?"),
        _("Nobody: with no influence there is no order, so nobody is first or last."),
        _("Nobody has suggested another reading; the rulebook is silent."),
        "",
        ("okanagan.territory.empty",),
    ),
    OpenQuestion(
        "nuggets-few-players",
        _("With 2 or 3 players, does the player with the fewest gold nuggets score by place or score 0?"),
        _("By place: 10, 5, 2 (the second of two players scores 5)."),
        _("The fewest score 0 unless everybody ties (the second of two players scores 0)."),
        _("Gold nuggets: “Fewest nuggets score 0” (record option nugget_ladder: fewest_zero)."),
        ("okanagan.nuggets.by_place", "okanagan.nuggets.fewest_zero"),
    ),
    OpenQuestion(
        "two-rewards-shortage",
        _("“Two rewards” when only one token (or none) of that kind is left in the supply."),
        _("The player takes what is left."),
        _("The action cannot be chosen for that kind."),
        "",
        ("okanagan.special.two_rewards.shortage",),
    ),
    OpenQuestion(
        "round-two-start",
        _("Who starts round 2?"),
        _("Play simply continues clockwise from where round 1 ended."),
        _("The first player starts round 2 again."),
        "",
        ("okanagan.round.end",),
    ),
    OpenQuestion(
        "take-all",
        _("Must a player take all the tokens their influence entitles them to?"),
        _("Yes, while tokens are left (“claims a total number of rewards equal to their influence”)."),
        _("A player may take fewer."),
        "",
        ("okanagan.collect.all",),
    ),
)
