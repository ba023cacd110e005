"""Starting the site as in production for a benchmark or a test: production settings on a given database
(the schema, the cache table and the static files made ready by ``deploy.serve.prepare``), served by gunicorn
on a free loopback port; or the site in this process, for Django's test client."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.test import Client

    from scoring.models import Group

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def in_process(database: Path) -> None:
    """The site in this process, for Django's test client: DEBUG on, a fresh SQLite database at ``database``
    with its schema and cache table."""
    os.environ |= {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"}
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okanagan_site.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)
    call_command("createcachetable")


def member_of_a_group(group_name: str) -> tuple[Client, Group]:
    """After :func:`in_process`: a member logged in on Django's test client, and their new group."""
    from django.contrib.auth.models import User
    from django.test import Client

    from scoring.models import Group

    user = User.objects.create_user("bench", password="bench-password-1")
    group = Group.objects.create(name=group_name, owner=user)
    group.members.add(user)
    client = Client()
    client.force_login(user)
    return client, group


def production_env(database_url: str) -> dict[str, str]:
    """Production settings (DEBUG off) on ``database_url``, over plain HTTP on loopback."""
    env = os.environ | {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "benchmark-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        # The site's own settings, even when started from the test suite (whose test settings would
        # otherwise leak in through the environment pytest-django set).
        "DJANGO_SETTINGS_MODULE": "okanagan_site.settings",
        # A fresh site counts its rate limits afresh: with REDIS_URL, under a prefix of its own (else every
        # robot's sign-up from 127.0.0.1 in the hour would count against the next run's).
        "CACHE_KEY_PREFIX": f"bench-{uuid.uuid4().hex[:12]}",
    }
    env.pop("DEBUG", None)
    return env


def serve(env: dict[str, str], port: int, workers: int) -> subprocess.Popen[bytes]:
    """gunicorn serving the site on ``port``, once it answers."""
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    server = subprocess.Popen(
        [gunicorn, "--workers", str(workers), "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
         "okanagan_site.wsgi"],
        cwd=ROOT,
        env=env,
    )  # fmt: skip
    for _ in range(100):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/health/live/")
            connection.getresponse().read()
            connection.close()
            return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise RuntimeError("gunicorn did not start")
