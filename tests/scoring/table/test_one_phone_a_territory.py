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
    assert "Event 0, saved a moment ago, has this same board (Forest, closed by Red). Save this one as well?" in (
        second.html
    )
    second.tap("save", htmx=True, twin=second.field("twin"))
    assert second.saved_to == f"/games/{game.pk}/?saved=1" and game.events.count() == 2


def test_a_territory_with_another_board_is_not_a_twin(member_client: Client, owner_client: Client, game: Game) -> None:
    first, second = enter_forest(member_client, game), enter_forest(owner_client, game)
    first.tap("take:green-circle:1")
    second.tap("reopen:board").tap("set:closed_by:0").tap("done:board")  # closed by White, not Red
    assert "saved a moment ago" not in second.html
