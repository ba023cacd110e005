"""One territory, one phone at a time: the bottom bar names who is entering a territory on another phone, and
opening it there asks first (continue that entry here, or start another); a save that repeats an event saved a
moment before is asked about once (scoring.table.twins)."""

from __future__ import annotations

from django.test import Client

from scoring.models import Draft, Game
from support.entry import Entry
from tests.scoring.table.test_territory_entry import enter_forest

RED, YELLOW = "1", "2"


def field_begun(client: Client, game: Game) -> Entry:
    """Red's phone opens Field from the bottom bar and taps the first icons."""
    assert client.post(f"/games/{game.pk}/seats/", {"claim": RED}).status_code == 302
    entry = Entry(client, f"/games/{game.pk}/events/new/territory/?territory=field")
    return entry.tap("count:rewards:yellow-square:2")


def bottom_bar(client: Client, game: Game) -> str:
    page = client.get(f"/games/{game.pk}/").content.decode()
    start = page.index('<div class="terr">')  # to the end of the bar
    return page[start : page.index("</nav>", start)]


def test_the_bottom_bar_names_who_is_entering_a_territory_on_another_phone(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    field_begun(member_client, game)
    bar = bottom_bar(owner_client, game)
    assert 'class="button terr-field terr-busy" aria-describedby="busy-field"' in bar
    assert '<span class="terr-who" aria-hidden="true">Red…</span>' in bar
    assert '<span id="busy-field" hidden>Red is scoring a field…</span>' in bar  # what a screen reader says
    assert bar.count("terr-busy") == 1  # the other territories are free
    assert "terr-busy" not in bottom_bar(member_client, game)  # the phone entering it has its entry card


def test_opening_a_territory_another_phone_is_entering_asks_first(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    field_begun(member_client, game)
    asked = owner_client.get(f"/games/{game.pk}/events/new/territory/?territory=field")
    page = asked.content.decode()
    assert asked.status_code == 200 and "Red is scoring a field on another phone." in page
    draft = Draft.objects.get()
    assert f'action="/games/{game.pk}/drafts/{draft.pk}/take/"' in page and "Continue Red's entry here" in page
    another = f"/games/{game.pk}/events/new/territory/?another=1&amp;territory=field"
    assert f'href="{another}"' in page and "Start another field" in page
    assert not Draft.objects.exclude(pk=draft.pk).exists()  # asking stores nothing


def test_continuing_the_other_phones_entry_takes_its_draft_over(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    field_begun(member_client, game)
    draft = Draft.objects.get()
    taken = owner_client.post(f"/games/{game.pk}/drafts/{draft.pk}/take/")
    assert taken.status_code == 302
    entry = Entry(owner_client, taken["Location"])
    assert entry.draft["event"]["rewards"] == {"yellow-square": 2} and "Your entry was kept." in entry.html
    assert "terr-busy" not in bottom_bar(owner_client, game)
    nobody = '<span class="terr-who" aria-hidden="true">a phone…</span>'  # the owner's phone is nobody at the table
    assert nobody in bottom_bar(member_client, game)


def test_starting_another_territory_of_that_kind_is_one_tap_and_asks_no_more(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    field_begun(member_client, game)
    other = Entry(owner_client, f"/games/{game.pk}/events/new/territory/?another=1&territory=field")
    assert other.stage == "board" and other.draft["event"]["territory"] == "field"
    other.tap("count:rewards:yellow-circle:1")
    assert Draft.objects.count() == 2
    again = owner_client.get(f"/games/{game.pk}/events/new/territory/?territory=field")
    assert again.status_code == 200 and "on another phone" not in again.content.decode()  # its own entry goes on


def test_a_phones_own_entry_and_another_territory_are_not_asked_about(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    field_begun(member_client, game)
    own = member_client.get(f"/games/{game.pk}/events/new/territory/?territory=field").content.decode()
    assert "on another phone" not in own and "Your entry was kept." in own
    lake = owner_client.get(f"/games/{game.pk}/events/new/territory/?territory=lake").content.decode()
    assert "on another phone" not in lake


def test_a_twin_save_is_asked_once_with_htmx_too(member_client: Client, owner_client: Client, game: Game) -> None:
    first, second = enter_forest(member_client, game, htmx=True), enter_forest(owner_client, game, htmx=True)
    first.tap("take:green-circle:1", htmx=True)
    assert first.saved_to == f"/games/{game.pk}/?saved=0"  # the normal path: no extra tap
    second.tap("take:green-circle:1", htmx=True)
    assert second.response.status_code == 422 and 'name="twin" value="0"' in second.html
    assert (
        "Event 0 (Forest, closed by Red), saved by another phone a moment ago, has this same board. "
        "Save yours as well?" in second.html
    )
    assert ">Save mine as well<" in second.html and ">Don't save mine<" in second.html  # as big as each other
    second.tap("save", htmx=True, twin=second.field("twin"))
    assert second.saved_to == f"/games/{game.pk}/?saved=1" and game.events.count() == 2


def test_the_same_territory_saved_by_another_phone_meanwhile_is_asked_about_whatever_its_board(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    """Two phones opened one forest; one saved it: the other is asked at Save even when the boards differ by a
    tap, naming who saved it, and "Don't save mine" ends its entry without saving."""
    assert member_client.post(f"/games/{game.pk}/seats/", {"claim": YELLOW}).status_code == 302
    first, second = enter_forest(member_client, game), enter_forest(owner_client, game)
    first.tap("take:green-circle:1")
    assert game.events.get().saved_by == "Yellow"
    second.tap("reopen:board").tap("set:closed_by:0").tap("done:board")  # closed by White, not Red
    second.tap("tie:2").tap("action:gold_nugget").tap("take:green-square:3").tap("take:green-circle:1")
    assert second.response.status_code == 422 and 'name="twin" value="0"' in second.html
    assert (
        "Event 0 (Forest, closed by Red) was saved by Yellow while you were entering yours. Save yours as well?"
        in second.html
    )
    second.tap("cancel")
    assert second.saved_to == f"/games/{game.pk}/" and game.events.count() == 1
    assert not Draft.objects.exists()


def lake_saved(client: Client, game: Game, squares: int) -> Entry:
    """A lake of ``squares`` blue squares, White alone with a farm, closed by White: saved by its last tap."""
    lake = Entry(client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    lake.tap(f"count:rewards:blue-square:{squares}").tap("cycle:buildings:0:farm").tap("set:closed_by:0")
    return lake.tap("set:lone_choice:rewards")


def test_a_territory_saved_before_this_entry_began_with_another_board_is_not_asked_about(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    assert lake_saved(member_client, game, 1).saved_to == f"/games/{game.pk}/?saved=0"
    later = lake_saved(owner_client, game, 2)  # a second lake, begun once the first was saved
    assert later.saved_to == f"/games/{game.pk}/?saved=1" and game.events.count() == 2


def test_two_phones_that_opened_one_territory_at_once_are_each_told_on_their_next_poll(
    member_client: Client, owner_client: Client, game: Game
) -> None:
    """Neither was asked (both opened the forest before either tapped): once both entries exist, each entry's
    live part names the other phone's, until that entry is over."""
    assert member_client.post(f"/games/{game.pk}/seats/", {"claim": YELLOW}).status_code == 302
    yellow = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    other = Entry(owner_client, f"/games/{game.pk}/events/new/territory/?territory=forest")
    poll = f"/watch/{game.spectator_token}/live/?view=entry"
    assert f'hx-get="{poll}' in yellow.html and 'id="entry-live"' in other.html
    yellow.tap("count:rewards:green-square:1")
    assert "too." not in member_client.get(poll).content.decode()  # the other phone has no entry yet
    other.tap("count:rewards:green-square:2")
    assert "Another phone is scoring a forest too." in member_client.get(poll).content.decode()
    assert "Yellow is scoring a forest too." in owner_client.get(poll).content.decode()
    other.tap("cancel")
    assert "too." not in member_client.get(poll).content.decode()  # the other phone's entry is over
