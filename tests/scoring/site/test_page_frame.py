"""The frame of every page (templates/_base.html): a description for search engines and link previews, in the
reader's language; a skip link, the keyboard's first stop, to the page's own content; its menus named."""

from __future__ import annotations

import re

import pytest
from django.test import Client

PAGES = ("/", "/rules/", "/calculators/", "/accounts/login/", "/join/", "/no-such-page/")


def description(page: str) -> str:
    found = re.search(r'<meta name="description"\s+content="([^"]*)"', page)
    assert found, "no meta description"
    return found.group(1)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_describes_the_site(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    assert description(page).startswith("Scores Okanagan: Valley of the Lakes on every phone at the table")


def test_the_description_is_in_the_reader_s_language(client: Client) -> None:
    page = client.get("/", headers={"accept-language": "fr"}).content.decode()
    assert 'lang="fr"' in page
    assert "Okanagan" in description(page) and "Scores Okanagan" not in description(page)


@pytest.mark.parametrize("path", PAGES)
def test_the_keyboard_s_first_stop_skips_to_the_page_s_content(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    body = page[page.index("<body") :]
    first = re.search(r"<(a|button|input|select|textarea)\b[^>]*>", body)
    assert first and 'href="#main"' in first.group(0), first
    assert '<main id="main">' in body


def test_the_header_s_menu_is_named_apart_from_a_page_s_own(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    names = re.findall(r'<nav\b[^>]*aria-label="([^"]+)"', page)
    assert "Site menu" in names and "Sections" in names
    assert len(names) == len(set(names)) == len(re.findall(r"<nav\b", page))
