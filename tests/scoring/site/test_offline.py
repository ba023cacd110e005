"""The service worker is served from the site's root (its scope is every page), allowed by the CSP, and never kept
stale by a cache; the offline page it keeps is in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_and_allowed_by_the_csp() -> None:
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Cache-Control"] == "no-cache"
    source = answer.content.decode()
    assert 'const OFFLINE = "/offline/";' in source and 'const STATIC = "/static/";' in source
    assert "worker-src 'self'" in Client().get("/")["Content-Security-Policy"]
    assert 'data-worker="/sw.js"' in Client().get("/").content.decode()


def test_the_service_worker_s_cache_is_named_after_what_it_serves() -> None:
    first = Client().get("/sw.js").content.decode()
    assert first == Client().get("/sw.js").content.decode()
    assert "okanagan-" in first and 'const CACHE = "okanagan-";' not in first


def test_the_offline_page_says_what_to_do_in_the_reader_s_language() -> None:
    english = Client().get("/offline/").content.decode()
    assert "Taps made on an entry are kept on this phone" in english
    french = Client(headers={"accept-language": "fr"}).get("/offline/")
    assert french["Content-Language"] == "fr"
    assert "Hors ligne" in french.content.decode()
    assert Client().post("/offline/").status_code == 405
