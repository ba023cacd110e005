"""The site's own 404 and 500 pages, in the reader's language."""

from __future__ import annotations

from unittest import mock

from django.test import Client


def test_not_found_is_the_sites_page_in_the_readers_language(db: None) -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/games/999/")
    assert response.status_code == 404
    page = response.content.decode()
    assert (
        '<html lang="fr"' in page
        and "Introuvable" in page
        and 'Okanagan<span class="brand-rest"> Companion</span>' in page
    )


def test_a_server_error_is_the_sites_page_in_the_readers_language(db: None) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ko", raise_request_exception=False)
    with mock.patch("scoring.site.views.pages.home_context", side_effect=RuntimeError("broken")):
        response = client.get("/")
    assert response.status_code == 500
    page = response.content.decode()
    assert '<html lang="ko"' in page and "문제가 생겼습니다" in page
