"""Past one machine: two app servers behind nginx, as `make serve SERVERS=2` runs them (deploy/serve.py), sharing
PostgreSQL and Redis. Requests go straight to each server's socket (with the client's address in
X-Forwarded-For, as nginx sends it) and through nginx:

- phones on both servers and on nginx save to one game at once: every save lands once or is refused (another
  phone saved first) and retried, and the log ends as long as the saves that landed;
- a change saved on one server reaches a phone polling the other at its next poll, and an unchanged poll is
  answered from Redis: with every table of the database locked, it still answers 304 at once;
- the join limit counts a client's tries on both servers together, as on one.
"""

from __future__ import annotations

import html
import http.client
import re
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import psycopg
import pytest
import redis
from django_ratelimit.core import _get_window

from deploy.serve import NGINX, UnixHTTPConnection, prepare, serve_env, start
from support.production import free_port, production_env
from tests.conftest import site_shell
from tests.redis_server import REDIS_URL
from tests.test_serve import PG_ADMIN, missing

CSRF = uuid.uuid4().hex  # any 32 letters and digits: the phones' CSRF cookie, sent back as their token
JOIN_LIMIT = 20  # scoring.site.rate_limits.RATES["join"]: 20 in 5 minutes
SAVES_PER_PHONE = 4

pytestmark = pytest.mark.gunicorn


@dataclass(frozen=True)
class Route:
    """How a request reaches the site: straight to an app server's socket, or through nginx's port."""

    name: str
    socket: Path | None = None
    port: int = 0

    def ask(
        self, client: str, method: str, path: str, headers: dict[str, str] | None = None, body: str | None = None
    ) -> tuple[int, dict[str, str], str]:
        """The status, headers and body of a request from ``client`` (a 127.x.y.z address)."""
        connection: http.client.HTTPConnection
        if self.socket is not None:
            connection = UnixHTTPConnection(self.socket, timeout=10)
            headers = {**(headers or {}), "X-Forwarded-For": client}
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(client, 0))
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return (
                response.status,
                {key.lower(): value for key, value in response.getheaders()},
                response.read().decode(),
            )
        finally:
            connection.close()


@dataclass(frozen=True)
class TwoServers:
    servers: tuple[Route, Route]
    nginx: Route
    database: str
    run_dir: Path
    game: int
    token: str
    table_code: str

    def events(self) -> int:
        with psycopg.connect(self.database) as connection:
            row = connection.execute("SELECT count(*) FROM scoring_event WHERE game_id = %s", [self.game]).fetchone()
        assert row is not None
        return int(row[0])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoServers]:
    """nginx and two gunicorn servers of 2 workers on a database and Redis prefix of their own, and a game."""
    if not Path(NGINX).exists():
        missing(f"nginx not found at {NGINX} (apt-get install -y nginx-light)")
    cache = redis.Redis.from_url(REDIS_URL)
    try:
        cache.ping()
    except redis.RedisError as error:
        missing(f"Redis is not reachable at {REDIS_URL}: {error}")
    name = f"okanagan_two_{uuid.uuid4().hex[:8]}"
    database = f"postgres://postgres@127.0.0.1:5432/{name}"
    try:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as error:
        missing(f"no PostgreSQL server at 127.0.0.1:5432: {error}")
    prefix = f"test-two-{uuid.uuid4().hex[:12]}"
    env = serve_env(production_env(database), "127.0.0.1")
    env |= {"REDIS_URL": REDIS_URL, "CACHE_KEY_PREFIX": prefix, "LOG_LEVEL": "ERROR"}
    for test_only in ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(test_only, None)
    run_dir = tmp_path_factory.mktemp("two-servers") / "run"
    running = None
    try:
        prepare(env)
        made = site_shell(GAME, env)
        assert made.returncode == 0, made.stderr
        game, token, table_code = made.stdout.split()
        port = free_port()
        running = start(env, "127.0.0.1", port, workers=2, run_dir=run_dir, servers=2)
        first, second = (Route(f"server {number}", socket) for number, socket in enumerate(running.sockets, 1))
        yield TwoServers((first, second), Route("nginx", port=port), database, run_dir, int(game), token, table_code)
    finally:
        if running is not None:
            running.stop()
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        keys = list(cache.scan_iter(match=f"{prefix}:*"))
        if keys:
            cache.delete(*keys)
        cache.close()


GAME = """
from django.contrib.auth.models import User
from scoring.creation import create_game
from scoring.models import Group
owner = User.objects.create_user("olive", password="pw-olive-123")
group = Group.objects.create(name="Two servers", owner=owner)
group.members.add(owner)
game = create_game(group, ("Ann", "Ben", "Cy"), {}, promos=False)
print(game.pk, game.spectator_token, game.table_code)
"""


def a_client(seconds_left: float = 0) -> str:
    """A loopback address of its own, whose rate-limit window still has ``seconds_left`` to run."""
    while True:
        client = f"127.{uuid.uuid4().int % 250 + 1}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250 + 1}"
        if _get_window(client, 300) - time.time() >= seconds_left:
            return client


def form(**fields: str) -> str:
    return urlencode({"csrfmiddlewaretoken": CSRF, **fields})


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@dataclass
class Phone:
    """A phone at the table: its client address, the route its requests take, and its session."""

    route: Route
    client: str
    session: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Cookie": f"csrftoken={CSRF}; sessionid={self.session}", "X-CSRFToken": CSRF}


def join(site: TwoServers, route: Route) -> Phone:
    """A phone joins the table with its code, through ``route``."""
    client = a_client()
    headers = {**FORM, "Cookie": f"csrftoken={CSRF}"}
    status, answer, _body = route.ask(client, "POST", "/join/", headers, form(code=site.table_code))
    assert status == 302, status
    session = re.search(r"sessionid=([^;]+)", answer["set-cookie"])
    assert session
    return Phone(route, client, session.group(1))


def enter_lake(site: TwoServers, phone: Phone, circles: int = 1) -> str:
    """Enter a lake of ``circles`` blue circles tap by tap, as a phone does, up to its Save button: the draft its
    page then holds, which the phone may post to save that lake, again and again (drafts are the server's to
    make: none is made up)."""
    path = f"/games/{site.game}/events/new/territory/"
    status, _headers, page = phone.route.ask(phone.client, "GET", path, phone.headers)
    assert status == 200, status
    for op in ("set:territory:lake", f"count:rewards:blue-circle:{circles}", "set:closed_by:0"):
        fields = {name: hidden(page, name) for name in ("draft", "revision", "draft_id")}
        body = urlencode(fields | {"op": op})
        status, _headers, page = phone.route.ask(phone.client, "POST", path, {**phone.headers, **FORM}, body)
        assert status == 200, (op, status)
    return hidden(page, "draft")


def hidden(page: str, name: str) -> str:
    """The value of the page's field ``name``."""
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, f"no {name} in the page"
    return html.unescape(found.group(1))


def revision_of(etag: str) -> int:
    """The log's revision in a live ETag (``"<game>.<revision>.<activity>.<language>"``:
    scoring.table.board.live_etag)."""
    return int(etag.strip('"').split(".")[1])


def save_lakes(site: TwoServers, phone: Phone, lake: str, start: threading.Barrier, outcomes: list[str]) -> None:
    """Save ``SAVES_PER_PHONE`` lakes; a save refused because the game changed is retried with the revision its
    answer shows, and one asked about because the same lake was just saved (scoring.table.twins) is confirmed, as a
    person taps "Save" again. Each answer goes into ``outcomes``: ``landed``, ``refused``, or the unexpected
    status."""
    path = f"/games/{site.game}/events/new/territory/"
    seen, twin = 0, ""
    start.wait()
    landed = 0
    for _attempt in range(20 * SAVES_PER_PHONE):
        if landed == SAVES_PER_PHONE:
            return
        body = urlencode({"draft": lake, "revision": seen, "op": "save", "twin": twin})
        status, _headers, page = phone.route.ask(phone.client, "POST", path, {**phone.headers, **FORM}, body)
        if status == 302:
            outcomes.append("landed")
            landed, seen, twin = landed + 1, seen + 1, ""
        elif status in (200, 422) and 'name="revision"' in page:
            outcomes.append("refused")
            seen = int(hidden(page, "revision"))
            twin = hidden(page, "twin") if 'name="twin"' in page else ""
        else:
            outcomes.append(f"status {status}")
            return


def test_saves_through_both_servers_at_once_lose_and_double_nothing(site: TwoServers) -> None:
    routes = [*site.servers, site.nginx]
    phones = [join(site, route) for route in routes for _ in range(2)]
    lakes = [enter_lake(site, phone) for phone in phones]
    before = site.events()
    outcomes: list[str] = []
    start = threading.Barrier(len(phones))
    threads = [
        threading.Thread(target=save_lakes, args=(site, phone, lake, start, outcomes))
        for phone, lake in zip(phones, lakes, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    landed = outcomes.count("landed")
    print(f"{landed} saves landed, {outcomes.count('refused')} refused and retried")
    assert set(outcomes) <= {"landed", "refused"}, outcomes
    assert landed == len(phones) * SAVES_PER_PHONE
    assert site.events() - before == landed


def test_a_change_on_one_server_reaches_a_phone_polling_the_other_and_an_unchanged_poll_needs_no_database(
    site: TwoServers,
) -> None:
    first, second = site.servers
    saver, watcher = join(site, first), join(site, second)
    lake = enter_lake(site, saver, circles=2)  # not the lakes saved by the other tests (asked about as twins)
    live = f"/watch/{site.token}/live/?view=game"
    polling = {**watcher.headers, "HX-Request": "true"}

    def poll(route: Route, etag: str) -> tuple[int, str]:
        status, headers, _body = route.ask(
            watcher.client, "GET", live, polling | ({"If-None-Match": etag} if etag else {})
        )
        return status, headers.get("etag", etag)

    status, etag = poll(second, "")
    assert status == 200
    assert poll(second, etag)[0] == 304
    body = urlencode({"draft": lake, "revision": revision_of(etag), "op": "save"})
    saved = first.ask(
        saver.client, "POST", f"/games/{site.game}/events/new/territory/", {**saver.headers, **FORM}, body
    )
    assert saved[0] == 302
    answered = time.monotonic()
    while (status := poll(second, etag))[0] == 304 and time.monotonic() - answered < 1.5:  # the phones' poll
        time.sleep(0.1)
    assert status[0] == 200, "the save on server 1 did not reach server 2 within a poll's 1.5 s"
    assert revision_of(status[1]) == revision_of(etag) + 1
    etag = status[1]

    # Every table locked: a poll that ran a query would wait; an unchanged one answers at once, from Redis.
    with psycopg.connect(site.database) as locker:
        tables = [row[0] for row in locker.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        locker.execute(f"LOCK TABLE {', '.join(tables)} IN ACCESS EXCLUSIVE MODE")
        try:
            for route in (second, first, site.nginx):
                began = time.monotonic()
                assert poll(route, etag)[0] == 304, route.name
                assert time.monotonic() - began < 1, route.name
        finally:
            locker.rollback()


def test_the_join_limit_counts_a_clients_tries_on_both_servers_together(site: TwoServers) -> None:
    first, second = site.servers
    wrong = form(code="ZZZZZZ")
    headers = {**FORM, "Cookie": f"csrftoken={CSRF}"}
    client = a_client(seconds_left=30)  # all its tries in one window of the limit
    statuses = [route.ask(client, "POST", "/join/", headers, wrong)[0] for route in [first, second] * JOIN_LIMIT]
    assert statuses == [422] * JOIN_LIMIT + [429] * JOIN_LIMIT
    # Through nginx, which sends them to both servers.
    client = a_client(seconds_left=30)
    log = (site.run_dir / "access.log").read_text()
    statuses = [site.nginx.ask(client, "POST", "/join/", headers, wrong)[0] for _ in range(2 * JOIN_LIMIT)]
    assert statuses == [422] * JOIN_LIMIT + [429] * JOIN_LIMIT
    answered_by = re.findall(
        rf'^{re.escape(client)} .*"unix:([^"]+)"$', (site.run_dir / "access.log").read_text()[len(log) :], re.M
    )
    assert {Path(socket).name for socket in answered_by} == {"gunicorn-1.sock", "gunicorn-2.sock"}
