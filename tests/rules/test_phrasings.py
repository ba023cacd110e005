"""The players' phrasings belong to real rules, in the site's five languages."""

from __future__ import annotations

from rules import CATALOGUE
from rules.phrasings import ASKED_AS, PLAYER_WORDS, asked_as

LANGUAGES = {"en", "fr", "ko", "it", "zh-hant"}


def test_every_phrasing_is_of_a_rule_and_a_language_of_the_site() -> None:
    assert set(ASKED_AS) <= set(CATALOGUE)
    for rule_id, phrasings in ASKED_AS.items():
        assert set(phrasings) == LANGUAGES, rule_id
        assert all(phrasings[language] for language in LANGUAGES), rule_id
    assert set(PLAYER_WORDS) == LANGUAGES
    assert all(said and meant for pairs in PLAYER_WORDS.values() for said, meant in pairs)


def test_a_rule_without_phrasings_has_none() -> None:
    assert asked_as("okanagan.influence.tie", "fr").startswith("égalité d'influence qui passe devant; ")
    assert asked_as("okanagan.influence.tie", "xx") == "" and asked_as("nothing", "en") == ""
