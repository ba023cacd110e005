"""Who may open what: every URL for the owner, a member, a guest at the table, a stranger, nobody.

A stranger gets 404 for another group's groups, games and players (the site does not say they exist).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.log import change_log
from scoring.models import Draft, Game, Group
from scoring.table.entry import Draft as EventDraft

PERSONAS = ("owner", "member", "guest", "stranger", "anonymous")
PLAYERS_ONLY = {"owner": 200, "member": 200, "guest": 200, "stranger": 404, "anonymous": 404}
MEMBERS_ONLY = {"owner": 200, "member": 200, "guest": 404, "stranger": 404, "anonymous": 404}
OWNER_ONLY = {"owner": 302, "member": 404, "guest": 404, "stranger": 404, "anonymous": 404}
EVERYONE = dict.fromkeys(PERSONAS, 200)
DRAFT = EventDraft({"type": "adjust", "player": "Red"}, done=["player"])
"""Another phone's entry in progress."""


def redirects(expected: dict[str, int]) -> dict[str, int]:
    """The same, with 302 (done, then back to a page) where 200 was allowed."""
    return {persona: 302 if status == 200 else status for persona, status in expected.items()}


# (method, URL template, expected status per persona)
ACCOUNTS_ONLY = {"owner": 200, "member": 200, "guest": 302, "stranger": 200, "anonymous": 302}  # 302: log in

MATRIX = [
    ("get", "/", EVERYONE),
    ("get", "/rules/", EVERYONE),
    ("get", "/sw.js", EVERYONE),
    ("get", "/offline/", EVERYONE),
    ("get", "/health/", EVERYONE),
    ("get", "/health/live/", EVERYONE),
    ("get", "/too-big/", dict.fromkeys(PERSONAS, 413)),
    ("post", "/too-big/", dict.fromkeys(PERSONAS, 413)),
    ("get", "/calculators/", EVERYONE),
    ("get", "/calculators/influence/", EVERYONE),
    ("get", "/helper/", dict.fromkeys(PERSONAS, 301)),
    ("get", "/helper/influence/", dict.fromkeys(PERSONAS, 301)),
    ("post", "/theme/", redirects(EVERYONE)),
    ("post", "/i18n/setlang/", redirects(EVERYONE)),
    ("get", "/accounts/signup/", EVERYONE),
    ("get", "/accounts/login/", EVERYONE),
    ("post", "/accounts/logout/", redirects(EVERYONE)),
    ("get", "/accounts/password/", ACCOUNTS_ONLY),
    ("get", "/accounts/password/done/", ACCOUNTS_ONLY),
    ("post", "/groups/new/", {**redirects(EVERYONE), "owner": 422, "member": 422, "stranger": 422}),  # no name
    ("get", "/groups/{group}/", MEMBERS_ONLY),
    ("get", "/groups/{group}/players/{profile}/", MEMBERS_ONLY),
    ("post", "/groups/{group}/players/{profile}/", MEMBERS_ONLY),  # empty form: shown again with errors
    ("get", "/groups/{group}/games/new/", MEMBERS_ONLY),
    ("post", "/groups/{group}/games/import/", {**MEMBERS_ONLY, "owner": 422, "member": 422}),
    ("get", "/groups/{group}/sheets/new/small_islands/", MEMBERS_ONLY),
    ("get", "/groups/{group}/backup.json", MEMBERS_ONLY),
    ("get", "/groups/{group}/plays.csv", MEMBERS_ONLY),
    ("get", "/groups/{group}/plays.bgsplay", MEMBERS_ONLY),
    ("get", "/groups/{group}/stats/", MEMBERS_ONLY),
    ("post", "/groups/restore/", {**redirects(EVERYONE), "owner": 422, "member": 422, "stranger": 422}),
    ("post", "/groups/{group}/sheets/new/cooper_island/", {**MEMBERS_ONLY, "owner": 422, "member": 422}),
    ("post", "/groups/{group}/invite/", OWNER_ONLY),
    ("post", "/groups/{group}/members/{member}/remove/", OWNER_ONLY),
    ("get", "/invite/{invite}/", {**EVERYONE, "owner": 302, "member": 302}),
    ("post", "/invite/{invite}/", {**EVERYONE, "owner": 302, "member": 302, "stranger": 302}),  # joins
    ("get", "/games/{game}/", PLAYERS_ONLY),
    ("get", "/games/{game}/record.json", MEMBERS_ONLY),
    ("get", "/games/{game}/play.bgsplay", dict.fromkeys(PERSONAS, 404)),  # in progress: no play yet
    ("get", "/games/{game}/qr.svg", PLAYERS_ONLY),
    ("get", "/games/{game}/seats/", PLAYERS_ONLY),
    ("post", "/games/{game}/seats/", PLAYERS_ONLY),  # nothing asked: the seats again
    ("post", "/games/{game}/code/", redirects(MEMBERS_ONLY)),
    ("get", "/games/{game}/finish/", MEMBERS_ONLY),
    ("post", "/games/{game}/finish/", redirects(MEMBERS_ONLY)),
    ("post", "/games/{game}/reopen/", redirects(MEMBERS_ONLY)),
    ("post", "/games/{game}/public/", redirects(MEMBERS_ONLY)),
    ("get", "/games/{game}/delete/", MEMBERS_ONLY),
    ("post", "/games/{game}/delete/", redirects(MEMBERS_ONLY)),
    # An Okanagan game has no score sheet (the sheet games' access: test_sheet_games).
    ("get", "/games/{game}/sheet/0/", dict.fromkeys(PERSONAS, 404)),
    ("post", "/games/{game}/sheet/score/", dict.fromkeys(PERSONAS, 404)),
    ("post", "/games/{game}/sheet/correct/", dict.fromkeys(PERSONAS, 404)),
    ("get", "/games/{game}/events/new/territory/", PLAYERS_ONLY),
    ("get", "/games/{game}/events/new/volcano/", PLAYERS_ONLY),
    ("get", "/games/{game}/events/0/", PLAYERS_ONLY),
    ("post", "/games/{game}/events/0/delete/", redirects(PLAYERS_ONLY)),
    ("post", "/games/{game}/cards/keep/", redirects(PLAYERS_ONLY)),  # a phone that is nobody: refused, said so
    ("post", "/games/{game}/round-end/", redirects(PLAYERS_ONLY)),  # no revision posted: stale, said so
    ("post", "/games/{game}/events/new/territory/", {**PLAYERS_ONLY, "owner": 422, "member": 422, "guest": 422}),
    ("post", "/games/{game}/events/0/", {**PLAYERS_ONLY, "owner": 422, "member": 422, "guest": 422}),
    ("post", "/games/{game}/drafts/{draft}/take/", redirects(PLAYERS_ONLY)),
    ("post", "/games/{game}/drafts/{draft}/cancel/", redirects(PLAYERS_ONLY)),
    ("get", "/games/{game}/entry/", {**PLAYERS_ONLY, "owner": 400, "member": 400, "guest": 400}),  # no entry asked
    ("get", "/games/{game}/entry/?entry=0123456789abcdef", {**PLAYERS_ONLY, "owner": 204, "member": 204, "guest": 204}),
    ("get", "/join/", EVERYONE),
    ("post", "/join/", dict.fromkeys(PERSONAS, 422)),  # no code
    ("get", "/join/{code}/", EVERYONE),
    ("get", "/watch/{watch}/", EVERYONE),
    ("get", "/watch/{watch}/live/", EVERYONE),
    ("get", "/watch/{watch}/live/?view=game", PLAYERS_ONLY),
    ("get", "/watch/{watch}/stream/", EVERYONE),  # may the page open its stream (nginx asks): anyone with the link
    ("get", "/watch/{watch}/result.png", dict.fromkeys(PERSONAS, 404)),  # the game is on: no result yet
]


@pytest.fixture
def personas(
    owner_client: Client, member_client: Client, guest_client: Client, stranger_client: Client
) -> dict[str, Client]:
    return {
        "owner": owner_client,
        "member": member_client,
        "guest": guest_client,
        "stranger": stranger_client,
        "anonymous": Client(),
    }


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize(("method", "template", "expected"), MATRIX, ids=[f"{m} {t}" for m, t, _e in MATRIX])
def test_access(
    personas: dict[str, Client],
    persona: str,
    method: str,
    template: str,
    expected: dict[str, int],
    game: Game,
    group: Group,
    member_user: User,
) -> None:
    change_log(game, game.revision, lambda events: [{"type": "round_end"}])
    game.refresh_from_db()
    draft = Draft.objects.create(game=game, phone="another-phone", kind="adjust", data=DRAFT.to_data())
    url = template.format(
        group=group.pk,
        profile=group.profiles.first().pk,  # type: ignore[union-attr]
        member=member_user.pk,
        invite=group.invite_token,
        game=game.pk,
        code=game.table_code,
        watch=game.spectator_token,
        draft=draft.pk,
    )
    client = personas[persona]
    data = {"revision": str(game.revision)} if method == "post" else None
    response = getattr(client, method)(url, data)
    assert response.status_code == expected[persona], f"{persona} {method.upper()} {url}"


def test_a_stranger_cannot_see_another_groups_unknown_ids(stranger_client: Client) -> None:
    huge = "9" * 30
    for url in ("/groups/999/", "/games/999/", "/games/999/events/new/territory/", "/watch/nope/", f"/games/{huge}/"):
        assert stranger_client.get(url).status_code == 404


def test_a_new_table_code_locks_out_the_guests(member_client: Client, guest_client: Client, game: Game) -> None:
    member_client.post(f"/games/{game.pk}/code/")
    assert guest_client.get(f"/games/{game.pk}/").status_code == 404


def test_a_guest_keeps_read_access_to_the_result_but_enters_nothing_more(
    member_client: Client, guest_client: Client, game: Game
) -> None:
    member_client.post(f"/games/{game.pk}/finish/", {"revision": game.revision})
    result = guest_client.get(f"/games/{game.pk}/")
    assert result.status_code == 200
    page = result.content.decode()
    assert "Final scores" in page
    assert f"/watch/{game.spectator_token}/" in page  # the result can be shared
    # A control left on its phone says the game has ended, as a member's does; nothing is entered.
    assert guest_client.get(f"/games/{game.pk}/events/new/territory/")["Location"] == f"/games/{game.pk}/"
    assert (
        guest_client.post(f"/games/{game.pk}/events/0/delete/", {"revision": "1"})["Location"] == f"/games/{game.pk}/"
    )
    assert (
        "The game has ended: its events can no longer be changed."
        in guest_client.get(f"/games/{game.pk}/").content.decode()
    )
    assert not game.events.exists()
    assert guest_client.get(f"/games/{game.pk}/record.json").status_code == 404
    # Reopened, the game has a new code: the guest joins again before seeing anything.
    game.refresh_from_db()
    member_client.post(f"/games/{game.pk}/reopen/", {"revision": game.revision})
    assert guest_client.get(f"/games/{game.pk}/").status_code == 404


def test_csrf_is_enforced_on_every_change(member_user: User, game: Game) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(member_user)
    for url in (f"/games/{game.pk}/finish/", f"/games/{game.pk}/events/new/territory/", "/groups/new/", "/theme/"):
        assert client.post(url, {"revision": "0"}).status_code == 403
    game.refresh_from_db()
    assert game.is_playing


def test_the_matrix_covers_every_url() -> None:
    from okanagan_site.urls import urlpatterns

    routes = {str(pattern.pattern) for pattern in urlpatterns}
    tried = {template for _method, template, _expected in MATRIX}
    for route in routes:
        shape = route.replace("<id:group_id>", "{group}").replace("<id:game_id>", "{game}")
        shape = shape.replace("<id:profile_id>", "{profile}").replace("<id:user_id>", "{member}")
        shape = shape.replace("sheets/new/<str:kind>", "sheets/new/small_islands")
        shape = (
            shape.replace("<id:draft_id>", "{draft}")
            .replace("<id:index>", "0")
            .replace("<id:position>", "0")
            .replace("<str:kind>", "territory")
        )
        shape = shape.replace("<slug:slug>", "influence")
        shape = shape.replace("<str:token>", "{invite}" if route.startswith("invite") else "{watch}")
        shape = "/" + shape.replace("<str:code>", "{code}")
        if shape == "/i18n/":  # Django's set_language, included
            shape = "/i18n/setlang/"
        assert shape in tried, f"{route} is not in the permission matrix"


def test_a_login_redirect_carries_back_the_address_asked_for_but_not_a_huge_query_string(client: Client) -> None:
    # Quoted into the redirect, a 3.8 kB query made a Location header too large for nginx: a 502.
    short = client.get("/groups/new/?from=home")
    assert short.status_code == 302
    assert short["Location"] == "/accounts/login/?next=/groups/new/%3Ffrom%3Dhome"
    huge = client.get("/groups/new/?" + "q=%25%22" * 475)
    assert huge.status_code == 302
    assert huge["Location"] == "/accounts/login/?next=/groups/new/"
