"""`HOST=0.0.0.0 make run` serves the phones on the same network: under the development settings (DEBUG
on, no ALLOWED_HOSTS) this machine's network address is an allowed host, and another name is not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from okanagan_site.hosts import own_addresses
from tests.conftest import site_shell

SCRIPT = """
import os
from django.test import Client
for host in os.environ["HOSTS_TO_TRY"].split():
    print(Client().get("/health/live/", headers={"host": host}).status_code)
"""


def test_the_development_server_answers_a_phone_on_the_network(tmp_path: Path) -> None:
    network = [address for address in own_addresses() if address not in {"127.0.0.1", "[::1]"}]
    if not network:
        pytest.skip("this machine has no network address")
    env = {key: value for key, value in os.environ.items() if key not in {"ALLOWED_HOSTS", "SECRET_KEY"}} | {
        "DJANGO_SETTINGS_MODULE": "okanagan_site.settings",
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "HOSTS_TO_TRY": f"{network[0]} {network[0]}:8000 evil.example",
    }
    run = site_shell(SCRIPT, env)
    assert run.stdout.split() == ["200", "200", "400"], run.stderr
