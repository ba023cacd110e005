"""The site in Korean and Traditional Chinese on a phone: the text renders, nothing overflows.

Screenshots go to ``.screenshots/`` for a person to look at.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.creation import create_game
from scoring.log import change_log
from scoring.models import Group
from tests.scoring.table.test_game_pages import FOREST

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parent.parent.parent / ".screenshots"
LANGUAGES = {
    "ko": ("ko", "판정", "이 테이블에 참여"),
    "zh-hant": ("zh-tw", "裁定結果", "加入這一桌"),
}


def has_fonts(fontconfig_lang: str) -> bool:
    try:
        listed = subprocess.run(["fc-list", f":lang={fontconfig_lang}"], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        return False
    return bool(listed.stdout.strip())


@pytest.fixture(params=list(LANGUAGES))
def language_page(request: Any, browser: Any) -> Any:
    language = request.param
    fontconfig_lang, _ruling, _join = LANGUAGES[language]
    if not has_fonts(fontconfig_lang):
        reason = f"no font for {language} (apt-get install -y fonts-noto-cjk)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, extra_http_headers={"Accept-Language": language}
    )
    page = context.new_page()
    page.language = language
    yield page
    context.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.language}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} overflows"


def test_a_calculator_in_korean_and_chinese(live_server: Any, language_page: Any) -> None:
    page = language_page
    page.goto(
        live_server.url + "/calculators/influence/?name_1=White&farm_1=1&silo_1=1&name_2=Red&warehouse_2=1"
        "&name_3=Yellow&warehouse_3=1&closer=2"
    )
    expect(page.locator("html")).to_have_attribute("lang", page.language)
    expect(page.get_by_role("heading", name=LANGUAGES[page.language][1])).to_be_visible()
    shoot(page, "calculator")


def test_a_game_page_in_korean_and_chinese(live_server: Any, language_page: Any, django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("olive", password="pw-olive-123")
    group = Group.objects.create(name="Table", owner=owner)
    group.members.add(owner)
    game = create_game(group, ("White", "Red", "Yellow"), {}, promos=False)
    change_log(game, game.revision, lambda events: [FOREST])
    page = language_page
    page.goto(f"{live_server.url}/join/{game.table_code}/")
    page.locator("form button.big").click()
    expect(page.get_by_role("heading", name=LANGUAGES[page.language][2])).to_be_visible()
    page.locator("details summary").first.click()
    shoot(page, "game")
