"""The static files are sent with their own types by every server of the site: whitenoise (the dev server and
gunicorn alone), Django's static view (the test server) and nginx (`make serve`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.request import urlopen

from django.test import Client, override_settings

from deploy.nginx import render

MANIFEST = "/static/manifest.webmanifest"
MANIFEST_TYPE = "application/manifest+json"


@override_settings(WHITENOISE_USE_FINDERS=True)  # as the dev server, whose whitenoise serves static/ itself
def test_whitenoise_sends_the_web_app_manifest_as_a_manifest(client: Client) -> None:
    answer = client.get(MANIFEST)
    assert answer.status_code == 200
    assert answer["Content-Type"] == MANIFEST_TYPE


def test_the_test_server_sends_the_web_app_manifest_as_a_manifest(live_server: Any) -> None:
    with urlopen(f"{live_server.url}{MANIFEST}") as answer:
        assert answer.headers["Content-Type"] == MANIFEST_TYPE


def test_nginx_sends_the_web_app_manifest_as_a_manifest(tmp_path: Path) -> None:
    config = render("127.0.0.1:8000", [tmp_path / "gunicorn.sock"], tmp_path)
    assert f"{MANIFEST_TYPE} webmanifest;" in config
