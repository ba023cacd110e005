"""The live fragment in parts: a poll that finds a change sends only the parts that changed (issue 15).

The polled fragment of the game page (``#game``) and of the spectator page (``#live``) is a row of parts, each
an element ``<div id="part-NAME">`` written by ``{% livepart "NAME" %}`` (scoring/templatetags/live_parts.py),
and ends with its poller (``{% livepoll %}``), the element that polls. The poller carries the digest of every
part of the fragment it ends in the ``X-Live-Parts`` header of its polls, so the server knows what the phone
holds without keeping anything per phone. A changed poll renders the fragment as before, then answers with
only the parts whose digest differs, as htmx out-of-band swaps, and the new poller in place of the old one. A
phone that sends no digests (a page from before this, a script that did not load) or whose row of parts is
not the one rendered now (a part appeared) gets the whole fragment, as before.

A digest is taken with this response's CSRF token left out: the token is masked afresh in every response,
while the form a phone already holds keeps working with its own masked token of the same secret.

A part that is the same for every phone that polls the same version of the fragment
(``{% livepart "NAME" shared %}``: the scoreboard, the log, the grid of events to enter) is rendered once per game
version (revision and activity), language, page of the log, fragment and release, and kept in the shared cache
(:class:`SharedParts`): the 2nd to 4th phone of a table, and every spectator, take it from there after a change. A
shared part holds nothing of the phone's (no seat, no entry, no "you"); a form in it carries a placeholder where the
CSRF token goes, replaced by this response's token. A part that is not marked shared is rendered for each phone, as
before.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest
from django.template import Context
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from scoring.cache import CACHE_ERRORS

HEADER = "X-Live-Parts"
"""The request header in which a poller sends the digests of the parts its phone holds."""
POLLER_ID = "live-poll"
"""The poller's id: a partial answer replaces it (``HX-Retarget``), and static/js/table.js finds it by it."""

PART_NAME = re.compile(r"[a-z][a-z-]{0,30}")
"""A part's name: its element is ``#part-NAME``."""

SHARED_FOR = 600
"""Seconds a shared part is kept: a version's polls come within seconds of its change; older ones are not asked
for again."""

_PARTS_KEY = "live_parts"
_CSRF_PLACEHOLDER = "\x00csrf-token\x00"
"""Where a shared part's forms carry the CSRF token: each response puts its own there."""
_LOCAL = LocMemCache("live-parts", {"TIMEOUT": SHARED_FOR, "OPTIONS": {"MAX_ENTRIES": 500}})
_SOURCES = ("rules", "scoring", "templates", "locale")
_SOURCE_SUFFIXES = frozenset({".py", ".html", ".mo"})
_HELD = re.compile(rf"({PART_NAME.pattern}):([A-Za-z0-9_-]{{8}})")
_MOST_PARTS = 40


@dataclass(frozen=True)
class Part:
    """One part of a live fragment, as rendered for this response."""

    name: str
    digest: str
    """A digest of its content (without the CSRF token): equal digests, equal parts."""
    content: str
    """Its HTML, inside its element."""

    def element(self, *, out_of_band: bool = False) -> SafeString:
        """The part's element, in the fragment or as an out-of-band swap (which replaces the element of the same
        id)."""
        swap = mark_safe(' hx-swap-oob="true"') if out_of_band else ""
        return format_html('<div id="part-{}"{}>{}</div>', self.name, swap, mark_safe(self.content))


@dataclass
class SharedParts:
    """The shared parts of one version of a live fragment, kept in the shared cache under ``key``: read at most
    once per response (all of them in one value), written once if this response rendered any of them."""

    key: str
    _found: dict[str, str] | None = None
    _made: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, fragment: str, token: str, version: str) -> SharedParts:
        """The shared parts of ``fragment`` (its template and partial) of the game whose spectator token is
        ``token``, at ``version`` (the fragment's ETag: the game's id, revision, activity, the language and the
        page of the log), for this release of the code."""
        return cls(f"live-parts:{code_version()}:{token}:{fragment}:{version}")

    def get(self, name: str, csrf_token: Callable[[], str]) -> str | None:
        """Part ``name`` as rendered for an earlier phone, with ``csrf_token()`` (this response's) in its forms;
        ``None`` if no phone rendered it yet (or the cache did not answer)."""
        if self._found is None:
            try:
                found = _store().get(self.key)
            except CACHE_ERRORS:
                found = None
            self._found = found if isinstance(found, dict) else {}
        content = self._found.get(name)
        if not isinstance(content, str):
            return None
        return content.replace(_CSRF_PLACEHOLDER, csrf_token()) if _CSRF_PLACEHOLDER in content else content

    def keep(self, name: str, content: str, csrf_token: str) -> None:
        """Part ``name`` as rendered for this response (whose CSRF token is ``csrf_token``, if used), for the
        other phones: stored by :meth:`save`."""
        self._made[name] = content.replace(csrf_token, _CSRF_PLACEHOLDER) if csrf_token else content

    def save(self) -> None:
        """Store the parts this response rendered, with those it found (a cache that does not answer keeps
        nothing: each phone renders them again)."""
        if self._made:
            with contextlib.suppress(*CACHE_ERRORS):
                _store().set(self.key, {**(self._found or {}), **self._made}, SHARED_FOR)


def _store() -> BaseCache:
    """Where shared parts are kept: Redis when the site has it (every app server shares it), else this process's
    memory (the database cache would cost the poll a query or more)."""
    default = caches["default"]
    return default if isinstance(default, RedisCache) else _LOCAL


@functools.cache
def code_version() -> str:
    """A digest of the code, templates and translations this process serves, so that shared parts rendered by
    another release are never taken for this one's (read once per process)."""
    root = settings.BASE_DIR
    version = hashlib.blake2b(digest_size=8)
    for path in sorted(
        path for folder in _SOURCES for path in (root / folder).rglob("*") if path.suffix in _SOURCE_SUFFIXES
    ):
        version.update(str(path.relative_to(root)).encode())
        version.update(path.read_bytes())
    return version.hexdigest()


@dataclass
class LiveParts:
    """The parts of one rendering of a live fragment, in order, and its poller's element; ``shared``, where
    its shared parts are kept (none: each is rendered)."""

    parts: list[Part] = field(default_factory=list)
    poller: str = ""
    shared: SharedParts | None = None

    def held(self) -> str:
        """The ``X-Live-Parts`` header of a phone that holds these parts."""
        return " ".join(f"{part.name}:{part.digest}" for part in self.parts)

    def answer(self, held: list[tuple[str, str]] | None) -> str | None:
        """What a phone that holds ``held`` needs to show this rendering: the parts that differ, as out-of-band
        swaps, then the poller; ``None`` when it needs the whole fragment (it holds other parts, or says
        nothing, or the fragment has no poller to carry the new version)."""
        if not self.poller or held is None or [name for name, _digest in held] != [part.name for part in self.parts]:
            return None
        changed = [
            part.element(out_of_band=True)
            for part, (_name, digest) in zip(self.parts, held, strict=True)
            if part.digest != digest
        ]
        return "".join([*changed, self.poller])


def digest(content: str, csrf_token: str) -> str:
    """A short digest of a part's ``content``, without ``csrf_token`` (masked afresh in every response)."""
    if csrf_token:
        content = content.replace(csrf_token, "")
    raw = hashlib.blake2b(content.encode(), digest_size=6).digest()
    return base64.urlsafe_b64encode(raw).decode()


def parts_of(context: Context) -> LiveParts:
    """The parts rendered so far in ``context``'s rendering: the view's, when it asked for them (``collect``),
    else this rendering's own."""
    collected = context.get(_PARTS_KEY)
    if isinstance(collected, LiveParts):
        return collected
    own = context.render_context.get(_PARTS_KEY)
    if not isinstance(own, LiveParts):
        own = context.render_context[_PARTS_KEY] = LiveParts()
    return own


def collect(context: dict[str, object], shared: SharedParts | None = None) -> LiveParts:
    """Ask for the parts of the fragment that ``context`` is about to render: they are in the returned object once
    it is rendered. With ``shared``, its shared parts are taken from there, or rendered and kept there (then
    call its ``save``)."""
    parts = LiveParts(shared=shared)
    context[_PARTS_KEY] = parts
    return parts


def held_parts(request: HttpRequest) -> list[tuple[str, str]] | None:
    """The parts the polling phone holds, by name and digest, from its ``X-Live-Parts`` header; ``None`` if it
    sent none, or anything else than parts."""
    value = request.headers.get(HEADER)
    if value is None:
        return None
    held = []
    for item in value.split()[: _MOST_PARTS + 1]:
        match = _HELD.fullmatch(item)
        if match is None:
            return None
        held.append((match[1], match[2]))
    return held if 0 < len(held) <= _MOST_PARTS else None
