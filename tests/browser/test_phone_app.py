"""The site as an app on the phone: installable (manifest, icon, theme colour), codes and links copied
with one tap, the screen kept awake during a game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from .test_play_on_a_phone import a_table, csp_violations, fits

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_table_code_and_links_copy_with_one_tap(live_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    phone = context.new_page()
    refused = csp_violations(phone)
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    group = game.group

    phone.goto(f"{live_server.url}/games/{game.pk}/")
    copy = phone.get_by_role("button", name="Copy: Table code")
    expect(copy).to_be_visible()
    copy.click()
    expect(copy).to_have_text("Copied")
    expect(phone.locator("#said[role=status]")).to_have_text("Copied")  # its name stays "Copy: Table code"
    assert phone.evaluate("navigator.clipboard.readText()") == game.table_code
    phone.get_by_role("button", name="Copy: Join link").click()
    assert phone.evaluate("navigator.clipboard.readText()").endswith(f"/join/{game.table_code}/")
    assert phone.evaluate("document.body.hasAttribute('data-keep-awake')")
    assert fits(phone)

    phone.goto(f"{live_server.url}/groups/{group.pk}/")
    phone.get_by_role("button", name="Copy: Invite link").click()
    assert f"/invite/{group.invite_token}/" in phone.evaluate("navigator.clipboard.readText()")
    assert not refused, refused
    context.close()


def test_without_javascript_the_codes_and_links_are_text_and_no_button_is_dead(live_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    page = context.new_page()
    game = a_table(page, live_server.url, "theo", ("Maya", "Theo"))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.get_by_text(game.table_code, exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Copy: Table code")).to_be_hidden()
    context.close()


def test_the_site_installs_as_an_app(db: None) -> None:
    page = Client().get("/").content.decode()
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#2f6b3a">' in page
    from django.contrib.staticfiles import finders

    manifest_path = finders.find("manifest.webmanifest")
    assert manifest_path is not None
    with open(manifest_path, encoding="utf-8") as file:
        manifest = json.load(file)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")) is not None
    # PNG icons too: iOS and older Android launchers do not take an SVG.
    assert {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"} == {"192x192", "512x512"}
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in page
    touch_icon = finders.find("icons/apple-touch-icon.png")
    assert touch_icon is not None
    with open(touch_icon, "rb") as file:
        header = file.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(header[16:20]) == 180


WAKE_LOCKS_ASKED = """
window.wakeLocksAsked = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => {
    window.wakeLocksAsked.push(type);
    return request(type);
  };
}
"""
"""Each page notes the wake locks it asks for (window.wakeLocksAsked), before its own scripts run."""


def test_the_screen_stays_awake_on_the_game_the_entry_and_the_spectator_page(live_server: Any, phone: Any) -> None:
    phone.context.add_init_script(WAKE_LOCKS_ASKED)
    game = a_table(phone, live_server.url, "maya", ("Maya", "Theo"))
    for path in (f"/games/{game.pk}/", f"/games/{game.pk}/events/new/adjust/", f"/watch/{game.spectator_token}/"):
        phone.goto(live_server.url + path)
        expect(phone.locator("html[data-ready]")).to_have_count(1)
        phone.wait_for_function("() => window.wakeLocksAsked.length > 0")
        assert phone.evaluate("window.wakeLocksAsked") == ["screen"], path
    phone.goto(f"{live_server.url}/rules/")  # a page read away from the table lets the screen sleep
    expect(phone.locator("html[data-ready]")).to_have_count(1)
    assert phone.evaluate("window.wakeLocksAsked") == []
