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
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field

from django.http import HttpRequest
from django.template import Context
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

HEADER = "X-Live-Parts"
"""The request header in which a poller sends the digests of the parts its phone holds."""
POLLER_ID = "live-poll"
"""The poller's id: a partial answer replaces it (``HX-Retarget``), and static/js/table.js finds it by it."""
POLL_SECONDS = 1.5
"""Seconds between two polls of a game being played, by each phone at its table and each spectator (the load
benchmark, bench/load.py, polls as often)."""
ENDED_POLL_SECONDS = 10
"""Seconds between two polls of a game that has ended (its result can still be corrected, rarely)."""

PART_NAME = re.compile(r"[a-z][a-z-]{0,30}")
"""A part's name: its element is ``#part-NAME``."""

_PARTS_KEY = "live_parts"
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
class LiveParts:
    """The parts of one rendering of a live fragment, in order, and its poller's element."""

    parts: list[Part] = field(default_factory=list)
    poller: str = ""

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


def collect(context: dict[str, object]) -> LiveParts:
    """Ask for the parts of the fragment that ``context`` is about to render: they are in the returned object once
    it is rendered."""
    parts = LiveParts()
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
