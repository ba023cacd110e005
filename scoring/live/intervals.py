"""How often a live page polls: the poller's ``hx-trigger="every …"`` (scoring/templates/scoring/_live_poll.html) is
one of these, chosen by :func:`poll_every`; while the page's stream is open (:mod:`scoring.live.push`), only one
timed poll in :data:`STREAMING_MS` goes out (static/js/table.js)."""

from __future__ import annotations

PLAYING_MS = 1500
"""A game in progress, at the table (the game page, a score sheet's table) or watched: a change made on one
phone shows on the others within this (the load benchmark, bench/load.py, polls as often)."""
FINISHED_MS = 10_000
"""A finished game's page: it changes rarely (the result made public or private, the game reopened)."""
STREAMING_MS = 60_000
"""While the page's stream is open, each change is pushed: a timed poll then goes out once in this long only, in
case a message was lost (a stream that stopped delivering without closing). An idle page then makes at most 2
requests a minute, its stream included (3 on a new entry's page, whose entry is checked as often)."""


def poll_every(*, playing: bool) -> str:
    """The poller's interval, as htmx reads it (``"1500ms"``)."""
    return f"{PLAYING_MS if playing else FINISHED_MS}ms"
