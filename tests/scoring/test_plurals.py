"""Counts on the pages and in the engine's explanations take the reader's plural form."""

from __future__ import annotations

from django.test import Client
from django.utils import translation

from rules import score_document
from scoring.models import Group
from scoring.wording import explain
from tests.rules.builders import record
from tests.scoring.history.test_stats import cooper


def steps_in(language: str, document: dict[str, object]) -> list[str]:
    with translation.override(language):
        return [explain(step) for section in score_document(document).sections for step in section.steps]


ONE_NUGGET_ONE_CARD = record(
    {"type": "objectives", "player": "Ann", "cards": [{"kind": "specific", "rewards": ["green-square"]}]},
    {"type": "adjust", "player": "Ann", "nuggets": 1},
)


def test_the_engine_s_sentences_take_the_singular_for_one_in_french_and_italian() -> None:
    french = steps_in("fr", ONE_NUGGET_ONE_CARD)
    assert "Ann garde 1 carte Objectif." in french
    assert "Ann est à la place 1 avec 1 pépite : 10 PV." in french
    italian = steps_in("it", ONE_NUGGET_ONE_CARD)
    assert "Ann tiene 1 carta Obiettivo." in italian
    assert "Ann è in posizione 1 con 1 pepita: 10 PV." in italian


def test_the_fewest_nuggets_option_says_scores_for_one_player_and_score_for_several() -> None:
    one = record({"type": "adjust", "player": "Ann", "nuggets": 2}, {"type": "adjust", "player": "Ben", "nuggets": 1},
                 nugget_ladder="fewest_zero")  # fmt: skip
    two = record({"type": "adjust", "player": "Ann", "nuggets": 2}, nugget_ladder="fewest_zero")  # Ben and Cy: 0
    assert "Cy, with the fewest nuggets (0), scores 0 (game option)." in steps_in("en", one)
    assert "Ben and Cy, with the fewest nuggets (0), score 0 (game option)." in steps_in("en", two)
    assert "Cy, avec le moins de pépites (0), marque 0 (option de partie)." in steps_in("fr", one)
    assert "Ben et Cy, avec le moins de pépites (0), marquent 0 (option de partie)." in steps_in("fr", two)
    assert "Cy, con meno pepite (0), prende 0 (opzione di partita)." in steps_in("it", one)


def test_a_cooper_island_sheet_says_one_anchor_and_several_anchors(group: Group) -> None:
    sheet = {
        "format": "cooper-island-sheet/1",
        "players": [
            {"name": name, "logbooks": 1, "spaces_past_logbook": [0, 1], "royal_orders": {}, "buildings": 0,
             "leftovers": {"coins": 0, "resources": 0, "cartographer": 0, "tiles": 0}, "anchors": anchors,
             "empty_spaces": 0}
            for name, anchors in (("Ann", 1), ("Ben", 3))
        ],
    }  # fmt: skip
    text = "\n".join(steps_in("en", sheet))
    assert "Ann: 1 anchor, -1." in text and "Ben: 3 anchors, -3." in text
    assert "Ann: 1 logbook × 5 = 5." in text and "Ann: 1 space sailed past the last logbooks." in text


def test_the_player_page_and_the_statistics_say_one_win_and_one_game(member_client: Client, group: Group) -> None:
    cooper(group, ("Ann", 50, 1), ("Ben", 40, 1))
    ann = group.profiles.get(name="Ann")
    page = member_client.get(f"/groups/{group.pk}/players/{ann.pk}/").content.decode()
    assert "1 win · 1 play · average 50.0 · best 50" in page
    stats = member_client.get(f"/groups/{group.pk}/stats/").content.decode()
    assert "Ann – Ben: 1 – 0 (0 tied) in 1 game<" in stats and "2 players: 1/1" in stats
    french = member_client.get(f"/groups/{group.pk}/players/{ann.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "1 victoire · 1 partie" in french
