"""Push (scoring/live/push.py): each committed change of a game is published once on its channel (its spectator
token), a link that stops working closes its channel, a stream server that is down, stalled or refusing costs a
save nothing; and nginx lets a page open a game's stream only when the site says its token is a current game's.
The streams themselves, through nginx, are tested in tests/browser/test_push_on_phones.py."""

from __future__ import annotations

import logging
import socket
import socketserver
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import quote

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from scoring import cache
from scoring.live import push
from scoring.live.versions import game_changed, link_gone, new_codes
from scoring.models import Game

Request = tuple[str, str, bytes]
"""A request the stream server got: its method, path and body."""


class Recorder(BaseHTTPRequestHandler):
    """nchan's publisher location, as far as the site sees it: it takes a message (201) or closes a channel."""

    status = 201

    def do_POST(self) -> None:
        self._record()

    def do_DELETE(self) -> None:
        self._record()

    def _record(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.server.requests.append((self.command, self.path, self.rfile.read(length)))  # type: ignore[attr-defined]
        self.send_response(self.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


class StreamServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    requests: list[Request]


@pytest.fixture(autouse=True)
def warnings_afresh() -> Iterator[None]:
    """Each test sees the warning it causes: the site gives one only every few seconds (scoring.cache.warn_once)."""
    cache.reset()
    yield
    cache.reset()


def url_of(path: Path) -> str:
    return f"http+unix://{quote(str(path), safe='')}/pub/"


@pytest.fixture
def stream_server(tmp_path: Path, settings: Settings) -> Iterator[list[Request]]:
    """A stream server on a unix socket, whose publisher URL the site is given; the requests it gets."""
    path = tmp_path / "push.sock"
    server = StreamServer(str(path), Recorder)
    server.requests = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.PUSH_PUBLISH_URL = url_of(path)
    yield server.requests
    server.shutdown()
    server.server_close()


def test_a_committed_change_is_published_once_on_its_game_s_channel(stream_server: list[Request], game: Game) -> None:
    assert game_changed(game)
    assert stream_server == [("POST", f"/pub/{game.spectator_token}", push.MESSAGE)]


def test_a_change_that_did_not_happen_publishes_nothing(stream_server: list[Request], game: Game) -> None:
    assert not game_changed(game, where={"revision": game.revision + 1})
    assert stream_server == []


def test_the_message_is_one_word_and_names_nothing_of_the_game(stream_server: list[Request], game: Game) -> None:
    game_changed(game, log=True)
    (_method, _path, body), *_ = stream_server
    assert body == b"changed"


def test_a_new_link_closes_the_old_channel_and_a_deleted_game_its_own(stream_server: list[Request], game: Game) -> None:
    old = game.spectator_token
    new_codes(game)
    link_gone(game.spectator_token)  # as the game's deletion does
    assert stream_server == [("DELETE", f"/pub/{old}", b""), ("DELETE", f"/pub/{game.spectator_token}", b"")]


def test_without_a_publish_url_nothing_is_sent(stream_server: list[Request], game: Game, settings: Settings) -> None:
    settings.PUSH_PUBLISH_URL = ""
    assert game_changed(game)
    assert stream_server == []


def test_a_stream_server_that_is_not_there_costs_a_change_nothing_but_a_warning(
    tmp_path: Path, settings: Settings, game: Game, caplog: pytest.LogCaptureFixture
) -> None:
    settings.PUSH_PUBLISH_URL = url_of(tmp_path / "nobody.sock")
    with caplog.at_level(logging.WARNING, logger="scoring.live.push"):
        assert game_changed(game)
        game.refresh_from_db()
        assert game.activity == 1
    assert "Push: the stream server does not answer" in caplog.text


def test_a_stalled_stream_server_costs_a_change_its_short_timeout_only(
    tmp_path: Path, settings: Settings, game: Game, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "stalled.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stalled:
        stalled.bind(str(path))
        stalled.listen()  # takes the connection, never answers
        settings.PUSH_PUBLISH_URL = url_of(path)
        with caplog.at_level(logging.WARNING, logger="scoring.live.push"):
            assert game_changed(game)
    assert "timed out" in caplog.text


def test_a_refusing_stream_server_is_logged_not_raised(
    stream_server: list[Request], game: Game, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Recorder, "status", 500)
    with caplog.at_level(logging.WARNING, logger="scoring.live.push"):
        assert game_changed(game)
    assert "Push: the stream server answered 500" in caplog.text


def test_a_channel_nobody_listened_to_is_closed_quietly(
    stream_server: list[Request], game: Game, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Recorder, "status", 404)  # nchan: no such channel
    with caplog.at_level(logging.WARNING, logger="scoring.live.push"):
        link_gone(game.spectator_token)
    assert caplog.text == ""


def test_a_publish_url_over_tcp_is_reached_too(settings: Settings, game: Game) -> None:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Recorder)
    server.requests = []  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings.PUSH_PUBLISH_URL = f"http://127.0.0.1:{server.server_address[1]}/pub/"
        game_changed(game)
    finally:
        server.shutdown()
        server.server_close()
    assert server.requests == [("POST", f"/pub/{game.spectator_token}", push.MESSAGE)]  # type: ignore[attr-defined]


def test_a_current_game_s_stream_may_be_opened(client: Client, game: Game) -> None:
    assert client.get(f"/watch/{game.spectator_token}/stream/").status_code == 200


@pytest.mark.parametrize(
    "token", ["nosuchtoken", "a" * 23, "x" * 5000, "%00", "%C3%A9t%C3%A9", "..%2F..", "%FF%FE", "tok%0Aen"]
)
def test_an_unknown_over_long_or_junk_token_s_stream_is_refused(client: Client, game: Game, token: str) -> None:
    assert client.get(f"/watch/{token}/stream/").status_code in {403, 404}


def test_a_link_that_stopped_working_opens_no_stream(client: Client, game: Game) -> None:
    old = game.spectator_token
    new_codes(game)
    assert client.get(f"/watch/{old}/stream/").status_code == 403


def test_a_game_page_names_its_stream_only_when_the_site_pushes(
    owner_client: Client, game: Game, settings: Settings
) -> None:
    stream = f'data-stream="/watch/{game.spectator_token}/stream/"'
    assert stream not in owner_client.get(f"/games/{game.pk}/").content.decode()
    settings.PUSH_PUBLISH_URL = "http+unix://%2Fnowhere.sock/pub/"
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert stream in page and 'data-stream-every="60000"' in page
    assert stream in Client().get(f"/watch/{game.spectator_token}/").content.decode()  # the spectators' too
