"""Objective cards in fewer taps (issue 12): the next card started by its first icon, a full set card in one
tap, a claimed seat that leads to one's cards, and one's cards kept after round 1 in one tap."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.log import replay_game
from scoring.models import Game
from support.entry import Entry
from tests.scoring.table.test_game_pages import FOREST, add_events

WHITE, RED, YELLOW = 0, 1, 2
SPECIFIC = {"kind": "specific", "rewards": ["blue-circle"]}
GREENS = {"kind": "territory", "rewards": ["green-square", "green-hexagon", "green-circle"]}
CIRCLES = {"kind": "shape", "rewards": ["green-circle", "blue-circle", "yellow-circle", "black-circle"]}
OUT_OF_DATE = "That button is out of date; here is the current step."


def cards_of(client: Client, game: Game) -> Entry:
    return Entry(client, f"/games/{game.pk}/events/new/objectives/").tap(f"set:player:{RED}")


def claim(client: Client, game: Game, position: int) -> str:
    response = client.post(f"/games/{game.pk}/seats/", {"claim": str(position)})
    assert response.status_code == 302
    return str(response["Location"])


def kept(entry: Entry) -> list[object]:
    return list(entry.draft["event"].get("cards", []))


# The next card's first icon -------------------------------------------------------------------------------


def test_an_icon_that_cannot_join_the_card_so_far_starts_the_next_card(member_client: Client, game: Game) -> None:
    entry = cards_of(member_client, game).tap("card:toggle:blue-square").tap("card:toggle:blue-circle")
    assert kept(entry) == [] and entry.draft["partial"] == {"blue-square": 1, "blue-circle": 1}  # joins
    entry.tap("card:toggle:green-circle")  # no card shows blue squares and green circles: a new card
    assert entry.response.status_code == 200
    assert kept(entry) == [{"kind": "territory", "rewards": ["blue-square", "blue-circle"]}]
    assert entry.draft["partial"] == {"green-circle": 1}
    entry.tap("card:toggle:black-circle").tap("save")
    assert game.events.get().data["cards"] == [
        {"kind": "territory", "rewards": ["blue-square", "blue-circle"]},
        {"kind": "shape", "rewards": ["green-circle", "black-circle"]},
    ]


def test_a_lone_icon_followed_by_another_card_s_icon_is_a_specific_card(member_client: Client, game: Game) -> None:
    entry = cards_of(member_client, game).tap("card:toggle:green-square").tap("card:toggle:blue-circle")
    assert kept(entry) == [{"kind": "specific", "rewards": ["green-square"]}]
    assert entry.draft["partial"] == {"blue-circle": 1}


def test_an_icon_tapped_again_is_untapped_and_starts_nothing(member_client: Client, game: Game) -> None:
    entry = cards_of(member_client, game).tap("card:toggle:green-square").tap("card:toggle:green-square")
    assert kept(entry) == [] and entry.draft["partial"] == {}


def test_a_new_card_beyond_the_third_is_refused_and_the_tap_undone(member_client: Client, game: Game) -> None:
    entry = cards_of(member_client, game).tap("card:specific:black-square").tap("card:specific:black-hexagon")
    entry.tap("card:toggle:green-square").tap("card:toggle:green-hexagon")
    entry.tap("card:toggle:blue-circle")  # would keep the third card and start a fourth
    assert entry.response.status_code == 422 and "A player keeps 3 cards at most" in entry.html
    assert len(kept(entry)) == 2 and entry.draft["partial"] == {"green-square": 1, "green-hexagon": 1}
    entry.tap("save")  # the card being tapped is the third
    assert len(game.events.get().data["cards"]) == 3


# A full set card in one tap --------------------------------------------------------------------------------


def test_the_cards_screen_offers_a_full_set_per_colour_and_per_shape(member_client: Client, game: Game) -> None:
    html = cards_of(member_client, game).html
    for colour in ("green", "blue", "yellow", "black"):
        assert f'value="card:full:colour:{colour}"' in html and f"All 3 {colour}: territory set" in html
    for shape in ("square", "hexagon", "circle"):
        assert f'value="card:full:shape:{shape}"' in html and f"All 4 {shape}s: shape set" in html


def test_a_full_set_card_is_added_in_one_tap(member_client: Client, game: Game) -> None:
    entry = cards_of(member_client, game).tap("card:full:colour:green").tap("card:full:shape:circle")
    assert kept(entry) == [GREENS, CIRCLES]
    entry.tap("save")
    assert game.events.get().data["cards"] == [GREENS, CIRCLES]
    assert replay_game(game).final.players[RED].objective_points == 0  # nothing held yet: the card is real


def test_icons_tapped_of_the_full_set_become_it(member_client: Client, game: Game) -> None:
    entry = cards_of(member_client, game).tap("card:toggle:green-square").tap("card:full:colour:green")
    assert kept(entry) == [GREENS] and entry.draft["partial"] == {}


def test_icons_tapped_of_another_card_are_kept_before_the_full_set(member_client: Client, game: Game) -> None:
    entry = cards_of(member_client, game).tap("card:toggle:blue-circle").tap("card:full:colour:green")
    assert kept(entry) == [SPECIFIC, GREENS] and entry.draft["partial"] == {}


def test_a_full_set_beyond_the_third_card_is_refused(member_client: Client, game: Game) -> None:
    entry = cards_of(member_client, game).tap("card:full:colour:green").tap("card:full:colour:blue")
    entry.tap("card:toggle:black-circle").tap("card:full:shape:square")  # the black circle is the third card
    assert entry.response.status_code == 422 and "A player keeps 3 cards at most" in entry.html
    assert len(kept(entry)) == 2 and entry.draft["partial"] == {"black-circle": 1}


@pytest.mark.parametrize(
    "op",
    [
        "card:full:colour:purple",
        "card:full:colour:circle",
        "card:full:shape:green",
        "card:full:size:large",
        "card:full:colour",
        "card:full",
        "card:full:colour:green:again",
    ],
)
def test_a_forged_full_set_is_out_of_date_not_a_crash(member_client: Client, game: Game, op: str) -> None:
    entry = cards_of(member_client, game).tap(op)
    assert entry.response.status_code == 422 and OUT_OF_DATE in entry.html
    assert kept(entry) == []


# A claimed seat leads to one's cards --------------------------------------------------------------------------


def test_claiming_a_seat_in_round_1_leads_to_the_game_with_one_s_cards_one_tap_away(
    guest_client: Client, game: Game
) -> None:
    # Nobody's cards are entered yet: the table may enter them at the end, where a "Back" would be a tap lost.
    assert claim(guest_client, game, RED) == f"/games/{game.pk}/"
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    prompt = page[page.index('id="my-cards"') : page.index('id="my-cards"') + 1200]
    assert "are not entered yet" in prompt and "button big wide" in prompt  # no territory scored yet: big
    assert f'href="/games/{game.pk}/events/new/objectives/"' in prompt and "My objective cards" in prompt


def test_claiming_a_seat_in_round_1_leads_to_one_s_cards_once_the_table_enters_them(
    guest_client: Client, game: Game
) -> None:
    add_events(game, {"type": "objectives", "player": "White", "cards": [SPECIFIC]})
    url = claim(guest_client, game, RED)
    assert url == f"/games/{game.pk}/events/new/objectives/"
    entry = Entry(guest_client, url)
    assert entry.stage == "cards" and entry.draft["event"]["player"] == "Red"
    assert f'href="/games/{game.pk}/"' in entry.html and "Back to the game" in entry.html


def test_a_player_whose_cards_are_entered_claims_to_the_game(guest_client: Client, game: Game) -> None:
    add_events(game, {"type": "objectives", "player": "Red", "cards": [SPECIFIC]})
    assert claim(guest_client, game, RED) == f"/games/{game.pk}/"


def test_claiming_a_seat_after_round_1_leads_to_the_game(guest_client: Client, game: Game) -> None:
    add_events(game, {"type": "round_end"})
    assert claim(guest_client, game, RED) == f"/games/{game.pk}/"


def test_another_player_s_cards_do_not_count_as_one_s_own(guest_client: Client, game: Game) -> None:
    add_events(game, {"type": "objectives", "player": "White", "cards": [SPECIFIC]})
    assert claim(guest_client, game, RED) == f"/games/{game.pk}/events/new/objectives/"


def test_new_objectives_lead_to_one_s_cards_only_when_they_are_entered_as_the_game_goes(
    guest_client: Client, game: Game
) -> None:
    claim(guest_client, game, RED)
    volcano = f"/games/{game.pk}/events/new/volcano/"
    entry = Entry(guest_client, volcano).tap("action:new_objectives")  # no card of Red's entered: the game
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    game.refresh_from_db()
    add_events(game, {"type": "objectives", "player": "Red", "cards": [SPECIFIC]})
    entry = Entry(guest_client, volcano).tap("action:new_objectives")
    # The same Volcano as event 0, a moment after it: asked once (scoring.table.twins), then saved.
    assert entry.response.status_code == 422 and entry.field("twin") == "0"
    entry.tap("save", twin=entry.field("twin"))
    assert entry.saved_to == f"/games/{game.pk}/events/new/objectives/"  # Red's cards change: on to them


# One's cards kept after round 1 in one tap ------------------------------------------------------------------------


def after_round_1(game: Game, cards: list[dict[str, object]]) -> None:
    add_events(game, {"type": "objectives", "player": "Red", "cards": cards}, {"type": "round_end"})


def keep(client: Client, game: Game, *, htmx: bool = False, revision: int | None = None) -> str:
    game.refresh_from_db()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(
        f"/games/{game.pk}/cards/keep/", {"revision": str(game.revision if revision is None else revision)}, **headers
    )
    assert response.status_code == (200 if htmx else 302)
    if htmx:
        return response.content.decode()
    return client.get(str(response["Location"])).content.decode()


def test_the_redraw_offers_to_keep_one_s_cards_in_one_tap(guest_client: Client, game: Game) -> None:
    after_round_1(game, [SPECIFIC, GREENS, CIRCLES])
    claim(guest_client, game, RED)
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="redraw"' in page and "Keep my 3 cards" in page and "My objective cards" in page
    page = keep(guest_client, game)
    assert 'id="redraw"' not in page and "Keep my" not in page
    event = game.events.last()
    assert event is not None and event.data == {
        "type": "objectives",
        "player": "Red",
        "cards": [SPECIFIC, GREENS, CIRCLES],
    }
    assert event.entered_for == ""  # one's own cards, on one's own phone


def test_keeping_works_with_htmx_and_shows_what_was_saved(guest_client: Client, game: Game) -> None:
    after_round_1(game, [SPECIFIC])
    claim(guest_client, game, RED)
    assert "Keep my 1 card<" in guest_client.get(f"/games/{game.pk}/").content.decode()  # its number, singular
    revision = str(Game.objects.get(pk=game.pk).revision)
    response = guest_client.post(f"/games/{game.pk}/cards/keep/", {"revision": revision}, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == f"/games/{game.pk}/?saved=2" and game.events.count() == 3
    page = guest_client.get(response["HX-Redirect"]).content.decode()
    assert 'id="saved"' in page and 'id="redraw"' not in page


def test_keeping_two_cards_says_two(guest_client: Client, game: Game) -> None:
    after_round_1(game, [SPECIFIC, GREENS])
    claim(guest_client, game, RED)
    assert "Keep my 2 cards" in guest_client.get(f"/games/{game.pk}/").content.decode()


def test_a_player_holding_no_card_is_not_offered_to_keep_none(guest_client: Client, game: Game) -> None:
    add_events(game, {"type": "round_end"})
    claim(guest_client, game, RED)
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="redraw"' in page and "Keep my" not in page and "My objective cards" in page


def test_the_cards_prompt_is_a_small_one_once_the_round_is_under_way(guest_client: Client, game: Game) -> None:
    # A table that enters its cards at the end is not shown a big button through all of round 2.
    after_round_1(game, [SPECIFIC])
    claim(guest_client, game, RED)
    page = " ".join(guest_client.get(f"/games/{game.pk}/").content.decode().split())  # attributes on one line
    assert 'class="card stage" id="redraw"' in page and 'button class="big wide">Keep my 1 card' in page
    add_events(game, FOREST)
    page = guest_client.get(f"/games/{game.pk}/").content.decode()
    prompt = page[page.index('id="redraw"') : page.index("</form>", page.index('id="redraw"'))]
    assert 'class="cards-later"' in page and "big" not in prompt and "Keep my 1 card" in prompt


def test_keeping_on_a_stale_page_is_refused_with_the_new_state(guest_client: Client, game: Game) -> None:
    after_round_1(game, [SPECIFIC])
    claim(guest_client, game, RED)
    game.refresh_from_db()
    page = keep(guest_client, game, revision=game.revision - 1)
    assert "The game changed on another phone" in page and game.events.count() == 2


def test_a_phone_that_is_nobody_is_refused(member_client: Client, game: Game) -> None:
    after_round_1(game, [SPECIFIC])
    page = keep(member_client, game)
    assert "This phone is nobody at the table" in page and game.events.count() == 2


def test_keeping_twice_or_before_round_1_ends_is_refused(guest_client: Client, game: Game) -> None:
    add_events(game, {"type": "objectives", "player": "Red", "cards": [SPECIFIC]})
    claim(guest_client, game, RED)
    assert "There are no cards to keep now" in keep(guest_client, game)
    add_events(game, {"type": "round_end"})
    keep(guest_client, game)
    assert "There are no cards to keep now" in keep(guest_client, game)
    assert game.events.count() == 3


def test_a_finished_game_is_refused(member_client: Client, game: Game) -> None:
    """A member's phone (a guest no longer reaches a finished game's entry at all)."""
    after_round_1(game, [SPECIFIC])
    claim(member_client, game, RED)
    game.status = Game.Status.FINISHED
    game.save()
    response = member_client.post(f"/games/{game.pk}/cards/keep/", {"revision": str(game.revision)})
    assert response.status_code == 302
    assert "This game is over" in member_client.get(str(response["Location"])).content.decode()
    assert game.events.count() == 2


def test_keeping_needs_a_post(guest_client: Client, game: Game) -> None:
    after_round_1(game, [SPECIFIC])
    claim(guest_client, game, RED)
    assert guest_client.get(f"/games/{game.pk}/cards/keep/").status_code == 405


def test_the_cards_proposed_are_not_saved_by_choosing_whose_they_are(guest_client: Client, game: Game) -> None:
    """Only a card tap that completes the third card saves: the three cards one holds, proposed again after
    "Change" on the player, wait for "Save these cards"."""
    three = [SPECIFIC, GREENS, {"kind": "specific", "rewards": ["black-circle"]}]
    add_events(game, {"type": "objectives", "player": "Red", "cards": three})
    claim(guest_client, game, RED)
    entry = Entry(guest_client, f"/games/{game.pk}/events/new/objectives/")
    assert entry.stage == "cards" and len(entry.draft["event"]["cards"]) == 3
    entry.tap("reopen:player").tap(f"set:player:{RED}")
    assert entry.stage == "cards" and entry.response.status_code == 200 and game.events.count() == 1
