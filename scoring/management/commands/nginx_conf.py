"""Write the nginx configuration for serving the site (``deploy/nginx.conf.template``)."""

from __future__ import annotations

import getpass
import ipaddress
import os
from argparse import ArgumentTypeError
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.template import Context, Engine
from django.urls import URLPattern, get_resolver

from okanagan_site.log_masks import SECRET_PATHS
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


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def render(listen: str, sockets: list[Path], run_dir: Path, trusted_proxies: Sequence[Network] = ()) -> str:
    """The configuration: nginx on ``listen`` (``host:port``), in front of the app servers (gunicorn) on the
    unix ``sockets``, trusting the client's address and scheme that ``trusted_proxies`` (the TLS terminator in
    front) forward."""
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
        "trusted_proxies": [str(network) for network in trusted_proxies],
        "secret_paths": "|".join(SECRET_PATHS),
        "user": getpass.getuser() if os.geteuid() == 0 else "",
    }
    template = Engine().from_string(TEMPLATE.read_text())
    return template.render(Context(context, autoescape=False))


def trusted_proxy(text: str) -> Network:
    """An address or network of a trusted proxy; anything else (which would be written into nginx's
    configuration) is refused.

    >>> trusted_proxy("10.0.0.0/8"), trusted_proxy("::1")
    (IPv4Network('10.0.0.0/8'), IPv6Network('::1/128'))
    """
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ArgumentTypeError(f"not an address or network: {text!r}") from None


class Command(BaseCommand):
    help = "Write the nginx configuration for serving the site in front of gunicorn."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--listen", default="127.0.0.1:8000", help="host:port nginx listens on")
        parser.add_argument(
            "--socket", type=Path, action="append", required=True, help="an app server's unix socket (one or more)"
        )
        parser.add_argument("--run-dir", type=Path, required=True, help="the folder of nginx's pid, logs and temp")
        parser.add_argument(
            "--trusted-proxy",
            type=trusted_proxy,
            action="append",
            default=[],
            help="an address or network (CIDR) of the TLS terminator in front, whose X-Forwarded-For and "
            "X-Forwarded-Proto are believed (none or more)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        run_dir: Path = options["run_dir"].resolve()
        for temp in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (run_dir / "tmp" / temp).mkdir(parents=True, exist_ok=True)
        sockets = [socket.resolve() for socket in options["socket"]]
        config = render(options["listen"], sockets, run_dir, options["trusted_proxy"])
        (run_dir / "nginx.conf").write_text(config)
