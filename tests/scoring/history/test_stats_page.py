"""The statistics page as a group reads it on a phone (issue 32): a jump list to its parts, what a group talks about
first (records, head-to-heads, ratings in words, what winners took), the rest folded; tables with real header cells;
the part-by-part averages saying over how many games they are."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from django.test import Client

from scoring.models import Group
from tests.scoring.history.test_bgsplay_import import DAY, a_play, play_file, upload
from tests.scoring.history.test_insights import a_finished_game
from tests.scoring.history.test_stats import cooper


class Cells(HTMLParser):
    """The header cells of a page's tables, and the first cell of each body row: (tag, scope, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.heads: list[tuple[str, str]] = []
        self.firsts: list[tuple[str, str]] = []
        self._cell: list[str] | None = None
        self._scope = ""
        self._in_body = False
        self._row_start = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tbody":
            self._in_body = True
        elif tag == "tr":
            self._row_start = True
        elif tag in ("th", "td"):
            if self._in_body and self._row_start:
                self.firsts.append((tag, dict(attrs).get("scope") or ""))
            self._row_start = False
            if tag == "th":
                self._cell, self._scope = [], dict(attrs).get("scope") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "th" and self._cell is not None:
            self.heads.append((self._scope, "".join(self._cell).strip()))
            self._cell = None
        elif tag == "tbody":
            self._in_body = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def cells(page: str) -> Cells:
    parser = Cells()
    parser.feed(page)
    return parser


def a_history(group: Group) -> None:
    a_finished_game(group)
    a_finished_game(group)
    cooper(group, ("Ann", 50, 1), ("Ben", 45, 0))


def test_the_page_leads_with_what_a_group_talks_about_and_folds_the_rest(member_client: Client, group: Group) -> None:
    a_history(group)
    page = html.unescape(member_client.get(f"/groups/{group.pk}/stats/").content.decode())
    jumps = re.findall(r'<nav class="jump".*?</nav>', page, re.S)
    assert len(jumps) == 1
    targets = re.findall(r'href="#([\w-]+)"', jumps[0])
    assert {"records-okanagan", "head-to-head-okanagan", "ratings-okanagan", "winners", "players-okanagan",
            "insights", "records-cooper_island", "players-cooper_island"} <= set(targets)  # fmt: skip
    for target in targets:
        assert page.count(f'id="{target}"') == 1, target
    okanagan = page[page.index('id="okanagan"') : page.index('id="cooper_island"')]
    order = ['id="records-okanagan"', 'id="head-to-head-okanagan"', 'id="ratings-okanagan"', 'id="winners"',
             'id="players-okanagan"', 'id="insights"']  # fmt: skip
    assert [okanagan.index(part) for part in order] == sorted(okanagan.index(part) for part in order)
    for folded_part in ('id="players-okanagan"', 'id="insights"'):  # inside a fold: following a link opens it
        before = okanagan[: okanagan.index(folded_part)]
        assert before.rindex('<details class="fold">') > before.rfind("</details>")
    folded = okanagan[okanagan.index('id="players-okanagan"') :]
    for detail in ("Win rate by number of players", "Average score, part by part", "Wins per player", "Tokens"):
        assert detail in folded
    assert "Territories they closed" not in okanagan[: okanagan.index('id="players-okanagan"')]


def test_the_tables_have_header_cells_for_their_corner_and_their_rows(member_client: Client, group: Group) -> None:
    a_history(group)
    ann = group.profiles.get(name="Ann")
    for url in (f"/groups/{group.pk}/stats/", f"/groups/{group.pk}/players/{ann.pk}/"):
        found = cells(member_client.get(url).content.decode())
        assert found.heads and all(text for _scope, text in found.heads), url  # no empty header cell
        assert found.firsts and all(first == ("th", "row") or first[1] == "rowgroup" for first in found.firsts), url


def test_a_finished_sheets_result_names_its_corner_and_its_rows(member_client: Client, group: Group) -> None:
    game = cooper(group, ("Ann", 50, 1), ("Ben", 45, 0))
    found = cells(member_client.get(f"/games/{game.pk}/").content.decode())
    assert found.heads and all(text for _scope, text in found.heads)  # no empty corner
    assert found.firsts and all(first == ("th", "row") for first in found.firsts)


def test_the_part_averages_say_over_how_many_games_they_are(member_client: Client, group: Group) -> None:
    a_finished_game(group)
    a_finished_game(group)  # two games played here, with their parts...
    plays = [a_play({"Ann": str(40 + day), "Ben": "30"}, date=DAY.replace("17", f"{10 + day}")) for day in range(3)]
    assert upload(member_client, group, play_file(*plays)).status_code == 200  # ...and three imported, totals only
    page = html.unescape(member_client.get(f"/groups/{group.pk}/stats/").content.decode())
    parts = page[page.index("Average score, part by part") :]
    assert "Over each player's games whose score is known part by part" in parts
    row = parts[parts.index(">Ann</th>") :]
    assert row.index("2 of 5") < row.index("</tr>")
