"""Write the nginx configuration for serving the site (``deploy/nginx.conf.template``)."""

from __future__ import annotations

import getpass
import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.template import Context, Engine
from django.urls import URLPattern, get_resolver

from scoring.body_limits import BODY_LIMITS, DEFAULT_BODY_LIMIT

TEMPLATE = Path(settings.BASE_DIR) / "deploy" / "nginx.conf.template"


def location_regex(url_name: str) -> str:
    """The nginx location regex of a URL of the site, from its Django pattern.

    >>> location_regex("game_import")
    '^/groups/(?P<group_id>[0-9]{1,18})/games/import/$'
    """
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLPattern) and pattern.name == url_name:
            regex = pattern.pattern.regex.pattern
            return "^/" + regex.removeprefix("^").removesuffix(r"\Z") + "$"
    raise LookupError(f"no URL named {url_name!r}")


def render(listen: str, sockets: list[Path], run_dir: Path) -> str:
    """The configuration: nginx on ``listen`` (``host:port``), in front of the app servers (gunicorn) on the
    unix ``sockets``."""
    body_limits = [
        {"url_name": name, "regex": location_regex(name), "limit": limit} for name, limit in BODY_LIMITS.items()
    ]
    context = {
        "listen": listen,
        "sockets": sockets,
        "run_dir": run_dir,
        "static_root": settings.STATIC_ROOT,
        "default_limit": DEFAULT_BODY_LIMIT,
        "body_limits": body_limits,
        "user": getpass.getuser() if os.geteuid() == 0 else "",
    }
    template = Engine().from_string(TEMPLATE.read_text())
    return template.render(Context(context, autoescape=False))


class Command(BaseCommand):
    help = "Write the nginx configuration for serving the site in front of gunicorn."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--listen", default="127.0.0.1:8000", help="host:port nginx listens on")
        parser.add_argument(
            "--socket", type=Path, action="append", required=True, help="an app server's unix socket (one or more)"
        )
        parser.add_argument("--run-dir", type=Path, required=True, help="the folder of nginx's pid, logs and temp")

    def handle(self, *args: Any, **options: Any) -> None:
        run_dir: Path = options["run_dir"].resolve()
        for temp in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (run_dir / "tmp" / temp).mkdir(parents=True, exist_ok=True)
        config = render(options["listen"], [socket.resolve() for socket in options["socket"]], run_dir)
        (run_dir / "nginx.conf").write_text(config)
