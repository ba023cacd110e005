"""Several phones search at once: the analysis of words never mixes two threads' words (a Snowball stemmer keeps the
word it stems in itself, and a shared one raised IndexError, a 500 on a fresh server's first searches)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

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
