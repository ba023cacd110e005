"""One name for each kind of objective card, in every language: the statistics call the cards what the entry's
buttons and the rules page call them (issue 32: English said "Territory set" in the entry and "Territory series"
in the statistics)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from rules import Colour, ObjectiveKind, Shape
from rules.catalogue import CATALOGUE
from scoring.wording import CARDS, FULL_SETS, OBJECTIVE_KINDS

FULL_SET_OF = {ObjectiveKind.TERRITORY: Colour, ObjectiveKind.SHAPE: Shape}
RULE_OF = {ObjectiveKind.TERRITORY: "okanagan.score.territory", ObjectiveKind.SHAPE: "okanagan.score.shape"}


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@pytest.mark.parametrize("kind", [ObjectiveKind.TERRITORY, ObjectiveKind.SHAPE])
def test_the_statistics_name_each_set_card_as_the_entry_and_the_rules_do(language: str, kind: ObjectiveKind) -> None:
    with translation.override(language):
        name = str(OBJECTIVE_KINDS[kind]).lower()
        assert name in str(CARDS[kind]).lower()
        assert name in translation.gettext(CATALOGUE[RULE_OF[kind]].text).lower()
        full_sets = [str(label).lower() for key, label in FULL_SETS.items() if isinstance(key, FULL_SET_OF[kind])]
        assert full_sets and all(name in label for label in full_sets)
