"""A phone's step-by-step entry of one event on Django's test client, one tap (POST) at a time, and what a
signed draft holds."""

from __future__ import annotations

import html
import json
import re
import zlib
from typing import Any

from django.core import signing
from django.test import Client


def read_signed(token: str) -> Any:
    """What a token of ``django.core.signing.dumps`` holds, read without its signature, as anyone who has the
    page can: a signed draft is not hidden, it only cannot come back changed."""
    value = token.rsplit(":", 2)[0]  # then the timestamp and the signature
    data = signing.b64_decode(value.removeprefix(".").encode())
    return json.loads(zlib.decompress(data) if value.startswith(".") else data)


class Entry:
    """Drives the step-by-step entry of one event as a phone would, one tap (POST) at a time (``htmx``: as the
    entry's htmx posts it)."""

    def __init__(self, client: Client, url: str) -> None:
        self.client, self.url = client, url
        self.response = client.get(url)
        assert self.response.status_code == 200, self.response.content[:300]

    @property
    def html(self) -> str:
        return self.response.content.decode()

    def field(self, name: str) -> str:
        match = re.search(rf'name="{name}" value="([^"]*)"', self.html)
        assert match, f"no {name} in the page"
        return html.unescape(match.group(1))

    @property
    def draft(self) -> dict[str, Any]:
        data: dict[str, Any] = read_signed(self.field("draft"))
        return data

    @property
    def saved_to(self) -> str:
        """Where the entry went once saved (a plain redirect, or htmx's), else ``""``."""
        if self.response.status_code == 302:
            return str(self.response["Location"])
        return str(self.response.get("HX-Redirect", ""))

    @property
    def stage(self) -> str:
        match = re.search(r'<fieldset class="card stage" data-stage="(\w+)"', self.html)
        return match.group(1) if match else ""

    def tap(self, op: str, *, times: int = 1, htmx: bool = False, **fields: str) -> Entry:
        headers = {"HX-Request": "true"} if htmx else {}
        for _ in range(times):
            data = {
                "draft": self.field("draft"),
                "revision": self.field("revision"),
                "draft_id": self.field("draft_id"),
                "op": op,
                **fields,
            }
            self.response = self.client.post(self.url, data, headers=headers)
        return self
