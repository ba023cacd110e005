"""Every phone at the table is a player's (issue 11): seats claimed, freed and linked to accounts;
objective cards secret to their player's phone; the whole game live on every phone."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from scoring.log import finish
from scoring.models import Game, Group, Profile
from support.entry import Entry
from tests.scoring.conftest import logged_in
from tests.scoring.table.test_game_pages import FOREST, add_events

WHITE, RED, YELLOW = 0, 1, 2
SECRET_CARD = {"kind": "specific", "rewards": ["black-hexagon"]}
"""A card nobody holds a token of: "black hexagon" on a page can only come from the card."""


def claim(client: Client, game: Game, position: int) -> int:
    return client.post(f"/games/{game.pk}/seats/", {"claim": str(position)}).status_code


def live(client: Client, game: Game, view: str = "game", etag: str = "") -> tuple[int, str, str]:
    game.refresh_from_db()
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    response = client.get(f"/watch/{game.spectator_token}/live/?view={view}", HTTP_HX_REQUEST="true", **headers)
    return response.status_code, response.get("ETag", ""), response.content.decode()


def test_a_phone_claims_a_seat_and_its_header_says_who_it_is(guest_client: Client, game: Game) -> None:
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    assert "Who is this phone?" in page and 'name="claim" value="1"' in page
    assert claim(guest_client, game, RED) == 302
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    assert 'class="me seat-purple"' in page and "I am Red" in page
    assert 'id="claim"' not in page  # asked once, answered


def test_a_seat_is_one_phone_s_until_it_leaves_or_the_owner_frees_it(
    guest_client: Client, member_client: Client, owner_client: Client, game: Game
) -> None:
    assert claim(guest_client, game, RED) == 302
    refused = member_client.post(f"/games/{game.pk}/seats/", {"claim": str(RED)})
    assert refused.status_code == 409 and "Another phone is Red" in refused.content.decode()
    assert game.seats.get(position=RED).phone != ""
    # A member who is not the owner cannot free it; the owner can.
    member_client.post(f"/games/{game.pk}/seats/", {"free": str(RED)})
    assert game.seats.get(position=RED).phone != ""
    page = owner_client.get(f"/games/{game.pk}/seats/").content.decode()
    assert "Free Red's seat" in page
    owner_client.post(f"/games/{game.pk}/seats/", {"free": str(RED)})
    assert claim(member_client, game, RED) == 302
    # One seat per phone: claiming another leaves the first.
    assert claim(member_client, game, YELLOW) == 302
    assert list(game.seats.exclude(phone="").values_list("position", flat=True)) == [YELLOW]
    member_client.post(f"/games/{game.pk}/seats/", {"leave": "1"})
    assert not game.seats.exclude(phone="").exists()


def test_a_member_who_claims_a_seat_is_that_player_of_the_group(
    member_client: Client, owner_client: Client, member_user: User, owner: User, game: Game, group: Group
) -> None:
    assert claim(member_client, game, WHITE) == 302
    white = Profile.objects.get(group=group, name="White")
    assert white.user == member_user
    # The same person is never two players: another seat does not take a second profile.
    assert claim(member_client, game, RED) == 302
    assert Profile.objects.filter(group=group, user=member_user).count() == 1
    # Another member cannot be White, who is someone else's account.
    refused = owner_client.post(f"/games/{game.pk}/seats/", {"claim": str(WHITE)})
    assert refused.status_code == 409 and "another member" in refused.content.decode()
    assert Profile.objects.get(group=group, name="White").user == member_user


def test_the_new_game_proposes_the_member_s_own_player(member_client: Client, game: Game, group: Group) -> None:
    claim(member_client, game, YELLOW)
    game.delete()
    page = member_client.get(f"/groups/{group.pk}/games/new/").content.decode()
    assert 'name="seat_1" value="Yellow"' in page


def test_a_player_enters_their_own_cards_on_their_own_phone(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    entry = Entry(guest_client, f"/games/{game.pk}/events/new/objectives/")
    assert entry.stage == "cards"  # no "who?": this phone is Red
    entry.tap("card:toggle:black-hexagon").tap("save")
    event = game.events.get()
    assert event.data == {"type": "objectives", "player": "Red", "cards": [SECRET_CARD]}
    assert event.entered_for == ""
    # Red's phone sees its cards again; the page of any other phone does not.
    assert "black hexagon" in guest_client.get(f"/games/{game.pk}/events/0/").content.decode()  # at Save


def test_cards_entered_for_another_player_say_so_in_the_log(
    guest_client: Client, member_client: Client, member_user: User, game: Game
) -> None:
    claim(guest_client, game, RED)
    entry = Entry(guest_client, f"/games/{game.pk}/events/new/objectives/")
    entry.tap("reopen:player")
    assert "Enter for Yellow" in entry.html and "My cards (Red)" in entry.html
    entry.tap(f"set:player:{YELLOW}").tap("card:specific:black-hexagon")
    entry.tap("done:cards")  # "Save these cards"
    assert game.events.get().entered_for == "Red"
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert "Entered for Yellow by Red, not on Yellow's phone." in page
    # A member's phone that is nobody: the log names the account.
    Entry(member_client, f"/games/{game.pk}/events/new/objectives/").tap(f"set:player:{WHITE}").tap("done:cards")
    assert game.events.get(index=1).entered_for == member_user.username
    # Undoing a later event keeps the earlier marks.
    game.refresh_from_db()
    add_events(game, FOREST)
    game.refresh_from_db()
    member_client.post(f"/games/{game.pk}/events/2/delete/", {"revision": game.revision})
    assert list(game.events.values_list("entered_for", flat=True)) == ["Red", member_user.username]


def test_another_phone_may_replace_cards_without_seeing_them(guest_client: Client, game: Game) -> None:
    add_events(game, {"type": "objectives", "player": "Yellow", "cards": [SECRET_CARD]})
    claim(guest_client, game, RED)
    page = guest_client.get(f"/games/{game.pk}/events/0/").content.decode()
    assert "These cards are secret" in page and "black hexagon" not in page
    entry = Entry(guest_client, f"/games/{game.pk}/events/0/?for=1")
    # The icon grid shows every kind; no card of Yellow's is among the cards kept.
    assert entry.stage == "cards" and "card:remove:" not in entry.html and "cards" not in entry.draft["event"]
    entry.tap("done:cards").tap("save")  # an edit of the past is saved by hand
    event = game.events.get()
    assert event.data["cards"] == [] and event.entered_for == "Red"


def test_cards_in_progress_show_only_their_count_on_every_page(
    guest_client: Client, member_client: Client, game: Game
) -> None:
    add_events(game, {"type": "objectives", "player": "Yellow", "cards": [SECRET_CARD]})
    game.refresh_from_db()
    watcher = Client()
    pages = [
        member_client.get(f"/games/{game.pk}/").content.decode(),
        guest_client.get(f"/games/{game.pk}/").content.decode(),
        watcher.get(f"/watch/{game.spectator_token}/").content.decode(),
        live(member_client, game)[2],
        live(watcher, game, "watch")[2],
    ]
    for page in pages:
        assert "black hexagon" not in page
        assert "1 objective card (hidden)" in page


def test_a_change_on_one_phone_changes_the_other_phones_live_fragment(
    guest_client: Client, member_client: Client, game: Game
) -> None:
    status, etag, page = live(member_client, game)
    assert status == 200 and 'id="game"' in page and "Nothing yet" in page
    assert live(member_client, game, etag=etag)[0] == 304
    claim(guest_client, game, RED)  # a seat claimed: every phone shows it
    status, etag, page = live(member_client, game, etag=etag)
    assert status == 200 and 'class="me' not in page  # the member's own phone is still nobody...
    assert 'value="1" disabled' in page  # ...and Red is taken
    add_events(game, FOREST)
    status, etag, page = live(member_client, game, etag=etag)
    assert status == 200 and "Undo" in page and "Edit" in page  # the log, with its buttons


def test_the_end_reaches_every_phone_and_the_spectators_without_a_reload(
    guest_client: Client, member_client: Client, game: Game
) -> None:
    add_events(game, FOREST)
    watcher = Client()
    _status, guest_etag, _page = live(guest_client, game)
    _status, watch_etag, _page = live(watcher, game, "watch")
    game.refresh_from_db()
    finish(game, game.revision)
    for client, view, etag in ((guest_client, "game", guest_etag), (watcher, "watch", watch_etag)):
        status, _etag, page = live(client, game, view, etag)
        assert status == 200 and 'id="final"' in page and "Winner: Red" in page, view
    # The guest keeps the result, and may share it.
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    assert "Winner: Red" in page and f"/watch/{game.spectator_token}/" in page


def test_a_stale_undo_says_so_in_the_fragment_it_swaps_in(member_client: Client, game: Game) -> None:
    add_events(game, FOREST)
    game.refresh_from_db()
    stale = game.revision
    add_events(game, {"type": "round_end"})
    response = member_client.post(f"/games/{game.pk}/events/1/delete/", {"revision": stale}, HTTP_HX_REQUEST="true")
    assert "The game changed on another phone" in response.content.decode()
    assert game.events.count() == 2


def test_a_new_table_code_refreshes_every_phone(guest_client: Client, owner: User, game: Game) -> None:
    _status, etag, _page = live(guest_client, game)
    logged_in(owner).post(f"/games/{game.pk}/code/")
    game.refresh_from_db()
    assert guest_client.get(f"/watch/{game.spectator_token}/live/?view=game").status_code == 404


def test_after_round_1_each_phone_is_asked_for_its_player_s_new_cards(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    assert 'id="redraw"' not in guest_client.get(f"/games/{game.pk}/").content.decode()
    add_events(game, {"type": "round_end"})
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="redraw"' in page and "draw 2 objective cards, keep 3 of your 5" in page
    game.refresh_from_db()
    add_events(game, {"type": "objectives", "player": "Yellow", "cards": []})  # someone else's: still asked
    assert 'id="redraw"' in guest_client.get(f"/games/{game.pk}/").content.decode()
    game.refresh_from_db()
    add_events(game, {"type": "objectives", "player": "Red", "cards": [SECRET_CARD]})
    assert 'id="redraw"' not in guest_client.get(f"/games/{game.pk}/").content.decode()
