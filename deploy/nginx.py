"""Write the nginx configuration for serving the site, from ``deploy/nginx.conf.template``.

The site's own figures fill it in: its URLs and their body limits, its static files. ``deploy/serve.py``
(``make serve``) runs it with the settings it serves with:

    .venv/bin/python deploy/nginx.py --socket run/gunicorn-1.sock --run-dir run [--listen 127.0.0.1:8000]
        [--trusted-proxy 10.0.0.0/8 ...]
"""

from __future__ import annotations

import argparse
import getpass
import ipaddress
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

import django  # noqa: E402
from django.conf import settings  # noqa: E402
from django.template import Context, Engine  # noqa: E402
from django.urls import URLPattern, URLResolver, get_resolver  # noqa: E402

from okanagan_site.log_masks import SECRET_PATHS  # noqa: E402
from scoring.site.body_limits import BODY_LIMITS, DEFAULT_BODY_LIMIT  # noqa: E402

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"
NCHAN_MODULE = Path(os.environ.get("NCHAN_MODULE", "/usr/lib/nginx/modules/ngx_nchan_module.so"))
"""nginx's nchan module (Debian's libnginx-mod-nchan), which holds the pages' streams: without it, nothing is pushed
and the pages poll."""
PUSH_SOCKET = "push.sock"
"""nchan's publisher socket, in the run folder (settings ``PUSH_PUBLISH_URL``)."""


def push_url(run_dir: Path) -> str:
    """The ``PUSH_PUBLISH_URL`` of the app servers behind the nginx of ``run_dir`` (its publisher socket, the path
    quoted as the host); ``""`` without nchan."""
    if not NCHAN_MODULE.exists():
        return ""
    return f"http+unix://{quote(str(run_dir.resolve() / PUSH_SOCKET), safe='')}/pub/"


def location_regex(url_name: str) -> str:
    """The nginx location regex of a URL of the site, from its Django pattern.

    >>> location_regex("game_import")
    '^/groups/(?P<group_id>[0-9]{1,18})/games/import/$'
    """
    for pattern, regex in _patterns(get_resolver().url_patterns):
        if pattern.name == url_name:
            return "^/" + regex.removesuffix(r"\Z") + "$"
    raise LookupError(f"no URL named {url_name!r}")


def _patterns(patterns: Sequence[URLPattern | URLResolver], prefix: str = "") -> Iterator[tuple[URLPattern, str]]:
    """Every URL pattern with its whole regex, through the includes (each concern's URLs)."""
    for pattern in patterns:
        regex = prefix + pattern.pattern.regex.pattern.removeprefix("^")
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns, regex)
        else:
            yield pattern, regex


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
        "nchan_module": NCHAN_MODULE if NCHAN_MODULE.exists() else "",
        "push_socket": run_dir / PUSH_SOCKET,
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
        raise argparse.ArgumentTypeError(f"not an address or network: {text!r}") from None


def write(listen: str, sockets: list[Path], run_dir: Path, trusted_proxies: Sequence[Network] = ()) -> None:
    """``run_dir/nginx.conf`` (see :func:`render`), and the folders of nginx's temporary files."""
    run_dir = run_dir.resolve()
    for temp in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (run_dir / "tmp" / temp).mkdir(parents=True, exist_ok=True)
    config = render(listen, [socket.resolve() for socket in sockets], run_dir, trusted_proxies)
    (run_dir / "nginx.conf").write_text(config)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
    options = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okanagan_site.settings")
    django.setup()
    write(options.listen, options.socket, options.run_dir, options.trusted_proxy)


if __name__ == "__main__":
    main()
