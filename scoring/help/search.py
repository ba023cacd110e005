"""Searching the rules, in the reader's language, for questions as players ask them.

One function, :func:`search_rules`. A question and every rule go through the same analysis
(:mod:`scoring.help.words`: accents and case folded, stop words dropped, Snowball stems for English, French
and Italian, character bigrams for Chinese and Korean, the players' words for the game's things). The
index holds each rule's terms, with the ways players ask about it (:mod:`scoring.help.phrasings`); it is
the catalogue's hundred-odd rules, so it lives in memory, built once a process for each language at its
first search, from the ``rules`` catalogue and its translations. The rules holding a term of the question
are ranked by BM25. The rules of the game the reader is looking at come first among rules that match about
as well; then printed rules before the app's readings.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.utils import translation

from rules import RULES, Rule, Source
from rules.catalogue import Game
from scoring.help.phrasings import asked_as
from scoring.help.words import Term, plain, query_terms, words

__all__ = ["Hit", "plain", "search_rules", "terms"]

# Between rules that match as well, the printed rules come first, house-rule options last.
SOURCE_ORDER = (Source.RULEBOOK, Source.GAME_HELP, Source.INFERRED, Source.HOUSE_RULE, Source.RECORD_FORMAT)
SOURCE_WEIGHT = {
    Source.RULEBOOK: 1.0,
    Source.GAME_HELP: 1.0,
    Source.INFERRED: 0.95,
    Source.HOUSE_RULE: 0.85,
    Source.RECORD_FORMAT: 0.85,
}
"""A printed rule is what a question is most often about; an option or a convention of the app's less."""
MAX_TERMS = 24
K1 = 1.2
B = 0.5
GAME_BOOST = 1.6
"""A rule of the game the reader is looking at scores this many times its match."""
CUTOFF = 0.2
"""Rules scoring less than this share of the best one are not shown."""
GAME_NAMES = {Game.OKANAGAN: "Okanagan", Game.SMALL_ISLANDS: "Small Islands", Game.COOPER_ISLAND: "Cooper Island"}


@dataclass(frozen=True)
class Hit:
    """A rule found, with its texts in the reader's language."""

    rule: Rule
    title: str
    text: str
    score: float
    """How well it matches (BM25, times the game's boost)."""


def terms(query: str, language: str = "en") -> list[str]:
    """The terms of a query as the index holds them (without the players' words' additions)."""
    return [term.text for term in query_terms(query, language) if term.weight == 1.0]


def search_rules(query: str, language: str, limit: int = 8, game: str = "") -> list[Hit]:
    """The rules answering ``query`` in ``language``, best first; ``game`` (a :class:`Game` value)
    is the game the reader is looking at, whose rules come first. A question that finds nothing in the reader's
    language is asked in the others (a phone set to English, a question typed in Korean), and the rules it finds
    are shown in the reader's language."""
    scored = _scored(query, language, game)
    if not scored:
        others = (_scored(query, other, game) for other, _name in settings.LANGUAGES if other != language)
        found = max(others, key=lambda hits: max((hit.score for hit in hits), default=0.0), default=[])
        texts = _index(language).texts
        scored = [Hit(hit.rule, *texts[hit.rule.id], hit.score) for hit in found if hit.rule.id in texts]
    if not scored:
        return []
    scored.sort(key=lambda hit: (-round(hit.score, 6), SOURCE_ORDER.index(hit.rule.source), _ORDER[hit.rule.id]))
    best = scored[0].score
    return [hit for hit in scored if hit.score >= CUTOFF * best][:limit]


_ORDER = {rule.id: index for index, rule in enumerate(RULES)}


def _scored(query: str, language: str, game: str) -> list[Hit]:
    """Every rule of the index of ``language`` that ``query`` matches, with its score (unsorted)."""
    asked = query_terms(query[:200], language)[:MAX_TERMS]
    index = _index(language)
    matches = [index.postings(term) for term in asked]
    found = sorted(set().union(*(counts for counts, _rules_with in matches)))
    hits = []
    for document in found:
        score = 0.0
        for term, (counts, rules_with) in zip(asked, matches, strict=True):
            if frequency := counts.get(document, 0):
                idf = math.log(1 + (index.count - rules_with + 0.5) / (rules_with + 0.5))
                score += term.weight * idf * frequency * (K1 + 1) / (frequency + index.norms[document])
        rule = index.rules[document]
        score *= SOURCE_WEIGHT[rule.source] * (GAME_BOOST if rule.game == game else 1.0)
        if score > 0:
            hits.append(Hit(rule, *index.texts[rule.id], score))
    return hits


# The index ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Index:
    """The rules of one language: their texts and, per term, the rules holding it and how often."""

    rules: tuple[Rule, ...]
    texts: dict[str, tuple[str, str]]
    """Per rule id, its title and text."""
    norms: tuple[float, ...]
    """Per rule, BM25's length normalisation: K1 (1 − B + B × its length / the average length)."""
    occurrences: dict[str, dict[int, int]]
    """Per term, how many times each rule (by position) holds it."""
    vocabulary: tuple[str, ...]
    """The terms, sorted, to find those a prefix starts."""

    @property
    def count(self) -> int:
        return len(self.rules)

    def postings(self, term: Term) -> tuple[dict[int, int], int]:
        """How many times each rule holds ``term`` (or, for a prefix, the words it starts), and in how many
        rules it occurs (at most every rule)."""
        if not term.prefix:
            counts = self.occurrences.get(term.text, {})
            return counts, len(counts)
        start = bisect.bisect_left(self.vocabulary, term.text)
        started: Counter[int] = Counter()
        rules_with = 0
        for word in self.vocabulary[start:]:
            if not word.startswith(term.text):
                break
            started.update(self.occurrences[word])
            rules_with += len(self.occurrences[word])
        return dict(started), min(rules_with, self.count)


@functools.cache
def _index(language: str) -> _Index:
    """The index of ``language`` (empty for a language the site does not speak), built once a process."""
    if language not in dict(settings.LANGUAGES):
        return _Index((), {}, (), {}, ())
    documents: list[list[str]] = []
    texts = {}
    with translation.override(language):
        for rule in RULES:
            title, text = translation.gettext(rule.section), translation.gettext(rule.text)
            note = translation.gettext(rule.note) if rule.note else ""
            game = GAME_NAMES[rule.game]
            searched = " ".join((title, text, note, game, translation.gettext(game), asked_as(rule.id, language)))
            documents.append(words(searched, language))
            texts[rule.id] = (title, text)
    average = sum(map(len, documents)) / max(len(documents), 1) or 1.0
    occurrences: dict[str, dict[int, int]] = {}
    for position, document in enumerate(documents):
        for word, times in Counter(document).items():
            occurrences.setdefault(word, {})[position] = times
    norms = tuple(K1 * (1 - B + B * len(document) / average) for document in documents)
    return _Index(tuple(RULES), texts, norms, occurrences, tuple(sorted(occurrences)))
