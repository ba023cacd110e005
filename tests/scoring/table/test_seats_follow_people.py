"""One table, one truth (issue 23): cards entered for another player start empty, and seats follow people,
not browsers — a member's seat follows their account, a guest's moves with a code or frees itself once its
phone is gone, the owner frees any seat, and claims are race-free."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.utils import timezone

from scoring.creation import create_game
from scoring.models import SEAT_MOVED, Game, Group, Profile, Seat
from scoring.phones import PHONE_KEY
from scoring.table import seats
from support.entry import Entry
from tests.scoring.conftest import at_once, logged_in
from tests.scoring.table.test_game_pages import add_events

WHITE, RED, YELLOW = 0, 1, 2
RED_CARDS = [
    {"kind": "specific", "rewards": ["black-hexagon"]},
    {"kind": "specific", "rewards": ["black-square"]},
    {"kind": "specific", "rewards": ["black-circle"]},
]
"""Red's three cards: cards nobody holds a token of, so "black hexagon" on a page can only come from them."""
YELLOW_CARD = {"kind": "specific", "rewards": ["blue-circle"]}


def claim(client: Client, game: Game, position: int) -> tuple[int | str, str]:
    response = client.post(f"/games/{game.pk}/seats/", {"claim": str(position)}, follow=True)
    return response.redirect_chain[0][0] if response.redirect_chain else response.status_code, page(response)


def page(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def holder(game: Game, position: int) -> str:
    return Seat.objects.get(game=game, position=position).phone


def phone_of(client: Client) -> str:
    return str(client.session.get(PHONE_KEY, ""))


def a_guest(game: Game) -> Client:
    client = Client()
    assert client.post("/join/", {"code": game.table_code}).status_code == 302
    return client


def game_page(client: Client, game: Game) -> str:
    return page(client.get(f"/games/{game.pk}/"))


@pytest.fixture
def red_is_max(game: Game, group: Group, member_user: User) -> None:
    """Red is the member Max's player."""
    profile = Seat.objects.get(game=game, position=RED).profile
    assert profile is not None
    profile.user = member_user
    profile.save()


# Cards for another player start empty --------------------------------------------------------------------------


def test_enter_for_another_player_on_a_phone_with_saved_cards_starts_empty_and_saves_only_what_was_tapped(
    guest_client: Client, game: Game
) -> None:
    add_events(game, {"type": "objectives", "player": "Red", "cards": RED_CARDS})
    claim(guest_client, game, RED)
    entry = Entry(guest_client, f"/games/{game.pk}/events/new/objectives/")
    assert len(entry.draft["event"]["cards"]) == 3  # one's own cards are proposed on one's own phone
    entry.tap("reopen:player").tap(f"set:player:{YELLOW}")
    assert entry.stage == "cards" and "cards" not in entry.draft["event"]
    assert "card:remove:" not in entry.html  # no card among the cards kept (the icon grid shows every kind)
    entry.tap("card:specific:blue-circle").tap("done:cards")  # "Save these cards"
    event = game.events.get(index=1)
    assert event.data == {"type": "objectives", "player": "Yellow", "cards": [YELLOW_CARD]}
    assert event.entered_for == "Red"


def test_one_s_own_cards_are_proposed_again_after_entering_for_another_was_changed_back(
    guest_client: Client, game: Game
) -> None:
    add_events(game, {"type": "objectives", "player": "Red", "cards": RED_CARDS})
    claim(guest_client, game, RED)
    entry = Entry(guest_client, f"/games/{game.pk}/events/new/objectives/")
    entry.tap("reopen:player").tap(f"set:player:{YELLOW}").tap("card:specific:blue-circle")
    entry.tap("reopen:player").tap(f"set:player:{RED}")
    assert entry.draft["event"]["cards"] == RED_CARDS and game.events.count() == 1  # proposed, not saved


def test_a_phone_that_is_nobody_entering_for_one_player_then_another_starts_empty_again(
    member_client: Client, game: Game
) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/objectives/").tap(f"set:player:{RED}")
    entry.tap("card:specific:blue-circle").tap("reopen:player").tap(f"set:player:{YELLOW}")
    assert "cards" not in entry.draft["event"] and entry.stage == "cards"


def test_a_phone_lent_to_another_player_does_not_show_its_owner_s_cards_in_progress(
    guest_client: Client, game: Game
) -> None:
    claim(guest_client, game, RED)
    entry = Entry(guest_client, f"/games/{game.pk}/events/new/objectives/").tap("card:specific:black-hexagon")
    assert entry.draft["event"]["cards"] == [RED_CARDS[0]]  # kept on the server as Red's entry in progress
    claim(guest_client, game, YELLOW)  # the phone is lent to Yellow
    lent = Entry(guest_client, f"/games/{game.pk}/events/new/objectives/")
    assert lent.draft["event"]["player"] == "Yellow" and "cards" not in lent.draft["event"]
    assert "card:remove:" not in lent.html and "Your entry was kept" not in lent.html
    lent.tap("card:specific:blue-circle").tap("done:cards")
    assert game.events.get().data == {"type": "objectives", "player": "Yellow", "cards": [YELLOW_CARD]}


def test_a_phone_whose_seat_moved_cannot_go_on_with_its_player_s_cards(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    entry = Entry(guest_client, f"/games/{game.pk}/events/new/objectives/").tap("card:specific:black-hexagon")
    code = move_code(guest_client, game)
    other = a_guest(game)
    other.post(f"/games/{game.pk}/seats/", {"code": code})
    entry.tap("card:specific:black-square")
    assert entry.saved_to == f"/games/{game.pk}/" and not game.events.exists()


# A member's seat follows their account ---------------------------------------------------------------------------


@pytest.mark.usefixtures("red_is_max")
def test_a_guest_is_refused_a_member_s_seat_even_when_it_is_free(guest_client: Client, game: Game) -> None:
    status, text = claim(guest_client, game, RED)
    assert status == 409 and "Red is a member's player: only their account claims this seat" in text
    assert holder(game, RED) == ""
    assert re.search(r'name="claim" value="1"\s+disabled', game_page(guest_client, game))


@pytest.mark.usefixtures("red_is_max")
def test_another_member_is_refused_a_member_s_seat(owner_client: Client, game: Game) -> None:
    status, text = claim(owner_client, game, RED)
    assert status == 409 and "Red is another member's player" in text and holder(game, RED) == ""


@pytest.mark.usefixtures("red_is_max")
def test_the_account_takes_its_seat_on_a_second_phone_and_the_first_is_told(
    member_client: Client, member_user: User, game: Game
) -> None:
    assert claim(member_client, game, RED)[0] == f"/games/{game.pk}/"  # no cards entered yet: the game page
    first = phone_of(member_client)
    new_phone = logged_in(member_user)  # the same account on another phone (or the home-screen app)
    page_of_new = game_page(new_phone, game)
    assert not re.search(r'name="claim" value="1"\s+disabled', page_of_new)  # "I am Red" is not greyed
    assert claim(new_phone, game, RED)[0] == f"/games/{game.pk}/"
    assert holder(game, RED) == phone_of(new_phone) != first
    old = page(member_client.get(f"/watch/{game.spectator_token}/live/?view=game", HTTP_HX_REQUEST="true"))
    assert "Red's seat moved to another phone: this phone is nobody at the table now." in old
    assert "Red's seat moved" not in game_page(new_phone, game)


def test_the_poll_of_a_phone_whose_seat_was_taken_reloads_its_page(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    poll = re.search(r'hx-get="([^"]+here=[^"]+)"', game_page(guest_client, game))
    assert poll
    url = html.unescape(poll.group(1))
    assert "HX-Refresh" not in guest_client.get(url, HTTP_HX_REQUEST="true")
    other = a_guest(game)
    other.post(f"/games/{game.pk}/seats/", {"code": move_code(guest_client, game)})
    assert guest_client.get(url, HTTP_HX_REQUEST="true")["HX-Refresh"] == "true"  # its header, too, says so
    assert "here=" not in game_page(guest_client, game)  # once: the reloaded page's polls say nothing


def test_a_member_s_seat_held_by_a_guest_is_taken_back_by_the_account(
    guest_client: Client, member_user: User, game: Game, group: Group
) -> None:
    claim(guest_client, game, RED)  # before Red was linked to Max's account
    Profile.objects.filter(group=group, name="Red").update(user=member_user)
    assert claim(logged_in(member_user), game, RED)[0] != 409
    assert "Red's seat moved to another phone" in game_page(guest_client, game)


# A guest moves their seat with a code, or it frees itself once its phone is gone -----------------------------------


def move_code(client: Client, game: Game) -> str:
    text = page(client.post(f"/games/{game.pk}/seats/", {"move": "1"}))
    match = re.search(r'<p class="code">(\w+)</p>', text)
    assert match, text
    return match.group(1)


def test_a_guest_moves_their_seat_with_the_code_shown_on_the_old_phone(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    old_phone = phone_of(guest_client)
    code = move_code(guest_client, game)
    assert len(code) == seats.MOVE_CODE_LENGTH
    new_phone = a_guest(game)
    assert claim(new_phone, game, RED)[0] == 409  # the tap alone does not take it
    response = new_phone.post(f"/games/{game.pk}/seats/", {"code": f" {code.lower()} "})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert holder(game, RED) == phone_of(new_phone) != old_phone
    assert "Red's seat moved to another phone" in game_page(guest_client, game)
    # The code is used up.
    third = a_guest(game)
    refused = third.post(f"/games/{game.pk}/seats/", {"code": code})
    assert refused.status_code == 409 and "No seat of this game has this code now" in page(refused)


def test_the_old_phone_showing_the_code_stops_showing_the_seat_once_it_is_taken(
    guest_client: Client, game: Game
) -> None:
    claim(guest_client, game, RED)
    shown = page(guest_client.post(f"/games/{game.pk}/seats/", {"move": "1"}))
    card = re.search(r'<section class="card"\s+id="move-code"[^>]*>', shown)
    assert card and f'hx-get="/games/{game.pk}/seats/"' in card.group(0) and "every 2s" in card.group(0)
    assert "Typed on the other phone? Check here" in shown  # without JavaScript, one tap
    code = re.search(r'<p class="code">(\w+)</p>', shown)
    assert code
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER": "move-code"}
    still = guest_client.get(f"/games/{game.pk}/seats/", **poll)
    assert still.status_code == 204 and "HX-Refresh" not in still
    a_guest(game).post(f"/games/{game.pk}/seats/", {"code": code.group(1)})
    assert guest_client.get(f"/games/{game.pk}/seats/", **poll)["HX-Refresh"] == "true"
    reloaded = page(guest_client.get(f"/games/{game.pk}/seats/"))
    assert "Red's seat moved to another phone" in reloaded and "I am Red</a>" not in reloaded
    assert 'id="move-code"' not in reloaded and "This phone</span>" not in reloaded


def test_a_code_stops_working_after_its_time(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    code = move_code(guest_client, game)
    Seat.objects.filter(game=game, position=RED).update(move_code_until=timezone.now() - timedelta(seconds=1))
    refused = a_guest(game).post(f"/games/{game.pk}/seats/", {"code": code})
    assert refused.status_code == 409 and holder(game, RED) == phone_of(guest_client)


@pytest.mark.usefixtures("red_is_max")
def test_a_code_does_not_give_a_member_s_seat_to_a_guest(member_client: Client, game: Game) -> None:
    claim(member_client, game, RED)
    code = move_code(member_client, game)
    refused = a_guest(game).post(f"/games/{game.pk}/seats/", {"code": code})
    assert refused.status_code == 409 and "only their account claims this seat" in page(refused)
    assert holder(game, RED) == phone_of(member_client)


def test_a_seat_frees_itself_once_its_phone_has_been_gone_long_enough(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    other = a_guest(game)
    assert claim(other, game, RED)[0] == 409
    Seat.objects.filter(game=game, position=RED).update(seen=timezone.now() - seats.GONE_AFTER + timedelta(minutes=1))
    assert claim(other, game, RED)[0] == 409  # not gone long enough yet
    Seat.objects.filter(game=game, position=RED).update(seen=timezone.now() - seats.GONE_AFTER - timedelta(minutes=1))
    assert claim(other, game, RED)[0] == f"/games/{game.pk}/"
    assert holder(game, RED) == phone_of(other)
    assert "Red's seat moved to another phone" in game_page(guest_client, game)


def test_the_polls_of_a_seat_s_phone_keep_it_seen(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    long_ago = timezone.now() - timedelta(hours=1)
    Seat.objects.filter(game=game, position=RED).update(seen=long_ago)
    seats._HEARD.clear()
    poll = re.search(r'hx-get="([^"]+here=[^"]+)"', game_page(guest_client, game))
    assert poll, "the poll of a seat's phone says it is here"
    guest_client.get(poll.group(1).replace("&amp;", "&"), HTTP_HX_REQUEST="true")
    seen = Seat.objects.get(game=game, position=RED).seen
    assert seen is not None and seen > long_ago + timedelta(minutes=59)
    assert "here=" not in game_page(a_guest(game), game)  # a phone that is nobody says nothing


def test_a_forged_here_token_is_ignored(guest_client: Client, game: Game) -> None:
    response = guest_client.get(f"/watch/{game.spectator_token}/live/?view=game&here=1:abc", HTTP_HX_REQUEST="true")
    assert response.status_code == 200


@pytest.mark.usefixtures("red_is_max")
def test_the_owner_frees_any_seat_a_member_s_too(member_client: Client, owner_client: Client, game: Game) -> None:
    claim(member_client, game, RED)
    owner_client.post(f"/games/{game.pk}/seats/", {"free": str(RED)})
    assert holder(game, RED) == ""
    assert claim(a_guest(game), game, RED)[0] == 409  # still Max's: freed, not given away
    assert claim(member_client, game, RED)[0] != 409


# Cards entered while a seat changed hands are marked --------------------------------------------------------------


def test_cards_entered_while_the_seat_changed_phones_are_marked_in_the_log(
    member_client: Client, member_user: User, game: Game
) -> None:
    claim(member_client, game, RED)  # Red becomes Max's player
    entry = Entry(member_client, f"/games/{game.pk}/events/new/objectives/").tap("card:specific:black-hexagon")
    other = logged_in(member_user)
    claim(other, game, RED)  # taken on another phone...
    claim(member_client, game, RED)  # ...and back, while the entry was open
    entry = Entry(member_client, f"/games/{game.pk}/events/new/objectives/")
    assert "Your entry was kept." in entry.html
    entry.tap("card:specific:black-square").tap("done:cards")
    event = game.events.get()
    assert event.entered_for == SEAT_MOVED
    text = game_page(other, game)
    assert "Entered on Red's phone, but Red's seat changed phones while these cards were being entered" in text


def test_cards_entered_after_the_claim_are_not_marked(guest_client: Client, game: Game) -> None:
    claim(guest_client, game, RED)
    Entry(guest_client, f"/games/{game.pk}/events/new/objectives/").tap("card:specific:blue-circle").tap("done:cards")
    assert game.events.get().entered_for == ""


# Claims are race-free ----------------------------------------------------------------------------------------------


def claim_status(client: Client, game: Game) -> int:
    return client.post(f"/games/{game.pk}/seats/", {"claim": "0"}).status_code


@pytest.mark.django_db(transaction=True)
def test_phones_claiming_one_seat_at_once_give_it_to_exactly_one(group: Group) -> None:
    game = create_game(group, ("Ann", "Ben"), {}, promos=False)

    def tap(number: int) -> Seat:
        return seats.claim(Game.objects.get(pk=game.pk), 0, f"phone-{number}", AnonymousUser())

    outcomes = at_once(8, tap)
    won = [outcome for outcome in outcomes if isinstance(outcome, Seat)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, seats.SeatRefused)]
    assert len(won) == 1 and len(refused) == 7, outcomes
    assert holder(game, 0) == won[0].phone
    assert Seat.objects.filter(game=game).exclude(phone="").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_on_i_am_from_a_new_phone_leaves_the_seat_on_the_phone_s_own_token(group: Group) -> None:
    game = create_game(group, ("Ann", "Ben"), {}, promos=False)
    for _try in range(3):
        Seat.objects.filter(game=game).update(phone="")
        first = a_guest(game)
        second = Client()  # the same browser's second request: the same session cookie, sent at once
        second.cookies.update(first.cookies)
        outcomes = at_once(2, lambda number, taps=(first, second): claim_status(taps[number], game))
        assert outcomes == [302, 302], outcomes
        stored = SessionStore(session_key=first.cookies["sessionid"].value)
        assert holder(game, 0) == stored[PHONE_KEY]


@pytest.mark.django_db(transaction=True)
def test_two_phones_of_one_account_taking_its_seat_at_once_leave_it_whole(group: Group, member_user: User) -> None:
    game = create_game(group, ("Ann", "Ben"), {}, promos=False)
    Profile.objects.filter(group=group, name="Ann").update(user=member_user)
    phones = [logged_in(member_user) for _ in range(4)]
    outcomes = at_once(4, lambda number: claim_status(phones[number], game))
    assert outcomes == [302] * 4, outcomes  # the account may take it from any of its phones: the last one has it
    assert holder(game, 0) in {phone_of(phone) for phone in phones}
    assert Seat.objects.filter(game=game).exclude(phone="").count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_phone_tapping_two_names_at_once_ends_as_one_of_them(group: Group) -> None:
    game = create_game(group, ("Ann", "Ben", "Cy"), {}, promos=False)

    def tap(number: int) -> Seat:
        return seats.claim(Game.objects.get(pk=game.pk), number, "one-phone", AnonymousUser())

    outcomes = at_once(3, tap)
    assert all(isinstance(outcome, Seat) for outcome in outcomes), outcomes
    assert Seat.objects.filter(game=game, phone="one-phone").count() == 1
