"""`make serve` holds when clients are hostile: nginx in front of gunicorn, started as `make serve` does
(deploy/serve.py), on SQLite and on PostgreSQL.

While 16 clients send half a request and wait, and two clients upload 50 MB, the home page still
answers within a second; the uploads get the site's 413 page and nothing is written to disk. Without
nginx, Django refuses an oversized body from its headers alone.

Behind a TLS terminator (a second nginx, started here with a certificate made here), with two app servers:
a browser logs in, each client has its own rate-limit bucket, a huge query string or a dead app server
costs nobody else an answer, and the access log keeps no table code or token.
"""

from __future__ import annotations

import getpass
import gzip
import http.client
import os
import re
import signal
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from deploy.nginx import NCHAN_MODULE, PUSH_SOCKET
from deploy.serve import NGINX, Site, UnixHTTPConnection, answers, manage, prepare, serve_env, start
from support.production import free_port, production_env

PG_ADMIN = "postgres://postgres@127.0.0.1:5432/postgres"
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


def database(kind: str, folder: Path, name: str) -> str:
    """A fresh database for the site: a SQLite file in ``folder``, or PostgreSQL's ``name``; skip without nginx."""
    if not Path(NGINX).exists():
        missing(f"nginx not found at {NGINX} (apt-get install -y nginx-light)")
    if kind == "sqlite":
        return f"sqlite:///{folder / 'serve.sqlite3'}"
    for sql in (f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}"):
        if subprocess.run(["psql", PG_ADMIN, "-q", "-c", sql], capture_output=True).returncode:
            missing("no PostgreSQL server at 127.0.0.1:5432")
    return PG_ADMIN.removesuffix("postgres") + name


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The site as `make serve` runs it, on a fresh database, once per database for this module."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    url = database(request.param, tmp_path, "okanagan_serve")
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


def test_the_open_pages_and_the_service_worker_answer_with_hashed_static_files(served: Served) -> None:
    """The static files have hashed names in production (not under the test settings): every page a stranger
    may open answers, the service worker too, and it names the files as they are served."""
    for path in ("/", "/rules/", "/calculators/", "/accounts/login/", "/accounts/signup/", "/offline/", "/health/"):
        assert get(served.port, path)[0] == 200, path
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    connection.request("GET", "/sw.js")
    answer = connection.getresponse()
    script = answer.read().decode()
    connection.close()
    assert answer.status == 200 and answer.getheader("Content-Type", "").startswith("text/javascript")
    assert 'const STATIC = "/static/";' in script


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
        "from scoring.creation import create_game;"
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


def stream_status(port: int, token: str) -> tuple[bytes, socket.socket]:
    """A page's stream of game ``token`` asked for through nginx: its status line, and the connection, open."""
    stream = socket.create_connection(("127.0.0.1", port), timeout=10)
    stream.sendall(
        f"GET /watch/{token}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    return stream.recv(65536).split(b"\r\n", 1)[0], stream


def test_a_stream_opens_for_a_current_game_only_and_no_client_reaches_the_publisher(served: Served) -> None:
    if not NCHAN_MODULE.exists():
        missing(f"nginx's nchan module not found at {NCHAN_MODULE} (apt-get install -y libnginx-mod-nchan)")
    script = (
        "from django.contrib.auth.models import User; from scoring.models import Group;"
        "from scoring.creation import create_game;"
        "u = User.objects.create_user('push', password='push-password-1');"
        "g = Group.objects.create(name='P', owner=u); g.members.add(u);"
        "print(create_game(g, ('Ann', 'Ben'), {}, promos=False).spectator_token)"
    )
    token = manage(served.env, "shell", "-c", script)
    status, stream = stream_status(served.port, token)
    assert status == b"HTTP/1.1 200 OK"
    refused, other = stream_status(served.port, "nosuchtoken")
    other.close()
    assert refused == b"HTTP/1.1 403 Forbidden"
    # The publisher is on a unix socket of the run folder: through the site's port, /pub/ and the question nginx
    # asks the site are nobody's to reach.
    for method, path in (("POST", f"/pub/{token}"), ("GET", "/_stream_allowed"), ("DELETE", f"/pub/{token}")):
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        connection.request(method, path, body="changed" if method == "POST" else None)
        assert connection.getresponse().status in {403, 404, 405}, path
        connection.close()
    # An app server's publish reaches the stream.
    publisher = UnixHTTPConnection(served.run_dir / PUSH_SOCKET)
    publisher.request("POST", f"/pub/{token}", body="changed")
    assert publisher.getresponse().status in {201, 202}
    publisher.close()
    received = b""
    while b"data: changed" not in received:
        chunk = stream.recv(65536)
        assert chunk, received
        received += chunk
    stream.close()


FRONT_ADDRESS = "127.0.0.2"
"""The TLS terminator reaches the site from this address, the only one the site trusts: a client at 127.0.0.1
is a stranger whose forwarding headers prove nothing."""
CLIENTS = ("198.51.100.7", "203.0.113.9")
"""The addresses the terminator forwards for the clients of its first and second port."""
FRONT_CONF = """
daemon off;
{user}
pid {folder}/nginx.pid;
error_log stderr warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    # Two clients at two addresses: a real terminator forwards $remote_addr ($proxy_add_x_forwarded_for).
    map $server_port $client {{ {first_port} {first}; default {second}; }}
    server {{
        listen 127.0.0.1:{first_port} ssl;
        listen 127.0.0.1:{second_port} ssl;
        ssl_certificate {folder}/cert.pem;
        ssl_certificate_key {folder}/key.pem;
        location / {{
            proxy_pass http://127.0.0.1:{site_port};
            proxy_bind {front_address};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $client;
            proxy_set_header X-Forwarded-Proto https;
        }}
    }}
}}
"""


@dataclass
class Fronted:
    site: Site
    ports: tuple[int, int]
    """The terminator's two ports: two clients, at the two addresses of ``CLIENTS``."""
    port: int  # the site's nginx, plain HTTP
    run_dir: Path
    env: dict[str, str]
    tls: ssl.SSLContext
    log: Path
    """Where the app servers' messages and nginx's error log go, as `make serve` prints them."""


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def fronted(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fronted]:
    """The site as `make serve` runs it with two app servers, behind a TLS terminator, once per database."""
    folder = tmp_path_factory.mktemp(f"fronted-{request.param}")
    url = database(request.param, folder, "okanagan_front")
    front = folder / "front"
    front.mkdir()
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", front / "key.pem", "-out", front / "cert.pem"],
        check=True, capture_output=True,
    )  # fmt: skip
    env = serve_env(production_env(url), "127.0.0.1") | {
        "TRUSTED_PROXIES": FRONT_ADDRESS,
        "SECURE_SSL_REDIRECT": "1",
        "SECURE_COOKIES": "1",
        "LOG_LEVEL": "WARNING",
    }
    for test_only in ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(test_only, None)
    prepare(env)
    port, ports = free_port(), (free_port(), free_port())
    log = (folder / "serve.log").open("w")
    site = start(env, "127.0.0.1", port, workers=1, run_dir=folder / "run", servers=2, log=log)
    config = FRONT_CONF.format(
        user=f"user {getpass.getuser()};" if os.geteuid() == 0 else "",
        folder=front, first_port=ports[0], second_port=ports[1], first=CLIENTS[0], second=CLIENTS[1],
        site_port=port, front_address=FRONT_ADDRESS,
    )  # fmt: skip
    (front / "nginx.conf").write_text(config)
    terminator = subprocess.Popen([NGINX, "-p", str(front), "-c", str(front / "nginx.conf"), "-e", "stderr"])
    tls = ssl.create_default_context(cafile=front / "cert.pem")
    try:
        for _ in range(100):
            if answers(http.client.HTTPSConnection("127.0.0.1", ports[0], timeout=5, context=tls)):
                break
            time.sleep(0.1)
        yield Fronted(site, ports, port, folder / "run", env, tls, folder / "serve.log")
    finally:
        terminator.terminate()
        terminator.wait(30)
        site.stop()
        log.close()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (an app server's workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # it ended meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def ask(fronted: Fronted, path: str, client: int = 0) -> http.client.HTTPResponse:
    """A GET over HTTPS through the terminator, as client 0 or 1; the answer, read."""
    connection = http.client.HTTPSConnection("127.0.0.1", fronted.ports[client], timeout=20, context=fronted.tls)
    connection.request("GET", path)
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer


def cookies(answer: http.client.HTTPResponse) -> dict[str, str]:
    """The cookies an answer sets, by name: their values, and whether each is Secure."""
    found = {}
    for header in answer.headers.get_all("Set-Cookie") or []:
        name, _, rest = header.partition("=")
        found[name] = rest.split(";")[0]
        found[name + ":secure"] = str("; secure" in rest.lower())
    return found


def test_a_browser_logs_in_through_the_tls_terminator(fronted: Fronted) -> None:
    manage(fronted.env, "shell", "-c", "from django.contrib.auth.models import User;"
           "User.objects.create_user('tls', password='through-the-front-1')")  # fmt: skip
    origin = f"https://127.0.0.1:{fronted.ports[0]}"
    connection = http.client.HTTPSConnection("127.0.0.1", fronted.ports[0], timeout=20, context=fronted.tls)
    connection.request("GET", "/accounts/login/")
    form = connection.getresponse()
    page = form.read().decode()
    assert form.status == 200
    assert "max-age=31536000" in (form.getheader("Strict-Transport-Security") or "")
    csrf = cookies(form)
    assert csrf["csrftoken:secure"] == "True"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    body = f"csrfmiddlewaretoken={token[1]}&username=tls&password=through-the-front-1"
    connection.request("POST", "/accounts/login/", body, {
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={csrf['csrftoken']}",
        "Origin": origin, "Referer": f"{origin}/accounts/login/",
    })  # fmt: skip
    login = connection.getresponse()
    login.read()
    assert login.status == 302, "the CSRF check refused the browser's login"  # 403: Origin checking failed
    session = cookies(login)
    assert session["sessionid:secure"] == "True"
    connection.request("GET", "/", headers={"Cookie": f"sessionid={session['sessionid']}"})
    home = connection.getresponse()
    assert home.status == 200 and b"tls" in home.read()
    connection.close()


def test_health_answers_through_the_terminator_and_plain_http_is_sent_to_https(fronted: Fronted) -> None:
    health = ask(fronted, "/health/")
    assert health.status == 200  # not a redirect to itself
    assert health.getheader("Strict-Transport-Security")
    # A stranger's own forwarding headers are not believed: plain HTTP is redirected to HTTPS.
    for headers in ({}, {"X-Forwarded-Proto": "https", "X-Forwarded-For": CLIENTS[0]}):
        connection = http.client.HTTPConnection("127.0.0.1", fronted.port, timeout=10)
        connection.request("GET", "/health/", headers=headers)
        plain = connection.getresponse()
        assert plain.status == 301 and (plain.getheader("Location") or "").startswith("https://")
        connection.close()


def test_each_client_behind_the_terminator_has_its_own_rate_limit(fronted: Fronted) -> None:
    statuses = [ask(fronted, "/join/NOSUCHCODE1/").status for _ in range(21)]
    assert 429 not in statuses[:20] and statuses[20] == 429  # the join limit: 20 tries in 5 minutes
    assert ask(fronted, "/join/NOSUCHCODE2/", client=1).status != 429  # the other client's own bucket


def test_a_huge_query_string_costs_no_one_else_an_answer(fronted: Fronted) -> None:
    # The login redirect drops a query too long to carry back, and carries a shorter one (quoted twice: a
    # character of it is up to 5 bytes of the Location header, which nginx's header buffer holds). Neither
    # answer is a 502, nor marks a server failed for the others (as a 502 would have with max_fails=1).
    huge = ask(fronted, "/groups/new/?" + "q=" + "a" * 3800)
    assert huge.status == 302 and huge.getheader("Location") == "/accounts/login/?next=/groups/new/"
    long = ask(fronted, "/groups/new/?" + '"' * 320)
    assert long.status == 302 and (long.getheader("Location") or "").endswith("%2522" * 320)
    for _ in range(19):
        assert ask(fronted, "/groups/new/?" + "q=" + "%25" * 1300).status == 302
    assert [ask(fronted, "/").status for _ in range(20)] == [200] * 20


def test_an_app_server_that_dies_is_started_again_and_the_site_answers_meanwhile(fronted: Fronted) -> None:
    dead = fronted.site.servers[0]
    dead.send_signal(signal.SIGKILL)  # its workers, orphans, stop once they notice
    dead.wait()
    statuses = []
    deadline = time.monotonic() + 120  # a generous bound for a busy machine: it takes a second or two
    while not (fronted.site.servers[0] is not dead and answers(UnixHTTPConnection(fronted.site.sockets[0]))):
        assert time.monotonic() < deadline, "the dead app server was not started again"
        statuses.append(ask(fronted, "/").status)
        time.sleep(0.05)
    statuses += [ask(fronted, "/").status for _ in range(10)]
    assert set(statuses) == {200}
    assert fronted.site.servers[0].poll() is None and fronted.site.nginx is not None


def test_the_access_log_keeps_no_table_code_or_token(fronted: Fronted) -> None:
    secrets = ("SECRETCODE9", "spectatortoken42", "invitetoken77", "QUERYCODE5")
    ask(fronted, f"/join/{secrets[0]}/")
    ask(fronted, f"/watch/{secrets[1]}/live/?view=watch")
    ask(fronted, f"/invite/{secrets[2]}/", client=1)
    ask(fronted, f"/join/?code={secrets[3]}")
    masked = ('"GET /join/*/"', '"GET /watch/*/live/?"', '"GET /invite/*/"', '"GET /join/?"')
    deadline = time.monotonic() + 10  # nginx writes a line once the answer is sent, maybe after the client read it
    while not all(line in (log := (fronted.run_dir / "access.log").read_text()) for line in masked):
        assert time.monotonic() < deadline, log
        time.sleep(0.05)
    assert not [secret for secret in secrets if secret in log]
    assert f"{CLIENTS[1]} [" in log  # each client's own address, not the terminator's


def test_no_log_keeps_a_table_code_or_token_when_a_request_fails(fronted: Fronted) -> None:
    """nginx's error log quotes the request line and the upstream URL of a request an app server did not take,
    and Django logs each page not found with its path: both are written masked, as the access log."""
    secrets = ("SECRETCODE9", "spectatortoken42", "invitetoken77", "QUERYCODE5")
    paths = (f"/join/{secrets[0]}/", f"/watch/{secrets[1]}/live/?view=watch", f"/invite/{secrets[2]}/x/",
             f"/join/?code={secrets[3]}")  # fmt: skip
    assert ask(fronted, paths[1]).status == 404
    dead = fronted.site.servers[0]
    for worker in children(dead.pid):  # its workers too: orphaned, they would answer on until they noticed
        os.kill(worker, signal.SIGKILL)
    dead.send_signal(signal.SIGKILL)  # nginx cannot reach it until it is started again
    dead.wait()
    failed = r'\[error\] .* request: "GET /(join|watch|invite)/\*/\S* HTTP/1\.\d", upstream: "http://unix:\S+:/\1/\*/'
    deadline = time.monotonic() + 120
    while not (fronted.site.servers[0] is not dead and answers(UnixHTTPConnection(fronted.site.sockets[0]))):
        assert time.monotonic() < deadline, "the dead app server was not started again"
        for path in paths:
            ask(fronted, path)
    deadline = time.monotonic() + 10  # nginx's error log reaches the file through serve.py's masking thread
    while not re.search(failed, log := fronted.log.read_text()):  # a request the dead server did not take
        assert time.monotonic() < deadline, log[-2000:]
        time.sleep(0.05)
    assert "WARNING django.request: Not Found: /watch/*/live/" in log
    files = [fronted.log, *(path for path in fronted.run_dir.rglob("*") if path.is_file() and path.suffix != ".sock")]
    assert not [
        (secret, path.name) for path in files for secret in secrets if secret in path.read_text(errors="replace")
    ]
