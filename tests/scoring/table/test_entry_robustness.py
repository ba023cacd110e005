"""No sequence of taps, however odd, makes the entry page fail: it answers 200 or 422 (or saves); a damaged
draft, however posted, is refused."""

from __future__ import annotations

import json

from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game
from support.entry import Entry
from tests.scoring.conftest import changed_signed

REWARDS = ["green-square", "green-circle", "blue-hexagon", "black-circle", "purple-star"]
SEATS = ["0", "1", "2", "3", "x"]
OPS = st.one_of(
    st.sampled_from(["set:territory:forest", "set:territory:lake", "set:territory:moon", "done:board", "tie:clear"]),
    st.sampled_from(["done:picks", "done:action", "save", "reopen:board", "reopen:picks", "reopen:x", "tie:1"]),
    st.sampled_from(["clear:other-rewards", "clear:x", "tie:0", "tie:2", "action:new_objectives", "card:full:x:y"]),
    st.builds("add:rewards:{}:{}".format, st.sampled_from(REWARDS), st.sampled_from(["1", "-1", "7"])),
    st.builds("cycle:buildings:{}:{}".format, st.sampled_from(SEATS), st.sampled_from(["farm", "silo", "castle"])),
    st.builds("count:rewards:{}:{}".format, st.sampled_from(REWARDS), st.sampled_from(["0", "2", "-1", "x", "99999"])),
    st.builds("set:closed_by:{}".format, st.sampled_from(SEATS)),
    st.builds("set:lone_choice:{}".format, st.sampled_from(["rewards", "special_action", "both"])),
    st.builds("action:{}".format, st.sampled_from(["gold_nugget", "choose_first", "trade", "gifts", "none", "fly"])),
    st.builds("detail:{}:{}".format, st.sampled_from(["reward", "with", "give", "gift"]), st.sampled_from(REWARDS)),
    st.builds("take:{}:{}".format, st.sampled_from(REWARDS), st.sampled_from(["1", "2", "-1", "x"])),
    st.text(max_size=20),
)
DRAFTS = st.one_of(
    st.none(),
    st.text(max_size=30),
    st.recursive(
        st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
        lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
        max_leaves=10,
    ).map(
        lambda value: {
            "event": {"type": "territory", "rewards": value},
            "done": [],
            "partial": {},
            "original": None,
            "chosen": [],
        }
    ),
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, max_size=12), damaged=DRAFTS)
def test_any_taps_answer_a_page_never_an_error(
    member_client: Client, game: Game, ops: list[str], damaged: str | dict[str, object] | None
) -> None:
    game.drafts.all().delete()  # each example starts a new entry (the fixture's game outlives the examples)
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/")
    for op in ops:
        entry.tap(op)
        assert entry.response.status_code in {200, 302, 422}, (op, entry.response.status_code)
        if entry.response.status_code == 302:
            return
    if damaged is None:
        return
    posted = [damaged if isinstance(damaged, str) else json.dumps(damaged)]
    if entry.draft != damaged:  # the page's draft changed into it (as a phone could), its signature kept
        posted.append(changed_signed(entry.field("draft"), damaged))
    for draft in posted:
        response = member_client.post(entry.url, {"draft": draft, "revision": "0", "op": "done:board"})
        assert response.status_code == 422 and "The form was damaged" in response.content.decode()
