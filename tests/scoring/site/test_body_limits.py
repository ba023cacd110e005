"""Request bodies are bounded per URL before anything reads them, and uploads stay in memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.wsgi import WSGIRequest
from django.test import Client, override_settings

from scoring.models import Group
from scoring.site.body_limits import BODY_LIMITS, DEFAULT_BODY_LIMIT, LARGEST_BODY_LIMIT, MIB


@pytest.fixture
def unread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if anything parses a request's body."""

    def refuse(request: WSGIRequest) -> None:
        raise AssertionError("the body was read")

    monkeypatch.setattr(WSGIRequest, "_load_post_and_files", refuse)


@pytest.mark.django_db
def test_it_refuses_a_form_over_the_default_limit_without_reading_it(unread: None) -> None:
    response = Client().post("/join/", {"code": "K" * DEFAULT_BODY_LIMIT})
    assert response.status_code == 413
    assert b"Too large" in response.content
    assert response.templates[0].name == "site/too_big.html"


@pytest.mark.django_db
def test_it_refuses_a_body_of_unknown_length(unread: None) -> None:
    response = Client().generic("POST", "/join/", b"", HTTP_TRANSFER_ENCODING="chunked", CONTENT_LENGTH="")
    assert response.status_code == 413
    response = Client().generic("POST", "/join/", b"", CONTENT_LENGTH="12abc")
    assert response.status_code == 413


def test_the_page_answers_413_to_any_method_in_the_readers_language(client: Client) -> None:
    for method in ("get", "post", "put", "delete"):
        response = getattr(client, method)("/too-big/", headers={"accept-language": "fr"})
        assert response.status_code == 413, method
        assert b'<html lang="fr"' in response.content
        assert "Content-Security-Policy" in response.headers


def test_the_page_states_the_limits(client: Client) -> None:
    text = client.get("/too-big/").content.decode()
    assert "6.0\xa0MB" in text and "2.0\xa0MB" in text and "128.0\xa0KB" in text


def test_a_record_under_its_url_limit_reaches_the_form(member_client: Client, group: Group) -> None:
    url = f"/groups/{group.pk}/games/import/"
    big_record = SimpleUploadedFile("record.json", b" " * int(1.5 * MIB), "application/json")
    response = member_client.post(url, {"record": big_record})
    assert response.status_code == 422
    assert "at most 1 MB" in response.content.decode()
    too_big = SimpleUploadedFile("record.json", b" " * BODY_LIMITS["game_import"], "application/json")
    assert member_client.post(url, {"record": too_big}).status_code == 413


def test_a_backup_under_its_limit_is_never_written_to_disk(member_client: Client, tmp_path: Path) -> None:
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE >= LARGEST_BODY_LIMIT
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == DEFAULT_BODY_LIMIT
    backup = SimpleUploadedFile("backup.json", b"[" * (5 * MIB), "application/json")
    with override_settings(FILE_UPLOAD_TEMP_DIR=str(tmp_path)):
        response = member_client.post("/groups/restore/", {"backup": backup})
    assert response.status_code == 422
    assert list(tmp_path.iterdir()) == []
