"""The players' vocabulary: one file per language of the site, whose phrasings belong to real rules."""

from __future__ import annotations

from django.conf import settings

from rules import CATALOGUE
from scoring.help.phrasings import asked_as, languages, vocabulary

SITE_LANGUAGES = {code for code, _name in settings.LANGUAGES}


def test_every_language_of_the_site_has_its_vocabulary_and_no_other() -> None:
    assert languages() == SITE_LANGUAGES


def test_every_phrasing_is_of_a_rule_and_every_rule_asked_about_is_asked_in_every_language() -> None:
    asked_about = {rule_id for language in SITE_LANGUAGES for rule_id in vocabulary(language).asked_as}
    assert asked_about <= set(CATALOGUE)
    for language in SITE_LANGUAGES:
        words = vocabulary(language)
        assert set(words.asked_as) == asked_about, language
        assert all(all(phrasings) and phrasings for phrasings in words.asked_as.values()), language
        assert words.players_words and all(said and meant for said, meant in words.players_words), language


def test_a_rule_without_phrasings_has_none() -> None:
    assert asked_as("okanagan.influence.tie", "fr").startswith("égalité d'influence qui passe devant; ")
    assert asked_as("okanagan.influence.tie", "xx") == "" and asked_as("nothing", "en") == ""
    assert asked_as("okanagan.influence.tie", "../fr") == ""
