"""``make serve``: the site as in production, gunicorn behind nginx, in the foreground (Ctrl-C stops both).

nginx (``deploy/nginx.conf.template``) takes the clients, slow ones included, and hands gunicorn's sync
workers only whole requests, on a unix socket; it serves the static files and refuses bodies over the
site's limits. Its pid, logs and temporary files are in the run folder (``run/``, git-ignored), so no
root is needed. Plain HTTP: in production TLS is terminated before nginx, whose addresses ``TRUSTED_PROXIES``
lists (comma-separated addresses or networks): nginx then takes the client's address and scheme from its
``X-Forwarded-For`` and ``X-Forwarded-Proto``. An app server that exits is started again; nginx sends the
requests to the others meanwhile; nginx too, if it exits.

nginx also holds the pages' streams, with its nchan module (Debian's ``libnginx-mod-nchan``), when it is
installed: the app servers publish each committed change of a game to it (``PUSH_PUBLISH_URL``, set here to
nchan's publisher socket in the run folder; scoring/live/push.py), and it tells the pages that show the game.
Without the module, nothing is pushed and the pages poll.

With ``--servers N``, N app servers (gunicorn instances, each with its ``--workers``, each on its own
socket) share the database and, with ``REDIS_URL``, Redis; nginx sends each request to the one with the
fewest requests under way. On one machine that only shows the setup works; on several, each runs its
gunicorn and one nginx (or any load balancer) reaches them over the network.

    .venv/bin/python deploy/serve.py [--host 127.0.0.1] [--port 8000] [--workers N] [--servers N]

nginx's error log quotes request lines: it is written on with the table codes and tokens masked
(``okanagan_site/log_masks.py``), as Django's own log is.

``prepare``, ``start`` and ``Site`` are importable, for the tests and benchmarks that serve the site as ``make serve``
does.
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TextIO

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

from deploy.nginx import PUSH_SOCKET, push_url  # noqa: E402
from okanagan_site.hosts import own_addresses  # noqa: E402
from okanagan_site.log_masks import masked  # noqa: E402

RUN_DIR = ROOT / "run"
NGINX = os.environ.get("NGINX", shutil.which("nginx") or "/usr/sbin/nginx")
WILDCARDS = {"0.0.0.0", "::", "[::]"}


def secret_key() -> str:
    """A key kept in a git-ignored file, made on first use, so that sessions survive restarts."""
    path = ROOT / ".serve-secret-key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


def manage(env: dict[str, str], *args: str) -> str:
    """Run ``manage.py`` with ``args``; its last line of output."""
    run = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    lines = run.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def prepare(env: dict[str, str]) -> None:
    """Before serving: the schema, the rate limits' cache table and the hashed static files."""
    for command in (["migrate", "-v0"], ["createcachetable"], ["collectstatic", "--noinput", "-v0"]):
        manage(env, *command)


def serve_env(base: dict[str, str], host: str) -> dict[str, str]:
    """Production settings for serving on ``host`` over plain HTTP behind nginx; what ``base`` sets wins."""
    hosts = own_addresses() if host in WILDCARDS else [host, "127.0.0.1"]
    defaults = {
        "SECRET_KEY": secret_key() if not base.get("SECRET_KEY") else base["SECRET_KEY"],
        "ALLOWED_HOSTS": ",".join(dict.fromkeys([*hosts, "localhost"])),
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "TRUSTED_PROXY_COUNT": "1",  # nginx sets X-Forwarded-For to the client's address
        "SECURE_PROXY_SSL_HEADER": "1",  # nginx sets X-Forwarded-Proto: its own scheme, or a trusted proxy's
    }
    env = defaults | {key: value for key, value in base.items() if value}
    env.pop("DEBUG", None)
    return env


def default_workers() -> int:
    """gunicorn's sync workers: ``WORKERS``, or 2 × cores + 1."""
    return int(os.environ.get("WORKERS") or 2 * (os.cpu_count() or 1) + 1)


class UnixHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to a unix socket: one app server, reached directly, as nginx reaches it."""

    def __init__(self, path: Path, timeout: float = 30) -> None:
        super().__init__("127.0.0.1", timeout=timeout)
        self.path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(str(self.path))


@dataclass
class Site:
    """The app servers (gunicorn) and nginx, running."""

    servers: list[subprocess.Popen[bytes]]
    sockets: list[Path]
    """Each app server's unix socket, in the order of ``servers``."""
    env: dict[str, str]
    workers: int
    log: TextIO | None = None
    """Where the app servers' messages and nginx's error log go (``None``: this process's standard error)."""
    run_dir: Path = RUN_DIR
    nginx: subprocess.Popen[bytes] | None = None
    stopping: threading.Event = field(default_factory=threading.Event)
    supervisor: threading.Thread | None = None

    def running(self) -> bool:
        processes = [*self.servers, *([self.nginx] if self.nginx else [])]
        return all(process.poll() is None for process in processes)

    def start_nginx(self) -> None:
        """Start nginx on the run folder's configuration, its error log written on masked."""
        (self.run_dir / PUSH_SOCKET).unlink(missing_ok=True)  # left by an nginx that was killed: it would not bind
        command = [NGINX, "-p", str(self.run_dir), "-c", str(self.run_dir / "nginx.conf"), "-e", "stderr"]
        self.nginx = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE)
        assert self.nginx.stderr is not None
        threading.Thread(target=write_masked, args=(self.nginx.stderr, self.log), name="nginx-log", daemon=True).start()

    def supervise(self) -> None:
        """From now until :meth:`stop`, start again each app server that exits (killed, out of memory), and nginx
        if it exits: the others answer meanwhile, the pages poll while their stream is down and open it again
        once nginx is back (static/js/table.js), and the site is whole again in a moment rather than stopped."""
        self.supervisor = threading.Thread(target=self._restart_exited, name="supervisor", daemon=True)
        self.supervisor.start()

    def _restart_exited(self) -> None:
        while not self.stopping.wait(0.5):
            for index, process in enumerate(self.servers):
                if process.poll() is not None:
                    print(f"serve: app server {index + 1} exited ({process.returncode}): starting it again",
                          file=sys.stderr)  # fmt: skip
                    self.servers[index] = gunicorn(self.env, self.sockets[index], self.workers, self.log)
            if self.nginx is not None and self.nginx.poll() is not None:
                print(f"serve: nginx exited ({self.nginx.returncode}): starting it again", file=sys.stderr)
                self.start_nginx()

    def stop(self) -> None:
        """Stop nginx (at once), then the app servers (their workers finish their request)."""
        self.stopping.set()
        if self.supervisor is not None:
            self.supervisor.join()
        for group in ([self.nginx] if self.nginx else [], self.servers):
            for process in group:
                if process.poll() is None:
                    process.terminate()
            for process in group:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def answers(connection: http.client.HTTPConnection) -> bool:
    """Whether the site behind ``connection`` answers ``/health/live/`` (a 400 too: the host may not be one the
    site serves, but the site is there; not nginx's 502 while no app server is)."""
    try:
        connection.request("GET", "/health/live/")
        return connection.getresponse().status < 500
    except OSError:
        return False
    finally:
        connection.close()


def start(
    env: dict[str, str],
    host: str,
    port: int,
    workers: int,
    run_dir: Path = RUN_DIR,
    servers: int = 1,
    log: TextIO | None = None,
) -> Site:
    """Start ``servers`` gunicorn instances of ``workers`` workers, each on a unix socket in ``run_dir``, then
    nginx on ``host:port`` in front of them; return once each server and nginx answer. Their messages go to
    ``log`` (a file), or else to this process's standard error."""
    run_dir.mkdir(parents=True, exist_ok=True)
    sockets = [run_dir / f"gunicorn-{number}.sock" for number in range(1, servers + 1)]
    listen = f"[{host.strip('[]')}]:{port}" if ":" in host else f"{host}:{port}"
    upstreams = [argument for path in sockets for argument in ("--socket", str(path))]
    proxies = [f"--trusted-proxy={proxy}" for proxy in env.get("TRUSTED_PROXIES", "").split(",") if proxy.strip()]
    subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "nginx.py"), "--listen", listen, *upstreams, "--run-dir", str(run_dir),
         *proxies],
        cwd=ROOT,
        env=env,
        check=True,
    )  # fmt: skip
    env = {"PUSH_PUBLISH_URL": push_url(run_dir)} | env  # the environment's own wins (an nginx elsewhere)
    site = Site([gunicorn(env, path, workers, log) for path in sockets], sockets, env, workers, log, run_dir)
    probe_host = "127.0.0.1" if host in WILDCARDS else host.strip("[]")
    for _ in range(300):  # nginx once every server answers, so that its first requests find them
        if not site.running():
            break
        if site.nginx is None and all(answers(UnixHTTPConnection(path, timeout=5)) for path in sockets):
            site.start_nginx()
        if site.nginx is not None and answers(http.client.HTTPConnection(probe_host, port, timeout=5)):
            site.supervise()
            return site
        time.sleep(0.1)
    site.stop()
    raise RuntimeError("the site did not start: see gunicorn's and nginx's messages above")


def write_masked(lines: IO[bytes], log: TextIO | None) -> None:
    """Write each of ``lines`` (nginx's error log, until nginx stops) to ``log`` or standard error, masked."""
    for line in lines:
        out = log or sys.stderr
        out.write(masked(line.decode(errors="replace")))
        out.flush()


def gunicorn(env: dict[str, str], path: Path, workers: int, log: TextIO | None = None) -> subprocess.Popen[bytes]:
    """One app server: gunicorn's sync workers on the unix socket ``path``, its messages to ``log`` (``None``:
    standard error)."""
    return subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--bind", f"unix:{path}", "--workers", str(workers),
         "--error-logfile", "-", "--log-level", env.get("LOG_LEVEL", "info").lower(), "--no-control-socket",
         "okanagan_site.wsgi"],
        cwd=ROOT,
        env=env,
        stderr=log,
    )  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=default_workers(), help="gunicorn's workers per server")
    parser.add_argument("--servers", type=int, default=1, help="app servers (gunicorn instances) behind nginx")
    options = parser.parse_args()
    if options.servers < 1 or options.workers < 1:
        parser.error("--servers and --workers must be 1 or more")
    if not Path(NGINX).exists():
        print(f"serve: nginx not found at {NGINX} (apt-get install -y nginx-light)", file=sys.stderr)
        return 1
    env = serve_env(dict(os.environ), options.host)
    print("Preparing: migrate, createcachetable, collectstatic")
    prepare(env)
    # Ctrl-C reaches gunicorn and nginx too (one process group); TERM from a supervisor only this one.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    site = start(env, options.host, options.port, options.workers, servers=options.servers)
    servers = f"{options.servers} servers of " if options.servers > 1 else ""
    cache = "Redis" if env.get("REDIS_URL") else "the database cache (set REDIS_URL for Redis)"
    print(f"Serving on http://{options.host}:{options.port}/ with {servers}{options.workers} workers, {cache}")
    if not site.env["PUSH_PUBLISH_URL"]:
        print("No push: nginx's nchan module is missing (apt-get install -y libnginx-mod-nchan); the pages poll")
    print("Ctrl-C stops")
    try:
        site.stopping.wait()  # until Ctrl-C: the app servers and nginx are started again if they exit
    except KeyboardInterrupt:
        pass
    finally:
        site.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
