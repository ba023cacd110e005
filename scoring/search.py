"""Searching the rules, in the reader's language, for questions as players ask them.

One function, :func:`search_rules`, whatever the database. A question and every rule go through the
same analysis (:mod:`scoring.words`: accents and case folded, stop words dropped, Snowball stems for
English, French and Italian, character bigrams for Chinese and Korean, the players' words for the
game's things). The index holds each rule's terms, with the ways players ask about it
(``rules.phrasings``); the database finds the rules holding any term of the question (SQLite an FTS5
table, PostgreSQL its full-text search on the same terms), and they are ranked here by BM25 over those
terms, so that both databases give the same answer. The rules of the game the reader is looking at
come first among rules that match about as well; then printed rules before the app's readings.

The index is built from the ``rules`` catalogue and its translations, and rebuilt when they change.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import translation

from rules import CATALOGUE, RULES, Rule, Source
from rules.catalogue import Game
from rules.phrasings import asked_as

from .models import RuleText
from .words import Term, plain, query_terms, words

__all__ = ["Hit", "ensure_index", "plain", "search_rules", "terms"]

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
FINGERPRINT = "~fingerprint"
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
    ensure_index()
    scored = _scored(query, language, game)
    if not scored:
        others = (_scored(query, other, game) for other, _name in settings.LANGUAGES if other != language)
        scored = max(others, key=lambda found: max((hit.score for hit in found), default=0.0), default=[])
        texts = {
            row.rule_id: row
            for row in RuleText.objects.filter(language=language, rule_id__in=[hit.rule.id for hit in scored])
        }
        scored = [
            Hit(hit.rule, texts[hit.rule.id].title, texts[hit.rule.id].text, hit.score)
            for hit in scored
            if hit.rule.id in texts
        ]
    if not scored:
        return []
    order = {rule.id: index for index, rule in enumerate(RULES)}
    scored.sort(key=lambda hit: (-round(hit.score, 6), SOURCE_ORDER.index(hit.rule.source), order[hit.rule.id]))
    best = scored[0].score
    return [hit for hit in scored if hit.score >= CUTOFF * best][:limit]


def _scored(query: str, language: str, game: str) -> list[Hit]:
    """Every rule of the index of ``language`` that ``query`` matches, with its score (unsorted)."""
    asked = query_terms(query[:200], language)[:MAX_TERMS]
    if not asked:
        return []
    found = _sqlite_found(asked, language) if connection.vendor == "sqlite" else _pg_found(asked, language)
    if not found:
        return []
    stats = _statistics(language)
    rows = RuleText.objects.filter(language=language, rule_id__in=found).only("rule_id", "title", "text", "words")
    scored = []
    for row in rows:
        rule = CATALOGUE.get(row.rule_id)
        if rule is None:
            continue
        score = _bm25(asked, row.words.split(), stats) * SOURCE_WEIGHT[rule.source]
        score *= GAME_BOOST if rule.game == game else 1.0
        if score > 0:
            scored.append(Hit(rule, row.title, row.text, score))
    return scored


@dataclass(frozen=True)
class _Statistics:
    count: int
    average_length: float
    frequencies: Counter[str]
    """In how many rules each term occurs."""
    vocabulary: tuple[str, ...]


def _idf(frequency: int, stats: _Statistics) -> float:
    return math.log(1 + (stats.count - frequency + 0.5) / (frequency + 0.5))


def _bm25(asked: list[Term], document: list[str], stats: _Statistics) -> float:
    counts = Counter(document)
    norm = K1 * (1 - B + B * len(document) / stats.average_length)
    score = 0.0
    for term in asked:
        if term.prefix:
            frequency = sum(count for word, count in counts.items() if word.startswith(term.text))
            rules_with = sum(stats.frequencies[word] for word in stats.vocabulary if word.startswith(term.text))
            rules_with = min(rules_with, stats.count)
        else:
            frequency, rules_with = counts[term.text], stats.frequencies[term.text]
        if frequency:
            score += term.weight * _idf(rules_with, stats) * frequency * (K1 + 1) / (frequency + norm)
    return score


@functools.cache
def _statistics(language: str) -> _Statistics:
    documents = [entry[4].split() for entry in _catalogue()[0] if entry[1] == language]
    frequencies: Counter[str] = Counter()
    for document in documents:
        frequencies.update(set(document))
    average = sum(map(len, documents)) / max(len(documents), 1)
    return _Statistics(len(documents), average or 1.0, frequencies, tuple(frequencies))


def _sqlite_found(asked: list[Term], language: str) -> set[str]:
    match = " OR ".join('"' + term.text.replace('"', '""') + '"' + ("*" if term.prefix else "") for term in asked)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rule_id FROM rule_search WHERE rule_search MATCH %s AND language = %s", [match, language]
        )
        return {rule_id for (rule_id,) in cursor.fetchall()}


def _pg_found(asked: list[Term], language: str) -> set[str]:
    from django.contrib.postgres.search import SearchQuery, SearchVector

    raw = " | ".join(_pg_operand(term) for term in asked)
    query = SearchQuery(raw, search_type="raw", config="simple")
    rows = (
        RuleText.objects.filter(language=language)
        .annotate(found=SearchVector("words", config="simple"))
        .filter(found=query)
        .values_list("rule_id", flat=True)
    )
    return set(rows)


def _pg_operand(term: Term) -> str:
    """A term as a tsquery operand: quoted, so that the parser takes it as one lexeme."""
    quoted = "'" + term.text.replace("\\", "\\\\").replace("'", "''") + "'"
    return quoted + (":*" if term.prefix else "")


# The index ------------------------------------------------------------------------------------------


type Entry = tuple[str, str, str, str, str]
"""rule id, language, title, text, words (the terms, space-separated)"""


def _entries() -> list[Entry]:
    entries = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for rule in RULES:
                title, text = translation.gettext(rule.section), translation.gettext(rule.text)
                note = translation.gettext(rule.note) if rule.note else ""
                game = GAME_NAMES[rule.game]
                searched = " ".join((title, text, note, game, translation.gettext(game), asked_as(rule.id, language)))
                entries.append((rule.id, language, title, text, " ".join(words(searched, language))))
    return entries


@functools.cache
def _catalogue() -> tuple[list[Entry], str]:
    """The index's rows from the catalogue in every language, and their fingerprint (once a process)."""
    entries = _entries()
    digest = hashlib.sha256(repr(entries).encode()).hexdigest()
    return entries, digest


def ensure_index() -> None:
    """Build the index if the catalogue or its translations changed since it was built."""
    entries, digest = _catalogue()
    try:
        with transaction.atomic():
            stored = RuleText.objects.filter(rule_id=FINGERPRINT).values_list("text", flat=True).first()
            if stored != digest:
                RuleText.objects.all().delete()
                RuleText.objects.bulk_create(
                    [
                        *(RuleText(rule_id=r, language=lang, title=t, text=x, words=w) for r, lang, t, x, w in entries),
                        RuleText(rule_id=FINGERPRINT, language="", title="", text=digest, words=""),
                    ]
                )
                if connection.vendor == "sqlite":
                    with connection.cursor() as cursor:
                        cursor.execute("DELETE FROM rule_search")
                        cursor.executemany(
                            "INSERT INTO rule_search (rule_id, language, words) VALUES (%s, %s, %s)",
                            [(rule_id, language, terms) for rule_id, language, _title, _text, terms in entries],
                        )
    except IntegrityError:
        pass  # another process built the same index at the same moment (a fresh server's first searches)
