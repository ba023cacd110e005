"""Nothing stale answers 404 or 500: the controls a phone still shows once the game has ended (its Saved card's
Undo and Edit, an entry, a "Continue here") or was deleted (any page, tap, save or poll) answer with the game as
it is, or the group's page or the home page, and a sentence saying what happened; with htmx and without. A
deletion racing saves and drafts leaves neither a half-deleted game nor an error (scoring.table.locking)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.creation import create_game
from scoring.models import Draft, Game, Group
from scoring.table import drafts
from scoring.table.entry import Draft as EventDraft
from scoring.table.locking import GameGone
from support.entry import Entry
from tests.scoring.conftest import at_once, logged_in
from tests.scoring.table.test_table_phones import claim
from tests.scoring.table.test_territory_entry import enter_forest

ENDED = "The game has ended: its events can no longer be changed."
HTMX = {"HTTP_HX_REQUEST": "true"}


def saved_forest(client: Client, game: Game) -> str:
    """The forest saved on this phone: the game page it went to, with its Saved card."""
    entry = enter_forest(client, game).tap("take:green-circle:1")
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    return entry.saved_to


def finished(client: Client, game: Game) -> None:
    game.refresh_from_db()
    assert client.post(f"/games/{game.pk}/finish/", {"revision": game.revision}).status_code == 302


def test_the_saved_card_goes_from_the_live_part_once_the_game_ends(member_client: Client, game: Game) -> None:
    page = member_client.get(saved_forest(member_client, game)).content.decode()
    assert 'id="saved"' in page and f"/watch/{game.spectator_token}/live/?view=game&amp;saved=0" in page
    poll = f"/watch/{game.spectator_token}/live/?view=game&saved=0"
    assert 'id="saved"' in member_client.get(poll, **HTMX).content.decode()  # the phone's polls keep it
    finished(member_client, game)
    assert 'id="saved"' not in member_client.get(poll, **HTMX).content.decode()  # and then take it away


@pytest.mark.parametrize("htmx", [False, True])
def test_a_stale_undo_after_the_end_shows_the_game_and_says_why(member_client: Client, game: Game, htmx: bool) -> None:
    saved_forest(member_client, game)
    finished(member_client, game)
    undo = member_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": "1"}, **(HTMX if htmx else {}))
    if htmx:
        assert undo.status_code == 200 and undo["HX-Redirect"] == f"/games/{game.pk}/"
        page = member_client.get(undo["HX-Redirect"]).content.decode()
    else:
        assert undo.status_code == 302 and undo["Location"] == f"/games/{game.pk}/"
        page = member_client.get(undo["Location"]).content.decode()
    assert ENDED in page and game.events.count() == 1


def test_a_stale_edit_and_a_stale_entry_after_the_end_say_why(member_client: Client, game: Game) -> None:
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    saved_forest(member_client, game)
    finished(member_client, game)
    edit = member_client.get(f"/games/{game.pk}/events/0/", follow=True)
    assert edit.redirect_chain == [(f"/games/{game.pk}/", 302)] and ENDED in edit.content.decode()
    entry.tap("count:rewards:blue-square:1", htmx=True)  # a tap on an entry left open
    assert entry.saved_to == f"/games/{game.pk}/" and ENDED in member_client.get(entry.saved_to).content.decode()
    assert game.events.count() == 1 and not Draft.objects.exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_a_guests_stale_undo_edit_and_entry_after_the_end_say_why_as_a_members_do(
    guest_client: Client, member_client: Client, stranger_client: Client, game: Game, htmx: bool
) -> None:
    """A guest joined with the table code: once the game ended, its phone's controls are told so, not a 404."""
    entry = Entry(guest_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    saved_forest(guest_client, game)
    finished(member_client, game)
    headers = HTMX if htmx else {}
    answers = [
        guest_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": "1"}, **headers),
        guest_client.get(f"/games/{game.pk}/events/0/", **headers),
        guest_client.post(f"/games/{game.pk}/round-end/", {"revision": "1"}, **headers),
        entry.tap("count:rewards:blue-square:1", htmx=htmx).response,
    ]
    for answer in answers:
        assert (answer.get("HX-Redirect") if htmx else answer.get("Location")) == f"/games/{game.pk}/", answer
    assert ENDED in guest_client.get(f"/games/{game.pk}/").content.decode()
    assert game.events.count() == 1
    assert stranger_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": "1"}).status_code == 404


def test_an_edit_of_an_event_undone_meanwhile_says_so(member_client: Client, game: Game) -> None:
    saved_forest(member_client, game)
    game.refresh_from_db()
    member_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": str(game.revision)})
    edit = member_client.get(f"/games/{game.pk}/events/0/", follow=True)
    assert edit.redirect_chain == [(f"/games/{game.pk}/", 302)]
    assert "Event 0 is no longer in the log: here is the game." in edit.content.decode()


def deleted(owner_client: Client, game: Game) -> None:
    assert owner_client.post(f"/games/{game.pk}/delete/").status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()


def test_after_a_deletion_a_members_phone_is_sent_to_the_group_and_told_who(
    member_client: Client, owner_client: Client, owner: User, game: Game
) -> None:
    game.group.profiles.filter(name="White").update(user=owner)
    entry = Entry(member_client, f"/games/{game.pk}/events/new/territory/?territory=lake")
    deleted(owner_client, game)
    group = f"/groups/{game.group_id}/"
    page = member_client.get(f"/games/{game.pk}/", follow=True)
    assert page.redirect_chain == [(group, 302)] and "This game was deleted by White." in page.content.decode()
    entry.tap("count:rewards:blue-square:1", htmx=True)
    assert entry.saved_to == group
    poll = member_client.get(f"/watch/{game.spectator_token}/live/?view=game", **HTMX)
    assert poll.status_code == 200 and poll["HX-Redirect"] == group
    undo = member_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": "0"})
    assert undo.status_code == 302 and undo["Location"] == group
    assert not Draft.objects.exists()


def test_after_a_deletion_a_guests_phone_goes_home_and_a_stranger_learns_nothing(
    guest_client: Client, owner_client: Client, stranger_client: Client, game: Game
) -> None:
    deleted(owner_client, game)
    page = guest_client.get(f"/games/{game.pk}/events/new/territory/", follow=True)
    assert page.redirect_chain == [("/", 302)] and "This game was deleted by olive." in page.content.decode()
    assert stranger_client.get(f"/games/{game.pk}/").status_code == 404
    assert Client().get(f"/games/{game.pk}/").status_code == 404
    assert stranger_client.get("/games/999999/").status_code == 404  # no such game ever


def test_a_draft_of_a_deleted_game_is_refused_cleanly(group: Group) -> None:
    game = create_game(group, ("Ann", "Ben"), {}, promos=False)
    Game.objects.filter(pk=game.pk).delete()
    with pytest.raises(GameGone):
        drafts.store(game, "phone", "Ann", EventDraft.new("territory"), None, 0, None)
    assert not Draft.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_a_deletion_racing_saves_drafts_and_polls_answers_no_404_and_no_500(
    owner: User, member_user: User, group: Group, round_: int
) -> None:
    game = create_game(group, ("White", "Red", "Yellow"), {}, promos=True)
    phones = [logged_in(member_user) for _ in range(3)]
    entries = [enter_forest(phone, game) for phone in phones[:2]]  # two entries one tap from saving
    typing = Entry(phones[2], f"/games/{game.pk}/events/new/territory/?territory=lake")
    answers: list[int] = []

    def save(entry: Entry) -> Callable[[], None]:
        return lambda: answers.append(entry.tap("take:green-circle:1", htmx=True).response.status_code)

    def tap() -> None:
        for count in range(1, 4):
            answers.append(typing.tap(f"count:rewards:blue-square:{count}", htmx=True).response.status_code)
            if typing.saved_to or typing.response.status_code == 409:  # sent on, or refused: the game was deleted
                return  # a refused tap has no draft to go on from: the phone names it as not taken

    def poll() -> None:
        for _ in range(3):
            answers.append(phones[2].get(f"/watch/{game.spectator_token}/live/?view=game", **HTMX).status_code)

    claimer = logged_in(member_user)

    def seat() -> None:  # a new phone claims a seat: the claim locks the game's row first, as the deletion does
        answers.append(claim(claimer, game, 2))

    def delete() -> None:
        answers.append(logged_in(owner).post(f"/games/{game.pk}/delete/").status_code)

    actions = [save(entries[0]), save(entries[1]), tap, poll, seat, delete]
    errors = [
        outcome
        for outcome in at_once(len(actions), lambda number: actions[number]())
        if isinstance(outcome, BaseException)
    ]
    assert not errors, errors  # the test client raises what a view let escape: a 500
    # 409: a tap of an entry deleted with its game, refused for the phone to name it (static/js/entry_queue.js)
    assert answers and set(answers) <= {200, 302, 409, 422}, answers
    assert not Game.objects.filter(pk=game.pk).exists() and not Draft.objects.exists()


def test_a_phone_sent_away_twice_is_told_once(member_client: Client, owner_client: Client, game: Game) -> None:
    deleted(owner_client, game)
    member_client.get(f"/watch/{game.spectator_token}/live/?view=game", **HTMX)  # a poll
    member_client.post(f"/games/{game.pk}/round-end/", {"revision": "0"}, **HTMX)  # and a tap, before the next page
    page = member_client.get(f"/groups/{game.group_id}/").content.decode()
    assert page.count("This game was deleted by olive.") == 1
