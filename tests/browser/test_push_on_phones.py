"""Push on real phones, through nginx as `make serve` runs it (deploy/serve.py, with nchan): a save on one phone
shows on another within half a second with the timed polls turned off, so by the stream alone, on one app server
and on two; who is entering a territory shows on the other phones within 0.3 s of the first tap's answer, and an entry
continued on another phone leaves its first phone at once, as the end of the game leaves an entry and a deleted
game sends its phones away; with the streams blocked the pages stay live by polling; nginx restarted, the streams
come back; an idle game page makes at most 3 requests a minute.

One app server on SQLite without Redis (push does not use Redis), two on PostgreSQL and Redis, as in production.
Latencies are read from the phones' own clocks (``performance.timeOrigin + performance.now()``, the same wall clock
for every page of this machine), as bench/load.py measures a save reaching the other phones: from the answer to
the tap that made the change (its response's last byte, from the tapping phone's resource or navigation timing)
to the moment the change appeared on the watching phone (a MutationObserver). Unloaded, from the tap itself, they
are about 0.15-0.35 s for a save and 0.15 s for presence; from the answer, what push adds to the tap.
"""

from __future__ import annotations

import re
import signal
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import expect

from deploy.nginx import NCHAN_MODULE
from deploy.serve import Site, prepare, serve_env, start
from support.production import free_port, production_env
from tests.conftest import site_shell
from tests.redis_server import REDIS_URL
from tests.test_serve import database, missing

from .test_one_territory_on_phones import bar_link
from .test_play_on_a_phone import chip, score_a_territory, tap

pytestmark = pytest.mark.browser

OWNER = ("olive", "pw-olive-123")
GAME = """
from django.contrib.auth.models import User
from scoring.creation import create_game
from scoring.models import Group
owner, made = User.objects.get_or_create(username="olive")
if made:
    owner.set_password("pw-olive-123")
    owner.save()
group = Group.objects.get_or_create(name="Push", owner=owner)[0]
group.members.add(owner)
game = create_game(group, PLAYERS, {}, promos=False)
print(game.pk, game.table_code)
"""

END = """
from scoring.log import finish
from scoring.models import Game
game = Game.objects.get(pk=GAME)
finish(game, game.revision)
"""

SEEN_AT = """([selector, text]) => {
    window.seenAt = null;
    const look = () => {
        const element = document.querySelector(selector);
        if (window.seenAt === null && element && element.textContent.includes(text)) {
            window.seenAt = performance.timeOrigin + performance.now();
        }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
    look();
}"""
"""Installed on the watching phone: the moment the element of ``selector`` first contains ``text``."""


@dataclass
class Pushed:
    """The site under nginx with nchan, its app servers, and how to reach it."""

    site: Site
    base: str
    env: dict[str, str]

    def new_game(self, players: tuple[str, ...]) -> tuple[int, str]:
        """A new game of ``players`` in the owner's group: its pk and table code."""
        made = site_shell(GAME.replace("PLAYERS", repr(players)), self.env)
        assert made.returncode == 0, made.stderr
        pk, code = made.stdout.split()
        return int(pk), code


@pytest.fixture(scope="module", params=["one server", pytest.param("two servers", marks=pytest.mark.gunicorn)], ids=str)
def pushed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pushed]:
    """The site as `make serve` runs it: one app server on SQLite without Redis, or two (`SERVERS=2`) on
    PostgreSQL and Redis; skipped without nginx, nchan, PostgreSQL or Redis, except in CI."""
    if not NCHAN_MODULE.exists():
        missing(f"nginx's nchan module not found at {NCHAN_MODULE} (apt-get install -y libnginx-mod-nchan)")
    folder = tmp_path_factory.mktemp("push")
    servers = 2 if request.param == "two servers" else 1
    url = database("postgres" if servers == 2 else "sqlite", folder, f"okanagan_push_{uuid.uuid4().hex[:8]}")
    env = serve_env(production_env(url), "127.0.0.1") | {"LOG_LEVEL": "WARNING"}
    if servers == 2:
        try:
            redis.Redis.from_url(REDIS_URL).ping()
        except redis.RedisError as error:
            missing(f"Redis is not reachable at {REDIS_URL}: {error}")
        env |= {"REDIS_URL": REDIS_URL}
    for test_only in ("DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(test_only, None)
    prepare(env)
    port = free_port()
    site = start(env, "127.0.0.1", port, workers=2, run_dir=folder / "run", servers=servers)
    try:
        yield Pushed(site, f"http://127.0.0.1:{port}", env)
    finally:
        site.stop()


def a_phone(browser: Any, *, timed_polls: bool = True) -> Any:
    """A phone (390×844); ``timed_polls=False``: its pages make no timed poll (static/js/table.js), so what shows a
    change there came by the stream."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    if not timed_polls:
        context.add_init_script("window.timedPollsOff = true;")
    return context.new_page()


def owner_phone(browser: Any, pushed: Pushed, *, timed_polls: bool = True) -> Any:
    """The group's owner, logged in."""
    page = a_phone(browser, timed_polls=timed_polls)
    page.goto(pushed.base + "/accounts/login/")
    page.get_by_label("Username").fill(OWNER[0])
    page.get_by_label("Password").fill(OWNER[1])
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your groups")).to_be_visible()
    return page


def guest_phone(browser: Any, pushed: Pushed, code: str, *, timed_polls: bool = True) -> Any:
    """A phone without an account, at the table by its code."""
    page = a_phone(browser, timed_polls=timed_polls)
    page.goto(f"{pushed.base}/join/{code}/")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("heading", name=re.compile("^Okanagan · "))).to_be_visible()
    return page


def streaming(page: Any) -> None:
    """Wait until ``page``'s stream is open (its pages mark it)."""
    expect(page.locator("html")).to_have_attribute("data-stream", "open")


ANSWERED_AT = """(path) => {
    const navigation = performance.getEntriesByType("navigation")[0];
    if (!path) return navigation.redirectEnd ? performance.timeOrigin + navigation.redirectEnd : null;
    const taps = performance.getEntriesByType("resource").filter((entry) => entry.name.includes(path));
    return taps.length ? performance.timeOrigin + taps[0].responseEnd : null;
}"""
"""On the tapping phone: when the answer to its tap came, the first request to ``path``, or without a path the
post its page was redirected from (a plain form's save)."""


def seconds_until_seen(watcher: Any, tapping: Any, path: str = "") -> float:
    """Seconds from the answer to ``tapping``'s tap (see :data:`ANSWERED_AT`) to when the watched change appeared
    on ``watcher``."""
    seen = watcher.evaluate("window.seenAt")
    answered = tapping.evaluate(ANSWERED_AT, path)
    assert seen is not None and answered is not None
    return (float(seen) - float(answered)) / 1000


def test_a_save_shows_on_another_phone_within_half_a_second_of_its_answer_by_the_stream_alone(
    browser: Any, pushed: Pushed
) -> None:
    game, code = pushed.new_game(("Ann", "Ben"))
    saver = owner_phone(browser, pushed)
    saver.goto(f"{pushed.base}/games/{game}/")
    watcher = guest_phone(browser, pushed, code, timed_polls=False)
    streaming(watcher)
    watcher.evaluate(SEEN_AT, ["#game", "Event 0: end of round 1"])

    with saver.expect_navigation():
        saver.get_by_role("button", name="End of round 1").click()  # one tap, one save
    expect(watcher.locator("#game").get_by_text("Event 0: end of round 1", exact=True)).to_be_visible()
    assert seconds_until_seen(watcher, saver) <= 0.5
    saver.context.close()
    watcher.context.close()


def test_who_is_entering_a_territory_shows_on_another_phone_within_0_3_s_of_the_first_tap_s_answer(
    browser: Any, pushed: Pushed
) -> None:
    game, code = pushed.new_game(("Lena", "Theo"))
    lena = owner_phone(browser, pushed)
    lena.goto(f"{pushed.base}/games/{game}/")
    tap(lena, "I am Lena")
    score_a_territory(lena, "Field")
    theo = guest_phone(browser, pushed, code, timed_polls=False)
    streaming(theo)
    theo.evaluate(SEEN_AT, ["#part-territories", "Lena…"])

    chip(lena, "yellow square", 2)  # the first tap: her entry exists
    expect(bar_link(theo, "Field").locator(".terr-who")).to_have_text("Lena…")
    assert seconds_until_seen(theo, lena, "/events/new/territory/") <= 0.3
    lena.context.close()
    theo.context.close()


def test_an_entry_continued_on_another_phone_is_withdrawn_from_its_phone_at_once(browser: Any, pushed: Pushed) -> None:
    game, code = pushed.new_game(("Lena", "Theo"))
    lena = owner_phone(browser, pushed, timed_polls=False)  # nor its entry's checks: what tells it is the stream
    lena.goto(f"{pushed.base}/games/{game}/")
    score_a_territory(lena, "Field")
    chip(lena, "yellow square", 2)
    streaming(lena)
    lena.evaluate(SEEN_AT, ["#entry-queue", "This entry was continued on another phone."])

    theo = guest_phone(browser, pushed, code)
    with theo.expect_navigation():
        theo.get_by_role("button", name="Continue here").click()
    expect(lena.locator("#entry-queue")).to_have_text("This entry was continued on another phone.")
    expect(lena.locator("#wizard button")).to_have_count(0)  # its stale controls are gone
    assert seconds_until_seen(lena, theo) <= 0.5
    lena.context.close()
    theo.context.close()


def test_the_end_of_the_game_reaches_a_phone_in_an_entry_at_once(browser: Any, pushed: Pushed) -> None:
    game, code = pushed.new_game(("Ann", "Ben"))
    ben = guest_phone(browser, pushed, code, timed_polls=False)
    score_a_territory(ben, "Lake")
    chip(ben, "blue circle", 2)
    streaming(ben)

    ended = site_shell(END.replace("GAME", str(game)), pushed.site.env)  # another phone ends it, publishing
    assert ended.returncode == 0, ended.stderr
    expect(ben.get_by_text("The game has ended: its events can no longer be changed.")).to_be_visible()
    expect(ben.locator("#wizard button")).to_have_count(0)  # its stale controls are gone
    ben.context.close()


def test_a_deleted_game_sends_its_phones_away_at_once_saying_who(browser: Any, pushed: Pushed) -> None:
    game, code = pushed.new_game(("Ann", "Ben"))
    owner = owner_phone(browser, pushed)
    watcher = guest_phone(browser, pushed, code, timed_polls=False)
    streaming(watcher)

    owner.goto(f"{pushed.base}/games/{game}/delete/")
    tap(owner, "Delete the game")
    expect(owner.get_by_text(re.compile("^Game deleted: "))).to_be_visible()
    expect(watcher).to_have_url(f"{pushed.base}/")  # its stream closed with its channel: it polled at once
    expect(watcher.get_by_text(f"This game was deleted by {OWNER[0]}.")).to_be_visible()
    owner.context.close()
    watcher.context.close()


def test_with_its_stream_blocked_a_page_stays_live_by_polling(browser: Any, pushed: Pushed) -> None:
    game, code = pushed.new_game(("Ann", "Ben"))
    saver = owner_phone(browser, pushed)
    saver.goto(f"{pushed.base}/games/{game}/")
    watcher = a_phone(browser)
    tried = []

    def refused(route: Any) -> None:
        tried.append(route.request.url)
        route.abort()

    watcher.context.route(re.compile(r"/stream/$"), refused)  # a proxy or a firewall that refuses streams
    watcher.goto(f"{pushed.base}/join/{code}/")
    watcher.get_by_role("button", name="Join").click()
    expect(watcher.get_by_role("heading", name=re.compile("^Okanagan · "))).to_be_visible()

    saver.get_by_role("button", name="End of round 1").click()
    expect(watcher.locator("#game").get_by_text("Event 0: end of round 1", exact=True)).to_be_visible()
    assert tried  # it did try its stream
    expect(watcher.locator("html")).not_to_have_attribute("data-stream", "open")
    saver.context.close()
    watcher.context.close()


def test_nginx_restarted_the_streams_come_back_and_carry_the_next_save(browser: Any, pushed: Pushed) -> None:
    game, code = pushed.new_game(("Ann", "Ben"))
    saver = owner_phone(browser, pushed)
    saver.goto(f"{pushed.base}/games/{game}/")
    watcher = guest_phone(browser, pushed, code, timed_polls=False)
    streaming(watcher)

    nginx = pushed.site.nginx
    assert nginx is not None
    nginx.send_signal(signal.SIGTERM)  # nginx stops (a crash, an operator): make serve starts it again
    nginx.wait()
    expect(watcher.locator("html")).not_to_have_attribute("data-stream", "open")
    streaming(watcher)  # back, after its pause

    watcher.evaluate(SEEN_AT, ["#game", "Event 0: end of round 1"])
    saver.reload()
    with saver.expect_navigation():
        saver.get_by_role("button", name="End of round 1").click()
    expect(watcher.locator("#game").get_by_text("Event 0: end of round 1", exact=True)).to_be_visible()
    assert seconds_until_seen(watcher, saver) <= 0.5
    assert pushed.site.nginx is not nginx and pushed.site.running()
    saver.context.close()
    watcher.context.close()


def test_an_idle_game_page_makes_at_most_3_requests_a_minute(browser: Any, pushed: Pushed) -> None:
    """A minute of the page's own time, with its real intervals (a timed poll every 1.5 s, let through once a
    minute while the stream is open, static/js/table.js), run at once by Playwright's clock, which drives the
    page's timers and clock; the stream, a real connection, opened before the minute, is counted too. The
    figure: the stream and one safety poll, 2; the page may not go past 3."""
    game, code = pushed.new_game(("Ann", "Ben"))
    watcher = a_phone(browser)
    watcher.clock.install()
    watcher.goto(f"{pushed.base}/join/{code}/")
    watcher.get_by_role("button", name="Join").click()
    expect(watcher.get_by_role("heading", name=re.compile("^Okanagan · "))).to_be_visible()
    streaming(watcher)
    expect(watcher.locator("#live-poll")).to_have_attribute("data-stream-every", "60000")
    asked: list[str] = []
    watcher.on("request", lambda request: asked.append(request.url))

    with watcher.expect_request(re.compile(r"/live/\?")):  # the safety poll
        watcher.clock.run_for(60_000)
    expect(watcher.locator("html")).to_have_attribute("data-stream", "open")  # still the same stream
    assert 1 + len(asked) <= 3, asked  # the stream, and what the minute asked for
    watcher.context.close()


def test_the_stream_s_access_log_line_keeps_no_token(browser: Any, pushed: Pushed) -> None:
    _game, code = pushed.new_game(("Ann", "Ben"))
    watcher = guest_phone(browser, pushed, code)
    streaming(watcher)
    watcher.context.close()  # nginx writes the stream's line once it ends
    log = Path(pushed.site.run_dir) / "access.log"
    expect_line = re.compile(r'"GET /watch/\*/stream/" 499 ')  # closed by the phone
    deadline = time.monotonic() + 10
    while not expect_line.search(text := log.read_text()):
        assert time.monotonic() < deadline, text[-2000:]
        time.sleep(0.05)
    assert not re.search(r"/watch/[A-Za-z0-9_-]{20,}/", text)
