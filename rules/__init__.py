"""The rules of Okanagan, Small Islands and Cooper Island: pure Python, never Django.

Read a record, replay it and score it::

    >>> from rules import score_okanagan
    >>> result = score_okanagan({
    ...     "format": "okanagan-record/1", "players": ["White", "Red", "Yellow"],
    ...     "events": [{"type": "territory", "territory": "forest", "closed_by": "Red",
    ...                 "rewards": {"green-square": 3, "green-circle": 2, "green-hexagon": 1},
    ...                 "buildings": {"White": {"farm": 1, "silo": 1}, "Red": {"warehouse": 1},
    ...                               "Yellow": {"warehouse": 1}},
    ...                 "order": ["White", "Yellow", "Red"], "special_action": {"action": "gold_nugget"},
    ...                 "picks": {"White": {"green-square": 3, "green-circle": 1},
    ...                           "Yellow": {"green-circle": 1, "green-hexagon": 1}}}]})
    >>> result.to_json()["territories"][0]["special_action_to"]
    'Red'
    >>> print(result.sections[0].steps[4].text)
    Red and Yellow tie with 2; Red, who closed the forest, put them in this order: Yellow > Red.
"""

from __future__ import annotations

from .buildings import (
    buildings_room,
    check_buildings_counted,
    check_territory_buildings,
    territory_limits,
    territory_room,
)
from .catalogue import CATALOGUE, RULES, Game, Rule, Source
from .components import (
    MAX_SWAPS,
    NUGGET_SUPPLY_RANGE,
    REWARD_SUPPLY_RANGE,
    Building,
    Colour,
    ObjectiveKind,
    Reward,
    Shape,
    SpecialActionKind,
    Territory,
)
from .cooper_island import parse_cooper_island, score_cooper_island
from .documents import FORMATS, PARTS, Result, score_document, score_sheet
from .errors import CooperIslandError, RecordError, RulesError, SmallIslandsError
from .event_types import EventType
from .explanation import Section, Step
from .final_scoring import (
    Decider,
    FinalScore,
    ObjectiveScore,
    PlayerScore,
    explorer_sets,
    final_score,
    nugget_points,
    score_objective,
)
from .game import EventOutcome, GameState, new_game
from .okanagan import OkanaganResult, score_okanagan, score_record
from .partial import Question, TerritoryAnswer, answer_territory, question_of
from .promos import PROMO_EVENTS
from .ranking import PlayerResult
from .reading import read_json
from .record import (
    FORMAT as RECORD_FORMAT,
)
from .record import (
    Event,
    LoneChoice,
    NuggetLadder,
    ObjectiveCard,
    Options,
    Record,
    TerritorySoFar,
    card_of_rewards,
    check_entered,
    full_set_card,
    hide_objectives,
    on_one_card,
    parse_event,
    parse_players,
    parse_record,
    parse_special_action,
    parse_territory_so_far,
)
from .replay import apply_event, replay
from .small_islands import ALEXIS, last_tile_candidates, last_tile_needed, parse_small_islands, score_small_islands
from .special_actions import SpecialActionOptions, apply_special_action, exchange_options, special_action_options
from .territory import (
    CollectionPlan,
    CollectionTurn,
    InfluenceReport,
    PreparedTerritory,
    TieOrder,
    assess_influence,
    plan_collection,
    prepare_collection,
    special_action_recipient,
)
from .text import (
    MAX_NAME_LENGTH,
    MAX_NOTE_LENGTH,
    name_key,
    name_problem,
    names_problem,
    normal_text,
    note_problem,
    same_name,
    text_problem,
)
from .titles import TITLES, Title

__all__ = [
    "ALEXIS",
    "FORMATS",
    "PARTS",
    "PROMO_EVENTS",
    "Question",
    "TerritoryAnswer",
    "TerritorySoFar",
    "answer_territory",
    "check_entered",
    "parse_territory_so_far",
    "question_of",
    "RECORD_FORMAT",
    "EventType",
    "Game",
    "MAX_NAME_LENGTH",
    "MAX_NOTE_LENGTH",
    "MAX_SWAPS",
    "NUGGET_SUPPLY_RANGE",
    "REWARD_SUPPLY_RANGE",
    "name_key",
    "name_problem",
    "names_problem",
    "normal_text",
    "note_problem",
    "read_json",
    "same_name",
    "text_problem",
    "TITLES",
    "Title",
    "CATALOGUE",
    "RULES",
    "Building",
    "CollectionPlan",
    "CollectionTurn",
    "Colour",
    "CooperIslandError",
    "Event",
    "Decider",
    "FinalScore",
    "GameState",
    "EventOutcome",
    "InfluenceReport",
    "LoneChoice",
    "NuggetLadder",
    "ObjectiveCard",
    "ObjectiveKind",
    "OkanaganResult",
    "Options",
    "ObjectiveScore",
    "PlayerResult",
    "PlayerScore",
    "Record",
    "RecordError",
    "Result",
    "Reward",
    "Rule",
    "RulesError",
    "Section",
    "Shape",
    "SmallIslandsError",
    "PreparedTerritory",
    "TieOrder",
    "Source",
    "SpecialActionKind",
    "SpecialActionOptions",
    "Step",
    "Territory",
    "apply_event",
    "apply_special_action",
    "assess_influence",
    "buildings_room",
    "check_buildings_counted",
    "check_territory_buildings",
    "exchange_options",
    "explorer_sets",
    "final_score",
    "card_of_rewards",
    "full_set_card",
    "on_one_card",
    "hide_objectives",
    "last_tile_candidates",
    "last_tile_needed",
    "new_game",
    "nugget_points",
    "parse_cooper_island",
    "parse_event",
    "parse_players",
    "parse_record",
    "parse_special_action",
    "parse_small_islands",
    "plan_collection",
    "prepare_collection",
    "replay",
    "score_cooper_island",
    "score_document",
    "score_sheet",
    "score_objective",
    "score_okanagan",
    "score_record",
    "score_small_islands",
    "special_action_options",
    "special_action_recipient",
    "territory_limits",
    "territory_room",
]
