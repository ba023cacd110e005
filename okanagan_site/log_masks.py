"""Table codes, spectator tokens and invitation tokens kept out of every log: each is a way into a game or a
group, and it travels in a URL's path (``/join/<code>/``, ``/watch/<token>/``, ``/invite/<token>/``) or in the
join form's query string (``/join/?code=``).

One list of those paths (:data:`SECRET_PATHS`) masks them everywhere: in Django's log (:class:`MaskSecretPaths`,
a filter of settings ``LOGGING``), in nginx's access log (the map of ``deploy/nginx.conf.template``, rendered from
it) and in nginx's error log (which ``deploy/serve.py`` writes on through :func:`masked`).
"""

from __future__ import annotations

import logging
import re

SECRET_PATHS = ("join", "watch", "invite")
"""The first segment of each path whose second segment is a secret: a table code or a token."""

_SECRET = re.compile(rf"/({'|'.join(SECRET_PATHS)})/[^/\s?#\"']+", re.IGNORECASE)
_QUERY = re.compile(r"(/[^\s?#\"']*)\?[^\s#\"']*")


def masked(text: str) -> str:
    """``text`` with the secret of each such path replaced by ``*``, and each URL's query string left out, as
    nginx's access log writes them.

    >>> masked('"GET /watch/tok3n/live/?view=watch HTTP/1.1", referrer: "https://example.org/join/ABC123/"')
    '"GET /watch/*/live/? HTTP/1.1", referrer: "https://example.org/join/*/"'
    >>> masked("Not Found: /invite/tok3n/"), masked("Not Found: /groups/7/invite/")
    ('Not Found: /invite/*/', 'Not Found: /groups/7/invite/')
    """
    return _SECRET.sub(r"/\1/*", _QUERY.sub(r"\1?", text))


class MaskSecretPaths(logging.Filter):
    """Each record's message, traceback and stack :func:`masked` (Django's "Not Found: /watch/…" warnings, a
    server error's traceback quoting its URL, any other logger that prints a path)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = masked(record.getMessage()), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = masked(record.exc_text)
        if record.stack_info:
            record.stack_info = masked(record.stack_info)
        return True
