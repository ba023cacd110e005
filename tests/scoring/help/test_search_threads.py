"""Several phones search at once: a fresh process's indexes are the same whichever threads build them, and the
analysis of words never mixes two threads' words (a Snowball stemmer keeps the word it stems in itself, and a
shared one raised IndexError, a 500 on a fresh server's first searches)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from scoring.help.search import _index, search_rules
from scoring.help.words import words

TEXTS = {
    "fr": "Quand des joueurs sont à égalité d'influence, le joueur qui a complété le territoire les départage "
    "et prend l'action spéciale restante après les récompenses distribuées",
    "en": "When players tie on influence, the player who completed the territory orders them and takes rewards",
    "it": "Quando i giocatori sono in parità di influenza, il giocatore che ha completato il territorio decide",
}


def test_words_are_the_same_when_many_threads_stem_at_once() -> None:
    expected = {language: words(text, language) for language, text in TEXTS.items()}
    jobs = [language for language in TEXTS for _ in range(200)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda language: (language, words(TEXTS[language], language)), jobs))
    assert all(found == expected[language] for language, found in results)


def test_a_fresh_process_s_first_searches_at_once_find_what_one_search_finds() -> None:
    """The index of each language is built at its first search, maybe by several threads at once."""
    questions = [("qui prend l'action spéciale", "fr"), ("what if two players tie with the closer", "en")]
    expected = {question: [hit.rule.id for hit in search_rules(*question)] for question in questions}
    _index.cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda question: (question, search_rules(*question)), questions * 20))
    assert all([hit.rule.id for hit in hits] == expected[question] for question, hits in results)
