"""``make serve``: the site as in production, gunicorn behind nginx, in the foreground (Ctrl-C stops both).

nginx (``deploy/nginx.conf.template``) takes the clients, slow ones included, and hands gunicorn's sync
workers only whole requests, on a unix socket; it serves the static files and refuses bodies over the
site's limits. Its pid, logs and temporary files are in the run folder (``run/``, git-ignored), so no
root is needed. Plain HTTP: in production TLS is terminated before nginx.

    .venv/bin/python deploy/serve.py [--host 127.0.0.1] [--port 8000] [--workers N]
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

from bench.production import manage, prepare  # noqa: E402
from okanagan_site.hosts import own_addresses  # noqa: E402

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


def serve_env(base: dict[str, str], host: str) -> dict[str, str]:
    """Production settings for serving on ``host`` over plain HTTP behind nginx; what ``base`` sets wins."""
    hosts = own_addresses() if host in WILDCARDS else [host, "127.0.0.1"]
    defaults = {
        "SECRET_KEY": secret_key() if not base.get("SECRET_KEY") else base["SECRET_KEY"],
        "ALLOWED_HOSTS": ",".join(dict.fromkeys([*hosts, "localhost"])),
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "TRUSTED_PROXY_COUNT": "1",  # nginx sets X-Forwarded-For to the client's address
    }
    env = defaults | {key: value for key, value in base.items() if value}
    env.pop("DEBUG", None)
    return env


def default_workers() -> int:
    """gunicorn's sync workers: ``WORKERS``, or 2 × cores + 1."""
    return int(os.environ.get("WORKERS") or 2 * (os.cpu_count() or 1) + 1)


@dataclass
class Site:
    """gunicorn and nginx, running."""

    gunicorn: subprocess.Popen[bytes]
    nginx: subprocess.Popen[bytes]

    def running(self) -> bool:
        return self.gunicorn.poll() is None and self.nginx.poll() is None

    def stop(self) -> None:
        """Stop nginx (at once), then gunicorn (its workers finish their request)."""
        for process in (self.nginx, self.gunicorn):
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def start(env: dict[str, str], host: str, port: int, workers: int, run_dir: Path = RUN_DIR) -> Site:
    """Start gunicorn on a unix socket in ``run_dir`` and nginx on ``host:port``; return once it answers."""
    run_dir.mkdir(parents=True, exist_ok=True)
    socket = run_dir / "gunicorn.sock"
    listen = f"[{host.strip('[]')}]:{port}" if ":" in host else f"{host}:{port}"
    manage(env, "nginx_conf", "--listen", listen, "--socket", str(socket), "--run-dir", str(run_dir))
    gunicorn = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--bind", f"unix:{socket}", "--workers", str(workers),
         "--error-logfile", "-", "--log-level", env.get("LOG_LEVEL", "info").lower(), "--no-control-socket",
         "okanagan_site.wsgi"],
        cwd=ROOT,
        env=env,
    )  # fmt: skip
    for _ in range(300):  # nginx after gunicorn's socket, so that its first requests find it
        if socket.exists() or gunicorn.poll() is not None:
            break
        time.sleep(0.1)
    nginx = subprocess.Popen([NGINX, "-p", str(run_dir), "-c", str(run_dir / "nginx.conf"), "-e", "stderr"], cwd=ROOT)
    site = Site(gunicorn, nginx)
    probe_host = "127.0.0.1" if host in WILDCARDS else host.strip("[]")
    for _ in range(300):
        if not site.running():
            break
        try:
            connection = http.client.HTTPConnection(probe_host, port, timeout=5)
            connection.request("GET", "/health/live/")
            status = connection.getresponse().status
            connection.close()
            if status == 200:
                return site
        except OSError:
            pass
        time.sleep(0.1)
    site.stop()
    raise RuntimeError("the site did not start: see gunicorn's and nginx's messages above")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=default_workers())
    options = parser.parse_args()
    if not Path(NGINX).exists():
        print(f"serve: nginx not found at {NGINX} (apt-get install -y nginx-light)", file=sys.stderr)
        return 1
    env = serve_env(dict(os.environ), options.host)
    print("Preparing: migrate, createcachetable, collectstatic")
    prepare(env)
    # Ctrl-C reaches gunicorn and nginx too (one process group); TERM from a supervisor only this one.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    site = start(env, options.host, options.port, options.workers)
    print(f"Serving on http://{options.host}:{options.port}/ with {options.workers} workers (Ctrl-C stops)")
    try:
        while site.running():
            time.sleep(0.5)
        print("serve: gunicorn or nginx stopped; stopping the other", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        site.stop()


if __name__ == "__main__":
    sys.exit(main())
