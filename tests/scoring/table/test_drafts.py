"""Entries kept on the server: a reload or Back lands where the phone was, the game page shows every phone's
entry in progress, another phone may continue one (not objective cards), and nothing is lost or saved twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scoring.models import Draft, Game, Seat
from scoring.phones import PHONE_KEY
from scoring.table import drafts
from scoring.table.entry import Draft as EventDraft
from support.entry import Entry
from tests.scoring.table.test_territory_entry import enter_forest

RED = "1"


def forest_begun(client: Client, game: Game) -> Entry:
    """A forest entered up to its buildings."""
    entry = Entry(client, f"/games/{game.pk}/events/new/territory/")
    entry.tap("set:territory:forest").tap("count:rewards:green-square:2")
    assert entry.stage == "board"
    return entry


def phone_of(client: Client) -> str:
    phone: str = client.session[PHONE_KEY]
    return phone


def activity(game: Game) -> int:
    game.refresh_from_db()
    return game.activity


def test_a_reload_lands_where_the_phone_was(member_client: Client, game: Game) -> None:
    entry = forest_begun(member_client, game)
    again = Entry(member_client, entry.url)  # a reload, pull-to-refresh or Back: a GET of the same page
    assert again.stage == "board"
    assert "Your entry was kept." in again.html
    assert again.draft == entry.draft
    assert again.field("draft_id") == entry.field("draft_id") == str(Draft.objects.get().pk)


def test_a_tap_stores_nothing_over_a_draft_changed_since_it_read_it(member_client: Client, game: Game) -> None:
    entry = forest_begun(member_client, game)
    read = Draft.objects.get()  # as a tap read it, before another tap of the entry (a second tab) stored its own
    entry.tap("cycle:buildings:0:farm")
    later = Draft.objects.get().data
    with pytest.raises(drafts.Moved):
        drafts.store(game, read.phone, read.by, EventDraft.from_data(read.data), None, 0, read, read.entry)
    assert Draft.objects.get().data == later != read.data


def test_a_tap_whose_draft_changed_while_it_was_made_shows_the_entry_as_kept(
    monkeypatch: pytest.MonkeyPatch, member_client: Client, game: Game
) -> None:
    entry = forest_begun(member_client, game)
    read = drafts.load_with(game, phone_of(member_client), entry.field("entry"))
    second_tab = Entry(member_client, entry.url)
    second_tab.tap("cycle:buildings:0:farm", entry=second_tab.field("entry"))
    kept = Draft.objects.get().data
    reads = [read]  # the first tab's tap read the draft just before the second tab's tap stored its own
    real = drafts.load_with
    monkeypatch.setattr(drafts, "load_with", lambda *args: reads.pop() if reads else real(*args))
    entry.tap("cycle:buildings:1:farm", htmx=True, entry=entry.field("entry"))
    assert entry.response.status_code == 422
    assert "Your entry went on after this page was shown" in entry.html
    assert Draft.objects.get().data == kept and entry.draft == kept


def test_the_game_page_offers_this_phones_entry_to_continue_or_cancel(member_client: Client, game: Game) -> None:
    forest_begun(member_client, game)
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Your entry in progress: scoring a forest" in page
    assert f'href="/games/{game.pk}/events/new/territory/">Continue</a>' in page
    assert Entry(member_client, f"/games/{game.pk}/events/new/territory/").stage == "board"
    draft = Draft.objects.get()
    cancelled = member_client.post(f"/games/{game.pk}/drafts/{draft.pk}/cancel/")
    assert cancelled.status_code == 302 and not Draft.objects.exists()
    assert "Your entry in progress" not in member_client.get(f"/games/{game.pk}/").content.decode()
    assert Entry(member_client, f"/games/{game.pk}/events/new/territory/").stage == "territory"


def test_cancel_this_entry_drops_it(member_client: Client, game: Game) -> None:
    entry = forest_begun(member_client, game)
    entry.tap("cancel", htmx=True)
    assert entry.response["HX-Redirect"] == f"/games/{game.pk}/"
    assert not Draft.objects.exists()
    assert Entry(member_client, entry.url).stage == "territory"


def test_a_phone_cannot_cancel_another_phones_entry(member_client: Client, owner_client: Client, game: Game) -> None:
    forest_begun(member_client, game)
    draft = Draft.objects.get()
    assert owner_client.post(f"/games/{game.pk}/drafts/{draft.pk}/cancel/").status_code == 302
    assert Draft.objects.filter(pk=draft.pk).exists()


def test_another_entry_replaces_this_phones_entry(member_client: Client, game: Game) -> None:
    forest_begun(member_client, game)
    Entry(member_client, f"/games/{game.pk}/events/new/adjust/").tap(f"set:player:{RED}")
    draft = Draft.objects.get()
    assert (draft.kind, draft.editing) == ("adjust", None)
    assert Entry(member_client, f"/games/{game.pk}/events/new/territory/").stage == "territory"


def test_the_other_phones_see_who_enters_what(member_client: Client, owner_client: Client, game: Game) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/").tap("set:territory:lake")
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert "A phone is scoring a lake…" in page and "Continue here" in page
    Seat.objects.filter(game=game, name="Red").update(phone=phone_of(member_client))  # "I am Red"
    entry.tap("add:rewards:blue-circle:1")
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert "Red is scoring a lake…" in page


def test_each_kind_of_entry_is_worded(member_client: Client, owner_client: Client, game: Game) -> None:
    wording = {
        "territory": "A phone is scoring a territory…",
        "volcano": "A phone is entering the Volcano…",
        "beaver_dam": "A phone is entering the Beaver Dam…",
        "objectives": "A phone is entering objective cards…",
        "adjust": "A phone is entering a correction…",
    }
    for kind, words in wording.items():
        Entry(member_client, f"/games/{game.pk}/events/new/{kind}/").tap("add:nuggets:1")  # any tap keeps it
        assert words in owner_client.get(f"/games/{game.pk}/").content.decode(), kind
    Entry(member_client, f"/games/{game.pk}/events/new/round_end/").tap("reopen:x")
    assert "A phone is entering the end of round 1…" in owner_client.get(f"/games/{game.pk}/").content.decode()
    enter_forest(member_client, game).tap("take:green-circle:1")  # its last choice: saved
    Entry(member_client, f"/games/{game.pk}/events/0/").tap("reopen:picks")
    assert "A phone is editing event 0…" in owner_client.get(f"/games/{game.pk}/").content.decode()


def test_another_phone_continues_an_entry_where_it_was(member_client: Client, owner_client: Client, game: Game) -> None:
    mine = forest_begun(member_client, game)
    draft = Draft.objects.get()
    taken = owner_client.post(f"/games/{game.pk}/drafts/{draft.pk}/take/")
    assert taken.status_code == 302 and taken["Location"] == f"/games/{game.pk}/events/new/territory/"
    theirs = Entry(owner_client, taken["Location"])
    assert theirs.stage == "board" and theirs.draft == mine.draft
    assert Draft.objects.get().phone == phone_of(owner_client)
    assert "Your entry in progress" in owner_client.get(f"/games/{game.pk}/").content.decode()

    # The first phone's page is out of date: its next tap says where the entry went, and changes nothing.
    mine.tap("cycle:buildings:0:farm")
    assert mine.response.status_code == 302 and mine.response["Location"] == f"/games/{game.pk}/"
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "This entry was continued on another phone." in page
    assert "A phone is scoring a forest…" in page
    assert Draft.objects.get().phone == phone_of(owner_client)
    assert theirs.tap("cycle:buildings:0:farm").response.status_code == 200


def test_objective_cards_are_not_continued_on_another_phone(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    Entry(member_client, f"/games/{game.pk}/events/new/objectives/").tap(f"set:player:{RED}")
    draft = Draft.objects.get()
    page = owner_client.get(f"/games/{game.pk}/").content.decode()
    assert "A phone is entering objective cards…" in page and "Continue here" not in page
    refused = owner_client.post(f"/games/{game.pk}/drafts/{draft.pk}/take/", follow=True)
    assert "Objective cards are secret to their player" in refused.content.decode()
    assert Draft.objects.get().phone == phone_of(member_client)


def test_a_saved_entry_is_not_saved_again_from_an_old_page(member_client: Client, game: Game) -> None:
    entry = enter_forest(member_client, game)
    old_page = entry.response
    entry.tap("take:green-circle:1")  # the last choice saves
    assert entry.response.status_code == 302 and not Draft.objects.exists()
    entry.response = old_page  # Back, then the same tap again
    entry.tap("take:green-circle:1")
    assert entry.response.status_code == 302
    assert "This entry is no longer in progress" in member_client.get(f"/games/{game.pk}/").content.decode()
    assert game.events.count() == 1


def test_an_entry_left_for_more_than_12_hours_is_dropped(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    forest_begun(member_client, game)
    Draft.objects.update(updated=timezone.now() - timedelta(hours=13))
    assert "scoring a forest" not in owner_client.get(f"/games/{game.pk}/").content.decode()
    assert Entry(member_client, f"/games/{game.pk}/events/new/territory/").stage == "territory"
    Entry(owner_client, f"/games/{game.pk}/events/new/adjust/").tap(f"set:player:{RED}")  # a new draft
    assert list(Draft.objects.values_list("kind", flat=True)) == ["adjust"]  # the old one is gone


def test_a_finished_game_has_no_entries(member_client: Client, owner_client: Client, game: Game) -> None:
    forest_begun(member_client, game)
    draft = Draft.objects.get()
    game.refresh_from_db()
    member_client.post(f"/games/{game.pk}/finish/", {"revision": game.revision})
    assert not Draft.objects.exists()
    taken = owner_client.post(f"/games/{game.pk}/drafts/{draft.pk}/take/", follow=True)
    assert taken.redirect_chain == [(f"/games/{game.pk}/", 302)]  # a stale "Continue here": the game as it is
    assert "The game has ended: its events can no longer be changed." in taken.content.decode()


def test_activity_counts_only_what_the_other_phones_see(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    counted = activity(game)

    def counts(expected: int) -> None:
        nonlocal counted
        assert activity(game) == counted + expected
        counted += expected

    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/")
    counts(0)  # opening an entry shows nothing yet
    entry.tap("set:territory:forest")
    counts(1)  # an entry begins
    entry.tap("count:rewards:green-square:3").tap("cycle:buildings:0:farm")
    counts(0)  # taps in between
    entry.tap("reopen:territory")
    counts(1)  # no territory chosen any more
    entry.tap("set:territory:lake")
    counts(1)
    Seat.objects.filter(game=game, name="Red").update(phone=phone_of(member_client))
    entry.tap("add:rewards:blue-circle:1")
    counts(1)  # now "Red is scoring a lake"
    taken = owner_client.post(f"/games/{game.pk}/drafts/{Draft.objects.get().pk}/take/")
    counts(1)
    theirs = Entry(owner_client, taken["Location"])
    theirs.tap("cancel")
    counts(1)
    Entry(owner_client, f"/games/{game.pk}/events/new/round_end/").tap("save")
    counts(0)  # a save with no entry kept: the log's revision tells the other phones
    entry = enter_forest(member_client, game)
    counts(1)
    entry.tap("take:green-circle:1")  # the last choice saves
    counts(0)  # the entry ends with the save, whose revision tells the other phones of both


def test_a_late_tap_of_an_entry_that_is_over_is_refused_and_starts_nothing(member_client: Client, game: Game) -> None:
    """A tap kept on the phone (its first reached the server, the answer was lost) sent again once the entry was
    cancelled: refused (409, saying why), never taken as the first tap of a new entry."""
    page = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    first = {f: page.field(f) for f in ("draft", "revision", "draft_id", "entry")} | {"op": "cycle:buildings:0:farm"}
    assert member_client.post(page.url, first, headers={"HX-Request": "true"}).status_code == 200
    draft = Draft.objects.get()
    assert draft.entry == first["entry"]
    assert member_client.get(f"/games/{game.pk}/entry/?entry={draft.entry}").status_code == 204
    member_client.post(f"/games/{game.pk}/drafts/{draft.pk}/cancel/")
    again = member_client.post(page.url, first, headers={"HX-Request": "true"})
    assert again.status_code == 409 and again.content.decode() == "This entry is no longer in progress."
    assert not Draft.objects.exists()
    assert member_client.get(f"/games/{game.pk}/entry/?entry={draft.entry}").status_code == 409
    assert member_client.get(f"/games/{game.pk}/entry/?entry=made-up").status_code == 400


def test_a_tap_of_an_entry_continued_on_another_phone_is_refused(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    entry = forest_begun(member_client, game)
    mine = {f: entry.field(f) for f in ("draft", "revision", "draft_id", "entry")}
    draft = Draft.objects.get()
    owner_client.post(f"/games/{game.pk}/drafts/{draft.pk}/take/")
    asked = member_client.get(f"/games/{game.pk}/entry/?entry={mine['entry']}")
    assert asked.status_code == 409 and asked.content.decode() == "This entry was continued on another phone."
    assert owner_client.get(f"/games/{game.pk}/entry/?entry={mine['entry']}").status_code == 204
    tapped = member_client.post(entry.url, mine | {"op": "cycle:buildings:0:farm"}, headers={"HX-Request": "true"})
    assert tapped.status_code == 409 and tapped.content.decode() == "This entry was continued on another phone."
    assert Draft.objects.get().data == draft.data


def test_a_late_tap_of_an_entry_replaced_by_another_is_refused(member_client: Client, game: Game) -> None:
    forest = forest_begun(member_client, game)
    late = {f: forest.field(f) for f in ("draft", "revision", "draft_id", "entry")} | {"op": "cycle:buildings:0:farm"}
    correction = Entry(member_client, f"/games/{game.pk}/events/new/adjust/")
    correction.tap(f"set:player:{RED}", entry=correction.field("entry"))
    tapped = member_client.post(forest.url, late, headers={"HX-Request": "true"})
    assert tapped.status_code == 409 and tapped.content.decode() == "This entry is no longer in progress."
    assert Draft.objects.get().kind == "adjust"


def sent_again(entry: Entry, page: dict[str, str], op: str, **fields: str) -> Entry:
    """``op`` posted from ``page`` (the fields of a page the phone had before), as a phone whose answer to a later
    tap was lost on the way (a 500, a 502) sends its next tap, or a tap again."""
    entry.response = entry.client.post(entry.url, {**page, "op": op, **fields})
    return entry


def fields_of(entry: Entry) -> dict[str, str]:
    return {name: entry.field(name) for name in ("draft", "revision", "draft_id")}


def test_a_save_from_a_page_older_than_the_kept_entry_stores_nothing_older(member_client: Client, game: Game) -> None:
    """An answer lost after the server kept a tap: the page still holds the draft before it. Its Save is not taken
    (it would store less than the phone made): the entry comes back as kept, and its Save saves it whole."""
    entry = Entry(member_client, f"/games/{game.pk}/events/new/adjust/").tap("set:player:0").tap("add:nuggets:1")
    before = fields_of(entry)
    entry.tap("add:rewards:blue-circle:1")  # kept on the server; its answer lost on the way
    sent_again(entry, before, "save")
    assert entry.response.status_code == 422 and "an answer was lost on the way" in entry.html
    assert not game.events.exists()
    assert entry.draft["event"] == {"type": "adjust", "player": "White", "nuggets": 1, "rewards": {"blue-circle": 1}}
    entry.tap("save")
    assert entry.saved_to and game.events.get().data["rewards"] == {"blue-circle": 1}


def test_a_tap_sent_again_after_a_lost_answer_counts_once_and_another_is_not_taken(
    member_client: Client, game: Game
) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/adjust/").tap("set:player:0")
    before = fields_of(entry)
    entry.tap("add:nuggets:1")  # kept; its answer lost: the phone sends it again, from the page it has
    sent_again(entry, before, "add:nuggets:1")
    assert entry.response.status_code == 200 and entry.draft["event"]["nuggets"] == 1  # the same answer
    sent_again(entry, before, "add:rewards:blue-circle:1")  # a later tap from the older page: not taken
    assert entry.response.status_code == 422 and "an answer was lost on the way" in entry.html
    assert Draft.objects.get().data["event"] == {"type": "adjust", "player": "White", "nuggets": 1}


def test_a_damaged_form_with_nothing_kept_offers_only_start_again(member_client: Client, game: Game) -> None:
    """Nothing this phone made can be trusted: no step and no Save, so a tap cannot store what it never made (a
    correction of nothing, for this phone's player)."""
    assert member_client.post(f"/games/{game.pk}/seats/", {"claim": RED}).status_code == 302
    url = f"/games/{game.pk}/events/new/adjust/"
    damaged = member_client.post(url, {"draft": "{not json", "revision": "0", "draft_id": "", "op": "save"})
    page = damaged.content.decode()
    assert damaged.status_code == 422 and "The form was damaged; start again." in page
    assert 'value="save"' not in page and "<fieldset" not in page
    assert f'<a class="button big wide" href="{url}">Start again</a>' in page
    assert not game.events.exists() and not Draft.objects.exists()
    again = Entry(member_client, url)  # Start again: the entry from its beginning
    assert again.stage == "changes" and again.draft["event"] == {"type": "adjust", "player": "Red"}


def test_a_damaged_form_shows_the_entry_as_kept_and_its_save_is_the_normal_one(
    member_client: Client, game: Game
) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/adjust/").tap("set:player:0").tap("add:nuggets:1")
    sent_again(entry, {**fields_of(entry), "draft": "{not json"}, "add:nuggets:1")
    assert entry.response.status_code == 422 and "The form was damaged" in entry.html
    assert entry.draft["event"] == {"type": "adjust", "player": "White", "nuggets": 1}  # nothing done, as kept
    entry.tap("save")
    assert entry.saved_to and game.events.get().data["nuggets"] == 1
