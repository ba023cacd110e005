"""`make serve` holds when clients are hostile: nginx in front of gunicorn, started as `make serve` does
(deploy/serve.py), on SQLite and on PostgreSQL.

While 16 clients send half a request and wait, and two clients upload 50 MB, the home page still
answers within a second; the uploads get the site's 413 page and nothing is written to disk. Without
nginx, Django refuses an oversized body from its headers alone.
"""

from __future__ import annotations

import gzip
import http.client
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.production import free_port, manage, prepare, production_env
from deploy.serve import NGINX, serve_env, start

PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
PG_SERVE = "postgres://postgres@127.0.0.1:5432/okanagan_serve"
FIFTY_MB = 50 * 1024 * 1024
CHUNK = b"\0" * 65536


def missing(reason: str) -> None:
    """Skip, except in CI, where what this test needs must be there."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: this test must run in CI")
    pytest.skip(reason)


@dataclass
class Served:
    port: int
    run_dir: Path
    socket: Path  # gunicorn's
    upload_tmp: Path  # gunicorn's TMPDIR: where Django would write an upload too big for memory
    env: dict[str, str]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The site as `make serve` runs it, on a fresh database, once per database for this module."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    if not Path(NGINX).exists():
        missing(f"nginx not found at {NGINX} (apt-get install -y nginx-light)")
    url = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    if request.param == "postgres":
        for sql in ("DROP DATABASE IF EXISTS okanagan_serve", "CREATE DATABASE okanagan_serve"):
            if subprocess.run(["psql", PG_ADMIN, "-q", "-c", sql], capture_output=True).returncode:
                missing("no PostgreSQL server at 127.0.0.1:5432")
        url = PG_SERVE
    upload_tmp = tmp_path / "upload-tmp"
    upload_tmp.mkdir()
    env = serve_env(production_env(url), "127.0.0.1") | {"TMPDIR": str(upload_tmp), "LOG_LEVEL": "WARNING"}
    for test_only in ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(test_only, None)
    prepare(env)
    port = free_port()
    site = start(env, "127.0.0.1", port, workers=2, run_dir=tmp_path / "run")
    try:
        yield Served(port, tmp_path / "run", site.sockets[0], upload_tmp, env)
    finally:
        site.stop()


def get(port: int, path: str) -> tuple[int, float]:
    """GET ``path``: the status and the seconds it took."""
    begin = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)
    status = connection.getresponse().status
    connection.close()
    return status, time.perf_counter() - begin


def upload(connect: socket.socket, path: str, results: dict[str, bytes]) -> None:
    """POST 50 MB to ``path`` (as much as the server takes) and keep its answer in ``results``."""
    with connect:
        connect.settimeout(20)
        connect.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
            f"Content-Length: {FIFTY_MB}\r\nConnection: close\r\n\r\n".encode()
        )
        try:
            for _ in range(FIFTY_MB // len(CHUNK)):
                connect.sendall(CHUNK)
        except OSError:  # the server stopped reading: its answer is already there
            pass
        answer = b""
        while chunk := connect.recv(65536):
            answer += chunk
        results[path] = answer


def test_slow_clients_and_huge_uploads_do_not_take_the_site_down(served: Served) -> None:
    slow = [socket.create_connection(("127.0.0.1", served.port)) for _ in range(16)]
    for connection in slow:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    results: dict[str, bytes] = {}
    uploads = [
        threading.Thread(target=upload, args=(socket.create_connection(("127.0.0.1", served.port)), path, results))
        for path in ("/groups/restore/", "/join/")
    ]
    for thread in uploads:
        thread.start()
    answers = [get(served.port, "/") for _ in range(20)]
    for thread in uploads:
        thread.join(30)
    for connection in slow:
        connection.close()

    assert {status for status, _seconds in answers} == {200}
    slowest = max(seconds for _status, seconds in answers)
    assert slowest < 1.0, f"the home page took {slowest:.2f} s"
    print(f"slowest of 20 home pages: {slowest * 1000:.0f} ms")
    for path in ("/groups/restore/", "/join/"):
        assert results[path].startswith(b"HTTP/1.1 413 "), results[path][:200]
        assert b"<h1>Too large</h1>" in results[path]
    assert list(served.upload_tmp.iterdir()) == []
    assert list((served.run_dir / "tmp" / "client_body").iterdir()) == []
    assert get(served.port, "/health/")[0] == 200  # the database and the cache answer too


def test_thousands_of_half_open_connections_from_one_client_do_not_lock_others_out(served: Served) -> None:
    # An attack held 2,100 of them and nginx ran out of connections (1,024 per worker); now 8,192.
    slow = []
    try:
        for _ in range(2500):
            connection = socket.create_connection(("127.0.0.1", served.port))
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(connection)
        answers = [get(served.port, "/") for _ in range(10)]
    finally:
        for connection in slow:
            connection.close()
    assert {status for status, _seconds in answers} == {200}
    assert max(seconds for _status, seconds in answers) < 1.0


@pytest.mark.parametrize("header", ["X-Forwarded-Ssl: on", "X-Forwarded-Protocol: ssl", "X-Forwarded-Proto: https"])
def test_a_clients_own_forwarding_headers_change_nothing(served: Served, header: str) -> None:
    name, value = header.split(": ")
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    connection.request("GET", "/", headers={name: value})
    assert connection.getresponse().status == 200
    connection.close()


def test_a_body_under_its_limit_reaches_the_site(served: Served) -> None:
    # Past nginx and the limit, stopped by the CSRF check without reading the body (which Django then
    # drains, or nginx, still sending it to a closed connection, would answer 502 now and then).
    body = b"x" * (3 * 1024 * 1024)
    for _ in range(5):
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        connection.request("POST", "/groups/restore/", body, {"Content-Type": "application/octet-stream"})
        assert connection.getresponse().status == 403
        connection.close()


def test_without_nginx_django_refuses_a_huge_body_from_its_headers(served: Served) -> None:
    with socket.socket(socket.AF_UNIX) as direct:
        direct.settimeout(10)
        direct.connect(str(served.socket))
        direct.sendall(
            f"POST /groups/restore/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {FIFTY_MB}\r\n\r\n".encode()
        )  # and not one byte of the body
        answer = direct.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413 ")


def test_html_comes_compressed_once_and_an_unchanged_poll_is_still_a_304(served: Served) -> None:
    # nginx compresses nothing itself: Django's compressed answer goes through as it is, with its ETag (weak,
    # once compressed), which a poll sends back to be told "unchanged".
    script = (
        "from django.contrib.auth.models import User; from scoring.models import Group;"
        "from scoring.log import create_game;"
        "u = User.objects.create_user('gz', password='gzip-password-1');"
        "g = Group.objects.create(name='G', owner=u); g.members.add(u);"
        "print(create_game(g, ('Ann', 'Ben'), {}, promos=False).spectator_token)"
    )
    url = f"/watch/{manage(served.env, 'shell', '-c', script)}/live/?view=watch"
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    connection.request("GET", url, headers={"Accept-Encoding": "gzip"})
    first = connection.getresponse()
    body = first.read()
    assert first.status == 200 and first.getheader("Content-Encoding") == "gzip"
    assert b'<div id="live">' in gzip.decompress(body)  # compressed once, not twice
    etag = first.getheader("ETag") or ""
    assert etag.startswith('W/"')
    for sent in (etag, etag.removeprefix("W/")):
        connection.request("GET", url, headers={"Accept-Encoding": "gzip", "If-None-Match": sent})
        again = connection.getresponse()
        assert again.status == 304 and again.read() == b""
    connection.close()
