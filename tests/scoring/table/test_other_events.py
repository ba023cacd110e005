"""The other events, step by step: Volcano (with each detailed action), Beaver Dam, objectives, round end,
corrections; and what happens when a save would break a later event or another phone saved first."""

from __future__ import annotations

from django.test import Client

from rules import Reward
from scoring.creation import create_game
from scoring.log import change_log, replay_game
from scoring.models import Game, Group
from support.entry import Entry
from tests.scoring.conftest import FOREST_PLAYERS
from tests.scoring.table.test_game_pages import FOREST

WHITE, RED, YELLOW = "0", "1", "2"


def new(client: Client, game: Game, kind: str) -> Entry:
    return Entry(client, f"/games/{game.pk}/events/new/{kind}/")


def saved_card(client: Client, entry: Entry) -> str:
    """The game page's card of the event the entry has just saved (by itself, on its last choice)."""
    assert "?saved=" in entry.saved_to, entry.response.status_code
    page = client.get(entry.saved_to).content.decode()
    return page[page.index('id="saved"') : page.index("</section>")]


def after_forest(game: Game) -> None:
    change_log(game, game.revision, lambda events: [FOREST])
    game.refresh_from_db()


def test_volcano_with_a_trade_offers_only_what_is_held(member_client: Client, game: Game) -> None:
    after_forest(game)
    entry = new(member_client, game, "volcano").tap(f"set:player:{YELLOW}")
    assert entry.stage == "action"
    assert 'value="action:choose_first"' not in entry.html  # only in a territory
    entry.tap("action:trade")  # whom with and what in one tap: each holder's kinds on their row
    assert f'value="detail:get:{WHITE}=green-square"' in entry.html
    assert f'value="detail:get:{WHITE}=green-hexagon"' not in entry.html and f"detail:get:{RED}=" not in entry.html
    entry.tap("detail:give:green-hexagon").tap(f"detail:get:{WHITE}=green-square")  # the action is complete: saved
    assert "Yellow gives White a green hexagon for a green square." in saved_card(member_client, entry)
    yellow = replay_game(game).state.holdings["Yellow"].held()
    assert yellow == {Reward.GREEN_CIRCLE: 1, Reward.GREEN_SQUARE: 1}


def test_a_trade_fills_in_what_leaves_no_choice(member_client: Client, group: Group) -> None:
    """Red holds one kind only: what Red gives is filled in, and the trade is one tap after the action."""
    game = create_game(group, FOREST_PLAYERS, {}, promos=True)
    change_log(
        game, game.revision, lambda events: [FOREST, {"type": "beaver_dam", "player": "Red", "reward": "blue-circle"}]
    )
    game.refresh_from_db()
    entry = new(member_client, game, "volcano").tap(f"set:player:{RED}").tap("action:trade")
    assert 'value="detail:give:' not in entry.html
    entry.tap(f"detail:get:{YELLOW}=green-hexagon")
    assert "Red gives Yellow a blue circle for a green hexagon." in saved_card(member_client, entry)


def test_an_exchange_with_no_second_swap_to_make_ends_after_the_first(member_client: Client, group: Group) -> None:
    """One token of each kind: White's green square and Red's green circle leave the green hexagon the only
    other green, and once White holds it no swap is left to make (an exhausted kind stays gone): no Done."""
    game = create_game(group, FOREST_PLAYERS, {"reward_supply": 1}, promos=True)
    dams = [
        {"type": "beaver_dam", "player": player, "reward": reward}
        for player, reward in (("White", "green-square"), ("Red", "green-circle"))
    ]
    change_log(game, game.revision, lambda events: dams)
    game.refresh_from_db()
    entry = new(member_client, game, "volcano").tap(f"set:player:{WHITE}").tap("action:exchange_shape")
    entry.tap("detail:swap:green-square>green-hexagon")
    assert "White gives the supply a green square and takes a green hexagon." in saved_card(member_client, entry)


def test_an_action_and_its_token_are_one_tap(member_client: Client, game: Game) -> None:
    """Issue 32: two rewards, or a reward of a shape, is tapped with its token of the supply ("Two rewards: blue
    circle"); an action that takes no token, or a token that is no kind, is refused in place."""
    after_forest(game)
    entry = new(member_client, game, "volcano").tap(f"set:player:{RED}")
    assert 'value="action:reward_of_shape:blue-circle"' in entry.html
    assert 'aria-label="Two rewards: blue circle"' in entry.html and 'value="action:two_rewards"' not in entry.html
    for stale in ("action:gifts:blue-circle", "action:two_rewards:gold-unicorn"):
        entry.tap(stale)
        assert entry.response.status_code == 422 and "That button is out of date" in entry.html
    entry.tap("action:two_rewards:blue-circle")
    assert entry.saved_to
    assert replay_game(game).state.holdings["Red"].held() == {Reward.BLUE_CIRCLE: 2}


def dam(player: str, reward: str) -> dict[str, str]:
    return {"type": "beaver_dam", "player": player, "reward": reward}


def test_volcano_gifts_ask_each_holder(member_client: Client, game: Game) -> None:
    after_forest(game)
    entry = new(member_client, game, "volcano").tap(f"set:player:{RED}").tap("action:gifts")
    assert entry.stage == "action"
    entry.tap(f"detail:gift:{WHITE}=green-square")
    assert entry.stage == "action"  # Yellow still has to give
    entry.tap(f"detail:gift:{YELLOW}=green-circle")
    assert entry.saved_to == f"/games/{game.pk}/?saved=1"
    assert replay_game(game).state.holdings["Red"].tokens == 2


def test_an_exchange_takes_one_or_two_swaps(member_client: Client, game: Game) -> None:
    after_forest(game)
    entry = new(member_client, game, "volcano").tap(f"set:player:{WHITE}").tap("action:exchange_colour")
    entry.tap("detail:swap:green-square>blue-square")
    assert entry.stage == "action"
    entry.tap("done:action")
    assert "White gives the supply a green square and takes a blue square." in saved_card(member_client, entry)


def test_an_illegal_swap_is_refused_in_place(member_client: Client, game: Game) -> None:
    after_forest(game)
    entry = new(member_client, game, "volcano").tap(f"set:player:{WHITE}").tap("action:exchange_shape")
    entry.tap("detail:swap:green-square>blue-square")  # another colour: not an exchange of shape
    assert entry.response.status_code == 422 and entry.stage == "action"
    assert "is not the same colour and another shape" in entry.html
    assert "swaps" not in entry.draft["event"]["special_action"]  # the tap is undone


def test_an_exchange_s_second_swap_may_give_the_token_the_first_one_took(member_client: Client, game: Game) -> None:
    after_forest(game)  # White holds 3 green squares and a green circle
    entry = new(member_client, game, "volcano").tap(f"set:player:{WHITE}").tap("action:exchange_colour")
    assert 'value="detail:swap:green-circle>blue-circle"' in entry.html
    assert 'value="detail:swap:blue-circle>' not in entry.html  # White holds no blue circle yet
    entry.tap("detail:swap:green-circle>blue-circle")
    assert entry.stage == "action"
    assert 'value="detail:swap:blue-circle>black-circle"' in entry.html
    assert 'value="detail:swap:blue-circle>green-circle"' in entry.html  # given back: in the supply again
    entry.tap("detail:swap:blue-circle>black-circle")
    assert entry.saved_to == f"/games/{game.pk}/?saved=1"
    white = replay_game(game).state.holdings["White"].held()
    assert white == {Reward.GREEN_SQUARE: 3, Reward.BLACK_CIRCLE: 1}


def test_beaver_dam_offers_the_supply(member_client: Client, game: Game) -> None:
    entry = new(member_client, game, "beaver_dam").tap(f"set:player:{RED}")
    assert entry.stage == "reward"
    entry.tap("set:reward:black-circle")
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    assert replay_game(game).state.holdings["Red"].held() == {Reward.BLACK_CIRCLE: 1}


def test_promo_events_are_not_offered_without_promo_tiles(member_client: Client, game: Game) -> None:
    game.promos = False
    game.save()
    assert member_client.get(f"/games/{game.pk}/events/new/volcano/").status_code == 404
    assert "Volcano" not in member_client.get(f"/games/{game.pk}/").content.decode()


def test_objective_cards_are_built_from_their_icons(member_client: Client, game: Game) -> None:
    """A card's kind follows from its icons: one icon, a specific card; of one colour, a territory card; of
    one shape, a shape card. The third card complete saves the cards."""
    entry = new(member_client, game, "objectives").tap(f"set:player:{RED}")
    entry.tap("card:toggle:blue-circle").tap("card:toggle:green-square")  # no card shows both: two cards
    assert entry.draft["event"]["cards"] == [{"kind": "specific", "rewards": ["blue-circle"]}]
    entry.tap("card:remove:0").tap("card:toggle:green-square")  # untapped
    entry.tap("card:toggle:blue-circle").tap("card:toggle:blue-square").tap("card:add")
    entry.tap("card:specific:black-circle")  # a card of one icon: one tap
    for reward in ("green-circle", "blue-circle", "yellow-circle", "black-circle"):
        entry.tap(f"card:toggle:{reward}")  # the fourth circle fills a shape card: added, the third, so saved
    assert entry.saved_to == f"/games/{game.pk}/?saved=0"
    assert game.events.get().data["cards"] == [
        {"kind": "territory", "rewards": ["blue-square", "blue-circle"]},
        {"kind": "specific", "rewards": ["black-circle"]},
        {"kind": "shape", "rewards": ["green-circle", "blue-circle", "yellow-circle", "black-circle"]},
    ]
    assert member_client.post(f"/games/{game.pk}/seats/", {"claim": RED}).status_code == 302  # "I am Red"
    entry = new(member_client, game, "objectives")  # Red's 3 cards are proposed
    entry.tap("card:specific:green-square")
    assert entry.response.status_code == 422 and "A player keeps 3 cards at most" in entry.html


def test_the_card_being_tapped_is_kept_by_save(member_client: Client, game: Game) -> None:
    entry = new(member_client, game, "objectives").tap(f"set:player:{RED}")
    entry.tap("card:toggle:green-circle").tap("card:toggle:black-circle").tap("save")
    assert game.events.get().data["cards"] == [{"kind": "shape", "rewards": ["green-circle", "black-circle"]}]


def test_ones_own_cards_are_proposed_on_ones_own_phone(member_client: Client, game: Game) -> None:
    """After round 1 a player keeps 3 of 5 cards: starting from the cards they hold, one unchanged is 1 tap."""
    cards = [{"kind": "specific", "rewards": ["blue-circle"]}]
    change_log(game, game.revision, lambda events: [{"type": "objectives", "player": "Red", "cards": cards}])
    assert member_client.post(f"/games/{game.pk}/seats/", {"claim": RED}).status_code == 302  # "I am Red"
    entry = new(member_client, game, "objectives")
    assert entry.stage == "cards" and entry.draft["event"]["cards"] == cards
    entry.tap("save")
    assert game.events.count() == 2 and game.events.last().data["cards"] == cards  # type: ignore[union-attr]


def test_round_end_is_offered_once(member_client: Client, game: Game) -> None:
    new(member_client, game, "round_end").tap("save")
    assert "End of round 1" not in member_client.get(f"/games/{game.pk}/").content.decode()
    again = member_client.get(f"/games/{game.pk}/events/new/round_end/")
    assert again.status_code == 422 and "round 1 has already ended" in again.content.decode()


def test_a_correction_cannot_give_back_what_is_not_held(member_client: Client, game: Game) -> None:
    entry = new(member_client, game, "adjust").tap(f"set:player:{RED}")
    entry.tap("add:rewards:blue-circle:-1").tap("add:nuggets:1").tap("done:changes", note="forgot the fur")
    assert entry.stage == "changes" and entry.response.status_code == 422
    assert "Red holds 0 × blue circle, cannot give back 1" in entry.html
    entry.tap("add:rewards:blue-circle:1", times=2).tap("save", note="forgot the fur")
    assert "Correction for Red: blue circle +1 and nuggets +1 (forgot the fur)." in saved_card(member_client, entry)
    assert game.events.get().data["note"] == "forgot the fur"


def test_a_correction_may_change_no_count(member_client: Client, game: Game) -> None:
    # The record format accepts it: a note for the log, or nothing at all.
    entry = new(member_client, game, "adjust").tap(f"set:player:{RED}").tap("save", note="all checked")
    assert "Correction for Red: nothing (all checked)." in saved_card(member_client, entry)
    entry = new(member_client, game, "adjust").tap(f"set:player:{WHITE}")
    entry.tap("add:nuggets:1").tap("add:nuggets:-1").tap("save")  # a count changed back to 0
    assert entry.saved_to == f"/games/{game.pk}/?saved=1"
    assert [event.data for event in game.events.order_by("index")] == [
        {"type": "adjust", "player": "Red", "note": "all checked", "rewards": {}},
        {"type": "adjust", "player": "White", "rewards": {}},
    ]
    assert replay_game(game).state.holdings["Red"].tokens == 0


def test_an_edit_that_breaks_a_later_event_is_refused_with_the_reason(member_client: Client, game: Game) -> None:
    trade = {"action": "trade", "with": "White", "give": "green-circle", "get": "green-square"}
    change_log(
        game, game.revision, lambda events: [FOREST, {"type": "volcano", "player": "Yellow", "special_action": trade}]
    )
    entry = Entry(member_client, f"/games/{game.pk}/events/0/")
    entry.tap("reopen:picks").tap("take:green-square:2").tap("take:green-circle:2")  # Yellow: the rest, by itself
    entry.tap("save")
    assert entry.response.status_code == 422
    assert "This change would make a later event invalid: Event 1: Yellow holds no green circle to give" in entry.html
    assert game.events.get(index=0).data == FOREST


def test_saving_after_another_phone_saved_just_works_when_the_entry_still_holds(
    member_client: Client, game: Game
) -> None:
    entry = new(member_client, game, "round_end")
    change_log(game, game.revision, lambda events: [FOREST])  # another phone
    entry.tap("save")
    assert entry.response.status_code == 302
    assert [event.data["type"] for event in game.events.all()] == ["territory", "round_end"]


def test_a_finished_game_takes_no_more_events(member_client: Client, game: Game) -> None:
    member_client.post(f"/games/{game.pk}/finish/", {"revision": game.revision})
    stale = member_client.get(f"/games/{game.pk}/events/new/territory/")
    assert stale.status_code == 302 and stale["Location"] == f"/games/{game.pk}/"
    assert game.events.count() == 0


def test_the_end_of_round_1_is_one_tap_on_the_game_page(member_client: Client, game: Game) -> None:
    page = member_client.get(f"/games/{game.pk}/").content.decode()
    assert f'action="/games/{game.pk}/round-end/"' in page
    ended = member_client.post(f"/games/{game.pk}/round-end/", {"revision": str(game.revision)})
    assert ended.status_code == 302 and ended["Location"] == f"/games/{game.pk}/?saved=0"
    assert [event.data for event in game.events.all()] == [{"type": "round_end"}]
    page = member_client.get(ended["Location"]).content.decode()
    assert "Saved:" in page and f'action="/games/{game.pk}/round-end/"' not in page  # offered once
    game.refresh_from_db()
    again = member_client.post(f"/games/{game.pk}/round-end/", {"revision": str(game.revision)}, follow=True)
    assert "round 1 has already ended" in again.content.decode() and game.events.count() == 1


def test_the_end_of_round_1_from_a_stale_page_or_odd_input_saves_nothing(
    member_client: Client, stranger_client: Client, game: Game
) -> None:
    for revision in ("", "-1", "٣", "9" * 40, str(game.revision + 1)):
        stale = member_client.post(f"/games/{game.pk}/round-end/", {"revision": revision}, follow=True)
        assert stale.status_code == 200 and "The game changed on another phone" in stale.content.decode()
    htmx = member_client.post(f"/games/{game.pk}/round-end/", {"revision": "x"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and 'id="game"' in htmx.content.decode()
    assert member_client.get(f"/games/{game.pk}/round-end/").status_code == 405
    assert stranger_client.post(f"/games/{game.pk}/round-end/", {"revision": str(game.revision)}).status_code == 404
    assert not game.events.exists()
    ended = member_client.post(f"/games/{game.pk}/round-end/", {"revision": str(game.revision)}, HTTP_HX_REQUEST="true")
    assert ended["HX-Redirect"] == f"/games/{game.pk}/?saved=0"


def alone(player: str, **buildings: int) -> dict[str, object]:
    """A lake where only ``player`` built, who took the special action (not recorded)."""
    return {
        "type": "territory",
        "territory": "lake",
        "closed_by": player,
        "rewards": {},
        "buildings": {player: buildings},
        "lone_choice": "special_action",
    }


def test_a_building_counted_beyond_the_players_buildings_is_refused_at_its_tap(
    member_client: Client, game: Game
) -> None:
    change_log(game, game.revision, lambda events: [alone("White", farm=1), alone("White", farm=1)])
    entry = new(member_client, game, "territory").tap("set:territory:forest").tap("cycle:buildings:0:farm")
    assert entry.response.status_code == 422 and entry.stage == "board"
    error = entry.html[entry.html.index('class="error"') :]
    assert error.startswith(
        'class="error" role="alert">White&#x27;s farms are counted in 3 territories up to this one, but a player '
        "has 2 farms in a 3-player game and a farm stands in 1 territory</p>"
    )
    assert entry.draft["event"].get("buildings", {}) == {}  # the tap was undone
    entry.tap("cycle:buildings:0:warehouse")  # another building is fine
    assert entry.response.status_code == 200 and entry.draft["event"]["buildings"] == {"White": {"warehouse": 1}}


def test_round_1_cannot_end_after_more_buildings_than_round_1_gives(member_client: Client, game: Game) -> None:
    change_log(game, game.revision, lambda events: [alone("White", farm=1), alone("White", farm=1)])
    said = (
        "round 1 cannot end here: White&#x27;s farms are counted in 2 territories before it (too many from event 1 "
        "on), but round 1 gives a player 1 farm and a farm stands in 1 territory"
    )
    entry = Entry.__new__(Entry)  # an Entry expects its page to open without an error
    entry.client, entry.url = member_client, f"/games/{game.pk}/events/new/round_end/"
    entry.response = member_client.get(entry.url)
    assert entry.response.status_code == 422 and said in entry.html  # said as the entry opens
    entry.tap("save")
    assert entry.response.status_code == 422 and said in entry.html
    assert game.events.count() == 2
    # recorded where it happened, between the two farms, it is accepted
    change_log(game, game.revision, lambda events: [events[0], {"type": "round_end"}, events[1]])
    assert replay_game(game).state.round == 2


def test_two_corrections_move_the_last_token_of_a_kind_to_another_player(member_client: Client, game: Game) -> None:
    change_log(
        game, game.revision, lambda events: [{"type": "adjust", "player": "White", "rewards": {"blue-circle": 12}}]
    )
    entry = new(member_client, game, "adjust").tap(f"set:player:{WHITE}").tap("add:rewards:blue-circle:-1")
    entry.tap("save", note="Red took it")
    entry = new(member_client, game, "adjust").tap(f"set:player:{RED}").tap("add:rewards:blue-circle:1")
    entry.tap("save", note="Red took it")
    assert "Red takes 1 × blue circle that a correction gave back" in saved_card(member_client, entry)
    holdings = replay_game(game).state.holdings
    assert (holdings["White"].rewards[Reward.BLUE_CIRCLE], holdings["Red"].rewards[Reward.BLUE_CIRCLE]) == (11, 1)


def test_a_buildings_cell_goes_back_to_none_past_what_the_players_buildings_can_still_count_in(
    member_client: Client, game: Game
) -> None:
    change_log(game, game.revision, lambda events: [alone("White", farm=1), {"type": "round_end"}])  # 1 farm left
    entry = new(member_client, game, "territory").tap("set:territory:forest").tap("cycle:buildings:0:farm")
    assert entry.draft["event"]["buildings"] == {"White": {"farm": 1}}
    entry.tap("cycle:buildings:0:farm")  # a second farm here would be a third one: back to none, not stuck
    assert entry.response.status_code == 200 and entry.draft["event"].get("buildings", {}) == {}
    entry.tap("cycle:buildings:1:farm", times=2)  # Red has both farms
    assert entry.draft["event"]["buildings"] == {"Red": {"farm": 2}}


def test_a_giver_holding_one_kind_only_gives_it_without_a_tap(member_client: Client, game: Game) -> None:
    change_log(
        game, game.revision, lambda events: [FOREST, {"type": "beaver_dam", "player": "Red", "reward": "black-square"}]
    )
    entry = new(member_client, game, "volcano").tap(f"set:player:{WHITE}").tap("action:gifts")
    assert entry.stage == "action" and entry.draft["event"]["special_action"]["from"] == {"Red": "black-square"}
    assert f'value="detail:gift:{RED}=' not in entry.html and f'value="detail:gift:{YELLOW}=green-circle"' in entry.html
    entry.tap(f"detail:gift:{YELLOW}=green-circle")  # the last choice: saved
    assert entry.saved_to == f"/games/{game.pk}/?saved=2"
    assert game.events.get(index=2).data["special_action"]["from"] == {"Red": "black-square", "Yellow": "green-circle"}
