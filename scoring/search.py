"""Searching the rules, in the reader's language, with the database's full-text search.

One function, :func:`search_rules`, whatever the database: SQLite matches an FTS5 table of trigrams
(so words match inside longer words, in any script), PostgreSQL its full-text search with prefix
matching. Both search ``plain``: the rule's section, text and note, case-folded and without accents,
so that "egalite" finds "égalité". Words of one or two characters (common in Korean and Chinese) are
looked up as substrings. Results are ranked by how many of the words they contain, then printed rules
before the app's readings and options, then by how often the words occur and the database's relevance.

The index is built from the ``rules`` catalogue and its translations, and rebuilt when they change.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import translation

from rules import CATALOGUE, RULES, Rule, Source

from .models import RuleText

# Between rules that match as many words, the printed rules come first, house-rule options last.
SOURCE_ORDER = (Source.RULEBOOK, Source.GAME_HELP, Source.INFERRED, Source.HOUSE_RULE, Source.RECORD_FORMAT)
MAX_TERMS = 8
MAX_TERM_LENGTH = 40
FINGERPRINT = "~fingerprint"


@dataclass(frozen=True)
class Hit:
    """A rule found, with its texts in the reader's language."""

    rule: Rule
    title: str
    text: str
    matched: int
    """How many of the words searched the rule contains."""
    occurrences: int
    """How often they occur in it."""


def plain(text: str) -> str:
    """``text`` case-folded, without accents: what the search compares."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return unicodedata.normalize("NFC", "".join(char for char in decomposed if not unicodedata.combining(char)))


def terms(query: str) -> list[str]:
    """The distinct words of a query, plain, at most :data:`MAX_TERMS`."""
    words = [word[:MAX_TERM_LENGTH] for word in re.findall(r"\w+", plain(query))]
    return list(dict.fromkeys(words))[:MAX_TERMS]


def search_rules(query: str, language: str, limit: int = 8) -> list[Hit]:
    """The rules matching ``query`` in ``language``, best first."""
    ensure_index()
    words = terms(query)
    if not words:
        return []
    sqlite = connection.vendor == "sqlite"
    relevance = _sqlite_relevance(words, language) if sqlite else _pg_relevance(words, language)
    # Trigrams find any word of 3 characters or more inside longer ones; PostgreSQL's words are whole
    # runs of letters, and a run of Chinese or Korean characters is one word: look those up as substrings.
    short = [word for word in words if len(word) < 3] if sqlite else words
    substrings = Q()
    for word in short:
        substrings |= Q(plain__contains=word)
    found = Q(rule_id__in=relevance) | substrings if short else Q(rule_id__in=relevance)
    rows = RuleText.objects.filter(language=language).filter(found)
    hits = [
        (
            Hit(
                CATALOGUE[row.rule_id],
                row.title,
                row.text,
                sum(word in row.plain for word in words),
                sum(row.plain.count(word) for word in words),
            ),
            relevance.get(row.rule_id, 0.0),
        )
        for row in rows.exclude(rule_id=FINGERPRINT)
    ]
    hits.sort(
        key=lambda pair: (-pair[0].matched, SOURCE_ORDER.index(pair[0].rule.source), -pair[0].occurrences, -pair[1])
    )
    return [hit for hit, _relevance in hits if hit.matched][:limit]


def _sqlite_relevance(words: list[str], language: str) -> dict[str, float]:
    long = [word for word in words if len(word) >= 3]
    if not long:
        return {}
    match = " OR ".join('"' + word.replace('"', '""') + '"' for word in long)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rule_id, bm25(rule_search) FROM rule_search WHERE rule_search MATCH %s AND language = %s",
            [match, language],
        )
        return {rule_id: -score for rule_id, score in cursor.fetchall()}


def _pg_relevance(words: list[str], language: str) -> dict[str, float]:
    from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector

    vector = SearchVector("plain", config="simple")
    query = SearchQuery(" | ".join(f"{word}:*" for word in words), search_type="raw", config="simple")
    rows = (
        RuleText.objects.filter(language=language)
        .annotate(rank=SearchRank(vector, query))
        .filter(rank__gt=0)
        .values_list("rule_id", "rank")
    )
    return {rule_id: float(rank) for rule_id, rank in rows}


# The index ------------------------------------------------------------------------------------------


type Entry = tuple[str, str, str, str, str]
"""rule id, language, title, text, plain"""


def _entries() -> list[Entry]:
    entries = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for rule in RULES:
                title, text = translation.gettext(rule.section), translation.gettext(rule.text)
                note = translation.gettext(rule.note) if rule.note else ""
                words = " ".join((title, text, note, rule.id.replace(".", " ").replace("_", " ")))
                entries.append((rule.id, language, title, text, plain(words)))
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
    with transaction.atomic():
        stored = RuleText.objects.filter(rule_id=FINGERPRINT).values_list("text", flat=True).first()
        if stored != digest:
            RuleText.objects.all().delete()
            RuleText.objects.bulk_create(
                [
                    *(RuleText(rule_id=r, language=lang, title=t, text=x, plain=p) for r, lang, t, x, p in entries),
                    RuleText(rule_id=FINGERPRINT, language="", title="", text=digest, plain=""),
                ]
            )
            if connection.vendor == "sqlite":
                with connection.cursor() as cursor:
                    cursor.execute("DELETE FROM rule_search")
                    cursor.executemany(
                        "INSERT INTO rule_search (rule_id, language, plain) VALUES (%s, %s, %s)",
                        [(rule_id, language, words) for rule_id, language, _title, _text, words in entries],
                    )
