"""Push: once a change of a game is committed, the phones streaming that game are told at once, so that they poll
now rather than at their next poll.

The stream server is nginx's nchan module (``deploy/nginx.conf.template``): each open game page holds an
EventSource stream of its game's channel, and the app servers publish to nchan's publisher location, on a unix
socket only local processes reach (settings ``PUSH_PUBLISH_URL``, set by ``deploy/serve.py``; empty, as under
``make run`` and the test client, nothing is published and the pages poll as before).

- The channel of a game is its spectator token: the live poll's URL (``/watch/<token>/live/``) already grants
  who may see the game, and nginx lets a page open the stream only when the site says the token is a current
  game's (:func:`scoring.table.views.live.stream`). A new link or a deleted game closes the old channel
  (:func:`retired`): its streams end, and the pages' next poll learns why.
- What travels on it is one fixed word: nothing secret, nothing a seat may not see. Each phone then asks its
  own parts through the live poll it already has (ETag, 304 when unchanged), as its own.
- Push is a shortcut, never a condition: a publish that fails (nginx down, stalled) is logged at most once every
  few seconds and changes nothing else; a save never fails because of it, and the pages keep polling.
- Push does not go through Redis: every app server publishes to the same nginx, which holds every stream, so
  Redis down changes nothing here.
"""

from __future__ import annotations

import http.client
import logging
import socket
from urllib.parse import quote, unquote, urlsplit

from django.conf import settings

from scoring.cache import warn_once

logger = logging.getLogger(__name__)

TIMEOUT = 0.25
"""Seconds a publish may take (nchan answers in well under a millisecond): it runs after the commit, in the
request that saved."""
MESSAGE = b"changed"
"""What a stream is sent: the page polls on any message, so it says nothing more."""


class _UnixConnection(http.client.HTTPConnection):
    """An HTTP connection to a unix socket (``http+unix://<quoted path>/…``)."""

    def __init__(self, path: str, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.socket_path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


def published(token: str) -> None:
    """Tell the streams of the game whose spectator token is ``token`` that it changed (committed)."""
    _send("POST", token, MESSAGE)


def retired(token: str) -> None:
    """Spectator token ``token`` stopped working (committed): close its channel and the streams on it."""
    _send("DELETE", token, b"")


def _send(method: str, token: str, body: bytes) -> None:
    """``method`` on ``token``'s channel at settings ``PUSH_PUBLISH_URL``; any failure is logged, never raised."""
    url: str = settings.PUSH_PUBLISH_URL
    if not url:
        return
    parts = urlsplit(url)
    connection: http.client.HTTPConnection
    if parts.scheme == "http+unix":
        connection = _UnixConnection(unquote(parts.netloc), TIMEOUT)
    else:
        connection = http.client.HTTPConnection(parts.netloc, timeout=TIMEOUT)
    try:
        connection.request(method, parts.path.rstrip("/") + "/" + quote(token, safe=""), body=body)
        answer = connection.getresponse()
        answer.read()
        if answer.status >= 400 and not (method == "DELETE" and answer.status == 404):  # 404: nobody listened
            warn_once(logger, "push", "Push: the stream server answered %s; the pages poll meanwhile", answer.status)
    except (OSError, http.client.HTTPException) as error:
        warn_once(logger, "push", "Push: the stream server does not answer (%s); the pages poll meanwhile", error)
    finally:
        connection.close()
