"""The words of the rules search: how a text in one language becomes the terms that are matched.

The same analysis makes the index and the query:

- the text is case-folded and loses its accents ("Égalité" and "egalite" are one word);
- English, French and Italian words lose their ending with the Snowball stemmer of the language
  (``snowballstemmer``, the stemmers of Lucene and PostgreSQL): "ties", "tied" and "tie" are one term;
- Chinese (and Japanese kana) and Korean are cut into overlapping character bigrams, the standard way
  to search CJK text without a dictionary: "影響力平手誰決定" is 影響, 響力, 力平, 平手… and finds the
  rule that says "影響力平手時". An index also holds every single character, so that a one-character
  query (金) finds its words;
- the words that say nothing about a rule (articles, pronouns, question words: "what", "qui",
  "누가", "什麼") are dropped. The lists are short and written for questions about a game: the general
  lists of the stop-word packages drop words that matter here ("first", "last", "most", "alone").

The players' words for the game's things (:mod:`scoring.help.phrasings`) add the rules' own words to a question.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from dataclasses import dataclass

import snowballstemmer

from scoring.help.phrasings import vocabulary

STEMMERS = {"en": "english", "fr": "french", "it": "italian"}
"""The Snowball stemmer of each language; Latin words in Korean or Chinese text use the English one."""

_HAN = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
WORD = re.compile(rf"[{_HAN}]+|[{_HANGUL}]+|(?:(?![{_HAN}{_HANGUL}])[^\W_])+")
CJK = re.compile(rf"[{_HAN}{_HANGUL}]")


def _split(text: str) -> list[str]:
    return text.split()


STOP_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        _split(
            """a an the and or but if then so of in on at to for from by with into out about as is are was
        were be been being am do does did doing done have has had having i me my mine we us our you your
        he him his she her it its they them their this that these those there here what which who whom
        whose when where why how can could may might shall should will would must get gets got getting
        happen happens happened does anyone someone something anything thing things just also still
        really ok okay please wait hey any some each all than very too rule rules say says said let
        im ive dont doesnt isnt arent cant s t d ll re ve m"""
        )
    ),
    "fr": frozenset(
        _split(
            """a au aux avec ce ces cet cette ca celui celle ceux dans de des du d elle elles en et est es
        etre il ils j je l la le les leur leurs lui m ma mais me mes moi mon n ne nos notre nous on ou
        par pas pour qu que qui quoi quel quelle quels quelles quand comment combien pourquoi sa se ses
        si son sur t ta te tes toi ton tu un une vos votre vous y c s est ce-que alors donc bien fait
        faire fais peut peux puis dois doit faut a-t-il ai as avons avez ont sont etait ete regle
        regles svp"""
        )
    ),
    "it": frozenset(
        _split(
            """a ad al allo alla ai agli alle anche avere ho hai ha abbiamo avete hanno c che chi ci come con
        cosa cui da dal dallo dalla dai dagli dalle del dello della dei degli delle di e ed era essere
        gli ha i il in io l la le lei li lo loro lui ma mi mio mia miei mie ne nel nello nella nei negli
        nelle noi non o per perche piu qual quale quali quando quanto quanta quanti quante se si sia
        sono su sul sullo sulla sui sugli sulle suo sua suoi sue ti tu tuo tua tuoi tue un uno una voi
        vostro vostra sei siamo e posso puoi puo possiamo devo deve dove regola regole"""
        )
    ),
    "ko": frozenset(
        _split(
            """누가 누구 누구는 누구가 뭐 뭐야 뭐예요 뭐지 뭐해 무엇 무엇을 무슨 어떻게 어떡해 어떻게요 왜 언제
        어디 어디서 어디에서 그럼 그러면 그냥 혹시 이 그 저 나 내가 나는 저는 제가 우리 우리가 너 당신 해요
        하나요 하면 되나요 돼요 돼 되요 인가요 있나요 있어요 있어 없어요 거 것 건가요 건지 요 좀 규칙"""
        )
    ),
}
ZH_STOP = (
    "什麼時候", "什麼", "怎麼辦", "怎麼", "怎樣", "如何", "為什麼", "請問", "是不是", "是否", "還是", "可不可以",
    "的話", "的", "了", "嗎", "呢", "吧", "啊", "呀", "我們", "我", "你們", "你", "他們", "規則", "一下",
)  # fmt: skip
"""Chinese words that say nothing about a rule: they split a run of characters where they stand."""


@dataclass(frozen=True)
class Term:
    """A term of a query: a word, a stem or a bigram, matched whole or as a prefix, with a weight."""

    text: str
    prefix: bool = False
    weight: float = 1.0


def plain(text: str) -> str:
    """``text`` case-folded, without accents: what the search compares."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("\u2019", "'"))
    return unicodedata.normalize("NFC", "".join(char for char in decomposed if not unicodedata.combining(char)))


_STEMMERS = threading.local()


def _stemmer(language: str) -> snowballstemmer.Stemmer:
    """The stemmer of ``language`` for this thread: a Snowball stemmer keeps the word it is stemming in itself,
    so two threads stemming with one stemmer at once corrupt each other's word (an IndexError, seen as a 500
    when several phones searched while a fresh server built its index)."""
    stemmers: dict[str, snowballstemmer.Stemmer] = _STEMMERS.__dict__.setdefault("by_language", {})
    name = STEMMERS.get(language, "english")
    if name not in stemmers:
        stemmers[name] = snowballstemmer.stemmer(name)
    return stemmers[name]


def _without_stop_strings(text: str, language: str) -> str:
    if language.startswith("zh"):
        for stop in ZH_STOP:
            text = text.replace(stop, " ")
    return text


def _pieces(text: str, language: str) -> list[str]:
    """The runs of letters of ``text`` (plain), without the stop words of ``language``."""
    stop = STOP_WORDS.get(language, STOP_WORDS["en"] if not language.startswith(("ko", "zh")) else frozenset())
    pieces = []
    for piece in WORD.findall(_without_stop_strings(plain(text), language)):
        if piece in stop or piece in STOP_WORDS["en"] or (len(piece) == 1 and piece.isalpha() and not CJK.match(piece)):
            continue
        pieces.append(piece)
    return pieces


def _grams(piece: str, unigrams: bool) -> list[str]:
    """A run of CJK characters as its bigrams (and, for an index, its characters)."""
    if len(piece) == 1:
        return [piece]
    grams = [piece[i : i + 2] for i in range(len(piece) - 1)]
    return [*grams, *piece] if unigrams else grams


KOREAN_PARTICLES = sorted(
    _split(
        "에서는 에서 으로 이랑 하고 까지 부터 에게 한테 보다 처럼 이면 이나 은 는 이 가 을 를 에 의 도 로 만 랑 과 와"
    ),
    key=len,
    reverse=True,
)
"""Korean particles and endings that follow a word without a space, longest first."""


def _without_particle(piece: str) -> str:
    """A Korean word without the particle that ends it (금덩이가 → 금덩이; 닻은 → 닻)."""
    for particle in KOREAN_PARTICLES:
        if len(piece) > len(particle) and piece.endswith(particle):
            return piece[: -len(particle)]
    return piece


def words(text: str, language: str) -> list[str]:
    """The terms of a rule's text in ``language``, as the index holds them (in order, repeated)."""
    found: list[str] = []
    stemmer = _stemmer(language)
    for piece in _pieces(text, language):
        if CJK.match(piece):
            found.extend(_grams(piece, unigrams=True))
        else:
            found.append(stemmer.stemWord(piece))
    return found


def query_terms(query: str, language: str) -> list[Term]:
    """The terms of a question in ``language``, with the rules' words for the players' words in it.

    The last word is matched as a prefix while it is being typed (the query does not end with a space
    or a punctuation mark): "gold nug" finds the nuggets.
    """
    stemmer = _stemmer(language)
    pieces = _pieces(query, language)
    typing = bool(query) and (query[-1].isalnum() or CJK.match(query[-1]) is not None)
    terms: dict[str, Term] = {}
    for index, piece in enumerate(pieces):
        if CJK.match(piece):
            for gram in _grams(piece, unigrams=False):
                terms.setdefault(gram, Term(gram))
            stem = _without_particle(piece)
            if len(stem) == 1 and stem != piece:  # 닻은: the one-syllable word 닻, which no bigram holds
                terms.setdefault(stem, Term(stem))
        else:
            stem = stemmer.stemWord(piece)
            prefix = typing and index == len(pieces) - 1 and len(stem) >= 2 and not piece.isdigit()
            terms[stem] = Term(stem, prefix=prefix)
    for word in _players_words(query, language):
        if word not in terms:
            terms[word] = Term(word, weight=EXPANSION_WEIGHT)
    return list(terms.values())


EXPANSION_WEIGHT = 0.7
"""How much a rule's word brought in by a player's word counts, against a word of the question itself."""


def _players_words(query: str, language: str) -> list[str]:
    """The rules' words for the players' words found in ``query``, as index terms."""
    text = plain(query)
    found: list[str] = []
    for said, meant in _player_words(language):
        if said.search(text):
            found.extend(dict.fromkeys(words(meant, language)))
    return found


@functools.cache
def _player_words(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The players' words of ``language`` as patterns: Latin words whole, or with a plural ending, or as
    the start of a word when they end with ``*`` ("finish*"); a CJK word anywhere (Korean particles
    and Chinese are not spaced)."""
    patterns = []
    for said, meant in vocabulary(language).players_words:
        said = plain(said)
        if CJK.match(said):
            pattern = re.escape(said)
        elif said.endswith("*"):
            pattern = r"\b" + re.escape(said[:-1])
        else:
            pattern = r"\b" + re.escape(said) + r"(?:s|x|es)?\b"
        patterns.append((re.compile(pattern), meant))
    return tuple(patterns)
