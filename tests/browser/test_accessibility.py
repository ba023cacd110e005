"""axe-core (the engine of browsers' accessibility audits) on the pages a table uses, on a phone, in the
light and the dark theme: no serious or critical violation."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from scoring.log import change_log

from .test_play_on_a_phone import a_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOREST = {
    "type": "territory",
    "territory": "forest",
    "closed_by": "Maya",
    "rewards": {"green-square": 1},
    "buildings": {"Maya": {"farm": 1}},
    "lone_choice": "rewards",
    "picks": {"Maya": {"green-square": 1}},
}


def serious(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page, one line each."""
    found = Axe().run(page).response["violations"]
    return [
        f"{violation['id']} ({violation['impact']}): {[node['target'] for node in violation['nodes']][:3]}"
        for violation in found
        if violation["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_table_s_pages_have_no_serious_accessibility_violation(live_server: Any, browser: Any, scheme: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    game = a_table(page, live_server.url, "maya", ("Maya", "Theo", "Ines"))
    change_log(game, 0, lambda events: [FOREST, {"type": "objectives", "player": "Theo", "cards": []}])
    base = f"{live_server.url}/games/{game.pk}"
    urls = [
        live_server.url + "/",
        f"{base}/",  # with "Who is this phone?"
        f"{base}/seats/",
        f"{base}/events/new/territory/",
        f"{base}/events/new/objectives/",
        f"{base}/events/1/",  # Theo's secret cards
        f"{base}/finish/",
        f"{live_server.url}/watch/{game.spectator_token}/",
    ]
    problems = {}
    for url in urls:
        page.goto(url)
        if found := serious(page):
            problems[url] = found
    page.goto(f"{base}/")
    page.get_by_role("button", name="I am Maya").click()  # the header in the seat's colour
    page.get_by_role("link", name="Objective cards").click()
    if found := serious(page):
        problems["own cards"] = found
    assert not problems, problems
    context.close()
