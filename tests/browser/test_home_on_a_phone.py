"""The home page as a phone shows it: served for real, no horizontal scroll."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_the_home_page_fits_a_phone_without_horizontal_scroll(live_server: Any, phone: Any) -> None:
    phone.goto(live_server.url + "/")
    assert phone.get_by_role("heading", name="Score Okanagan at the table").is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert phone.evaluate("typeof htmx") == "object"
