"""Less to send (issue 15): HTML travels compressed, an unchanged poll is still a 304, and a changed poll sends
only the parts of the live fragment that changed, so that every phone still shows what a fresh load shows."""

from __future__ import annotations

import gzip
import json
import random
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import TYPE_CHECKING

import pytest
from django.test import Client

from rules import Territory
from scoring.creation import create_game
from scoring.live.parts import HEADER
from scoring.log import change_log, finish, reopen
from scoring.models import Draft, Game, Group
from support.entry import Entry
from support.random_games import RandomChooser, random_record
from tests.scoring.table.test_game_pages import FOREST, add_events
from tests.scoring.table.test_table_phones import claim

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
CSRF = re.compile(r"\b[A-Za-z0-9]{64}\b")
"""A CSRF token: masked afresh in every answer."""
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@dataclass(frozen=True)
class Span:
    """Where an element is in a piece of HTML."""

    id: str
    depth: int
    start: int
    end: int


class Spans(HTMLParser):
    """Every element of a piece of HTML, with its id, depth and place (as a browser would nest them)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.html = html
        self.line_starts = [0] + [match.end() for match in re.finditer("\n", html)]
        self.open: list[tuple[str, str, int]] = []
        self.spans: list[Span] = []
        self.feed(html)
        self.close()

    def _here(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            self.handle_startendtag(tag, attrs)
        else:
            self.open.append((tag, dict(attrs).get("id") or "", self._here()))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start, end = self._here(), self._here() + len(self.get_starttag_text() or "")
        self.spans.append(Span(dict(attrs).get("id") or "", len(self.open), start, end))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            opened, id_, start = self.open.pop()
            if opened == tag:
                self.spans.append(Span(id_, len(self.open), start, self.html.index(">", self._here()) + 1))
                return


def element(html: str, id_: str) -> Span:
    (span,) = [span for span in Spans(html).spans if span.id == id_]
    return span


def attribute(html: str, name: str) -> str:
    """The value of attribute ``name`` of the first element of ``html`` that has it, unescaped."""
    found: list[str] = []

    class First(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.extend(value or "" for key, value in attrs if key == name)

    First().feed(html)
    return found[0]


class Phone:
    """One phone's live part (``#game`` or ``#live``) as htmx keeps it: the page's, then changed by each poll."""

    def __init__(self, client: Client, page_url: str, fragment_id: str) -> None:
        self.client, self.page_url, self.fragment_id = client, page_url, fragment_id
        self.fragment = ""
        self.load()

    def load(self) -> None:
        """A page load (after a redirect, or a reload)."""
        page = self.client.get(self.page_url).content.decode()
        span = element(page, self.fragment_id)
        self.fragment = page[span.start : span.end]

    @property
    def poller(self) -> str:
        span = element(self.fragment, "live-poll")
        return self.fragment[span.start : span.end]

    def poll(self, *, parts: bool = True) -> Response:
        """A poll as the poller sends it (without the parts it holds: as a page from before this change), and
        its answer swapped in as htmx does: whole, or each changed part out of band and the new poller."""
        headers = json.loads(attribute(self.poller, "hx-headers"))
        if not parts:
            del headers[HEADER]
        response = self.client.get(attribute(self.poller, "hx-get"), headers={"HX-Request": "true", **headers})
        answer = response.content.decode()
        if response.status_code != 200:
            return response
        if response.get("HX-Retarget") != "#live-poll":
            self.fragment = answer.strip()
            return response
        rest = answer
        for span in reversed([span for span in Spans(answer).spans if span.depth == 0]):
            part = answer[span.start : span.end]
            if ' hx-swap-oob="true"' in part.split(">", 1)[0]:
                self.swap(span.id, part.replace(' hx-swap-oob="true"', "", 1))
                rest = rest[: span.start] + rest[span.end :]
        self.swap("live-poll", rest.strip())
        return response

    def swap(self, id_: str, new: str) -> None:
        span = element(self.fragment, id_)
        self.fragment = self.fragment[: span.start] + new + self.fragment[span.end :]

    def fresh(self) -> str:
        """The live part as a fresh load of it shows it now."""
        response = self.client.get(attribute(self.poller, "hx-get"), HTTP_HX_REQUEST="true")
        return response.content.decode().strip()

    def shows_what_a_fresh_load_shows(self) -> bool:
        return CSRF.sub("", self.fragment) == CSRF.sub("", self.fresh())


def random_game(group: Group, seed: int, territories: int, others: int) -> tuple[Game, list[dict[str, object]]]:
    """A new game of ``group`` and the events of a random legal game for it, not yet entered."""
    record = random_record(RandomChooser(seed), 3, territories, others)
    game = create_game(group, record.players, record.options.to_json(), promos=True)
    return game, [event.to_json() for event in record.events]


def test_the_game_page_travels_compressed(member_client: Client, group: Group) -> None:
    game, events = random_game(group, 7, 20, 10)
    add_events(game, *events)
    raw = member_client.get(f"/games/{game.pk}/")
    compressed = member_client.get(f"/games/{game.pk}/", headers=GZIP)
    assert "Content-Encoding" not in raw and compressed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in compressed["Vary"]
    page = gzip.decompress(compressed.content).decode()
    assert CSRF.sub("", page) == CSRF.sub("", raw.content.decode())
    assert len(raw.content) > 20_000 and len(compressed.content) < len(raw.content) / 5


def test_an_unchanged_poll_with_the_etag_of_a_compressed_answer_is_a_304(client: Client, game: Game) -> None:
    add_events(game, FOREST)
    url = f"/watch/{game.spectator_token}/live/?view=watch"
    first = client.get(url, headers=GZIP)
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip"
    etag = first["ETag"]
    assert etag.startswith('W/"')  # weakened by the compression: it still matches, weakly
    for sent in (etag, etag.removeprefix("W/")):  # as a browser's cache sends it, and as the page's poller does
        again = client.get(url, headers={**GZIP, "If-None-Match": sent})
        assert again.status_code == 304 and again.content == b""
    add_events(game, {"type": "round_end"})
    assert client.get(url, headers={**GZIP, "If-None-Match": etag}).status_code == 200


def test_a_changed_poll_sends_only_the_parts_that_changed(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    phone = Phone(member_client, f"/games/{game.pk}/", "game")
    whole = member_client.get(attribute(phone.poller, "hx-get"), HTTP_HX_REQUEST="true").content
    Entry(owner_client, f"/games/{game.pk}/events/new/territory/").tap("set:territory:lake")  # a phone starts entering
    answer = phone.poll()
    sent = answer.content.decode()
    assert answer["HX-Retarget"] == "#live-poll" and HEADER in answer["Vary"]
    # its card, and "a phone…" on the Lake button of the bottom bar
    assert re.findall(r'<div id="part-([a-z-]+)" hx-swap-oob="true">', sent) == ["entering", "territories"]
    assert "A phone is scoring a lake…" in sent and 'id="live-poll"' in sent
    assert len(answer.content) < len(whole) / 4  # the two parts, about a quarter of the whole
    assert phone.shows_what_a_fresh_load_shows()

    add_events(game, FOREST)  # a territory saved
    sent = phone.poll().content.decode()
    changed = re.findall(r'<div id="part-([a-z-]+)" hx-swap-oob="true">', sent)
    assert {"scoreboard", "log"} <= set(changed) and "join" not in changed and "territories" not in changed
    assert phone.shows_what_a_fresh_load_shows()


def test_a_phone_that_says_nothing_or_holds_other_parts_gets_the_whole_fragment(
    member_client: Client, game: Game
) -> None:
    phone = Phone(member_client, f"/games/{game.pk}/", "game")
    add_events(game, FOREST)
    answer = phone.poll(parts=False)  # a page from before the parts
    assert "HX-Retarget" not in answer and answer.content.decode().lstrip().startswith('<div id="game">')
    assert phone.shows_what_a_fresh_load_shows()
    etag = json.loads(attribute(phone.poller, "hx-headers"))["If-None-Match"]
    add_events(game, {"type": "round_end"})
    url = attribute(phone.poller, "hx-get")
    for held in ("scoreboard:AAAAAAAA", "notes:AAAAAAAA final:AAAAAAAA", "x" * 5000, "log:<script>", "é:AAAAAAAA"):
        answer = member_client.get(url, headers={"HX-Request": "true", "If-None-Match": etag, HEADER: held})
        assert answer.status_code == 200 and "HX-Retarget" not in answer, held
        assert answer.content.decode().lstrip().startswith('<div id="game">')


def test_a_part_whose_only_change_is_its_csrf_token_is_not_sent(member_client: Client, game: Game) -> None:
    phone = Phone(member_client, f"/games/{game.pk}/", "game")
    assert "csrfmiddlewaretoken" in phone.fragment[element(phone.fragment, "part-join").start :]
    add_events(game, FOREST)
    sent = phone.poll().content.decode()
    assert 'id="part-join"' not in sent and 'id="part-manage"' not in sent


@pytest.mark.parametrize("seed", range(3))
def test_after_any_changes_every_phone_shows_what_a_fresh_load_shows(seed: int, group: Group) -> None:
    chooser = random.Random(seed)
    game, pending = random_game(group, seed, 12, 6)
    member, guest, actor, watcher = Client(), Client(), Client(), Client()
    member.force_login(group.members.exclude(pk=group.owner_id).get())
    for client in (guest, actor):
        client.post("/join/", {"code": game.table_code})
    phones = [
        Phone(member, f"/games/{game.pk}/", "game"),
        Phone(guest, f"/games/{game.pk}/", "game"),
        Phone(watcher, f"/watch/{game.spectator_token}/", "live"),
    ]
    done: list[dict[str, object]] = []
    for _step in range(24):
        game.refresh_from_db()
        change = chooser.choice(["event", "event", "event", "undo", "seat", "my seat", "entry", "end"])
        if game.status == Game.Status.FINISHED:
            reopen(game, game.revision)
            game.refresh_from_db()
            for client in (guest, actor):  # the table code changed: the guests join again
                client.post("/join/", {"code": game.table_code})
            phones[1].load()
        elif change == "event" and pending:
            done.append(pending.pop(0))
            add_events(game, done[-1])
        elif change == "undo" and done:
            pending.insert(0, done.pop())
            change_log(game, game.revision, lambda log: log[:-1])
        elif change == "seat":
            if game.seats.filter(phone="").exists() and chooser.random() < 0.7:
                claim(actor, game, chooser.choice(list(game.seats.filter(phone="").values_list("position", flat=True))))
            else:
                actor.post(f"/games/{game.pk}/seats/", {"leave": "1"})
        elif change == "my seat":  # the guest's own phone: a redirect, then the page
            claim(guest, game, chooser.choice(list(game.seats.values_list("position", flat=True))))
            phones[1].load()
        elif change == "entry":
            draft = Draft.objects.filter(game=game).first()
            if draft is not None and chooser.random() < 0.5:
                actor.post(f"/games/{game.pk}/drafts/{draft.pk}/cancel/")
            else:
                territory = chooser.choice(list(Territory))
                Entry(actor, f"/games/{game.pk}/events/new/territory/").tap(f"set:territory:{territory}")
        elif change == "end":
            finish(game, game.revision)
        for phone in phones:
            if chooser.random() < 0.7:  # some phones miss a change or two (hidden, offline)
                status = phone.poll().status_code
                assert status in (200, 304), status
                assert phone.shows_what_a_fresh_load_shows(), (seed, _step, change, phone.page_url)


def test_a_spectator_s_changed_poll_sets_no_cookie(client: Client, game: Game) -> None:
    phone = Phone(client, f"/watch/{game.spectator_token}/", "live")
    add_events(game, FOREST)
    answer = phone.poll()
    assert answer.status_code == 200 and "HX-Retarget" in answer
    assert not answer.cookies and "Cookie" not in answer.get("Vary", "")
