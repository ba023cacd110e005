"""Settings, read from the environment.

DEBUG is off unless ``DEBUG=1``; then ``SECRET_KEY`` is required. ``DATABASE_URL`` is optional
(SQLite in the project folder by default). ``ALLOWED_HOSTS`` and ``CSRF_TRUSTED_ORIGINS`` are
comma-separated lists. ``REDIS_URL`` (optional) is the cache every app server shares: the rate limits'
counters, the games' live versions and the sessions; ``TRUSTED_PROXY_COUNT`` says how many proxies of
ours stand in front of the site (0 by default: none).
"""

from __future__ import annotations

import logging
import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from okanagan_site.hosts import own_addresses
from scoring.site.body_limits import DEFAULT_BODY_LIMIT, LARGEST_BODY_LIMIT

BASE_DIR = Path(__file__).resolve().parent.parent
django_stubs_ext.monkeypatch()  # lets forms.ModelForm[Model] and friends be written as the types they are


def env_bool(name: str, default: bool = False) -> bool:
    """A yes/no setting: 1/true/yes or 0/false/no; anything else is a configuration error."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be 1 or 0, not {value!r}")


def env_list(name: str, default: str = "") -> list[str]:
    """A comma-separated list setting."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    """A whole number setting of 0 or more; anything else is a configuration error."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number of 0 or more, not {value!r}")
    return int(value)


def dev_secret_key() -> str:
    """A key kept in a git-ignored file, so that sessions survive restarts of the development server."""
    path = BASE_DIR / ".dev-secret-key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


DEBUG = env_bool("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off (set DEBUG=1 for development)")
    SECRET_KEY = dev_secret_key()

# In development (`make run`, `HOST=0.0.0.0 make run` for the phones at the table) this machine's own
# IP addresses are allowed as well as localhost. Not '*': the host check is what stops a page on another
# site from reaching the development server through a name it points at 127.0.0.1 (DNS rebinding), and
# an IP address, unlike a name, cannot be pointed elsewhere.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ",".join(["localhost", *own_addresses()]) if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "django_ratelimit",
    "scoring",
    "scoring.table",
    "scoring.sheets",
    "scoring.results",
    "scoring.history",
    "scoring.help",
    "scoring.site",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HTML compressed for the phones (the game page: 63 KB, about 5 KB compressed), with random bytes in the
    # gzip header against BREACH. Below WhiteNoise, whose static files are compressed ahead (and whose
    # answers never come down here); above everything that writes the body, so that it compresses last.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "scoring.site.middleware.BodyLimitMiddleware",  # before CSRF, which reads a POST's body
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scoring.table.middleware.GoneGameMiddleware",  # a deleted game's phones are told so, not answered 404 or 500
    # Last, as django-axes asks: it turns a refused login into the "too many attempts" page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "okanagan_site.urls"
WSGI_APPLICATION = "okanagan_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scoring.site.context.theme",
                "scoring.site.context.identifiers",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",  # unset or empty: SQLite
        conn_max_age=600,
        conn_health_checks=env_bool("DATABASE_HEALTH_CHECKS"),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several phones save at once: writers queue on the database lock (BEGIN IMMEDIATE, up to 20 s)
    # instead of failing, and WAL lets readers go on meanwhile.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Bodies are bounded per URL before they are read (scoring.site.body_limits, BodyLimitMiddleware, nginx). Every
# upload the limits let through is held in memory, never written to a temporary file.
DATA_UPLOAD_MAX_MEMORY_SIZE = DEFAULT_BODY_LIMIT
FILE_UPLOAD_MAX_MEMORY_SIZE = LARGEST_BODY_LIMIT

# What one account may store (scoring/site/quotas.py): groups it owns, games in them, megabytes of their logs.
QUOTA_GROUPS = env_int("QUOTA_GROUPS", 50)
QUOTA_GAMES = env_int("QUOTA_GAMES", 5000)
QUOTA_STORED_MB = env_int("QUOTA_STORED_MB", 100)

# The rate limits' counters live in the cache, which every worker of every app server must share: Redis
# in production (its SET NX and INCR are atomic). Without REDIS_URL, a fresh clone counts in the
# database (`manage.py createcachetable` makes the table; `make run` does), whose increment is a read
# then a write: good enough for one development server, and `check --deploy` warns about it.
REDIS_URL = os.environ.get("REDIS_URL", "")
# Redis is an accelerator (scoring/cache.py): a Redis down or stalled costs a request at most a quarter or
# half a second, then nothing for a few seconds (a circuit breaker), and every request is answered from the
# database meanwhile.
REDIS_OPTIONS = {
    "pool_class": "scoring.cache.BreakerConnectionPool",
    "socket_connect_timeout": 0.25,
    "socket_timeout": 0.5,
    "serializer": "okanagan_site.cache_json.JSONSerializer",  # never pickle: no code in the data
}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "okanagan"),
            "OPTIONS": REDIS_OPTIONS,
        }
    }
    # django-ratelimit lists only django-redis among the Redis backends it knows; Django's own RedisCache
    # has the atomic add and incr it needs.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
    # Redis also holds each game's live version (scoring/live/backends/cache.py), so that an unchanged poll
    # touches no database, and the sessions, which every app server shares. They are read from Redis and
    # written to it and to the database ("cached_db"), not kept in Redis alone: a Redis restart or flush
    # (it is a cache, run without persistence) then logs nobody out and loses no phone's table or seat.
    # A session changes rarely (a login, a table joined), so the write to both costs little. With Redis
    # down, they are read from the database alone (scoring/site/sessions.py).
    SESSION_ENGINE = "scoring.site.sessions"
    LIVE_BACKEND = "scoring.live.backends.cache.CacheBackend"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "okanagan_cache"}}
    # Not atomic (see above): tolerated without REDIS_URL so that `make run` works on a fresh machine;
    # scoring.W001 says so in `check --deploy`.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
    # Each poll asks the database for its game's version (scoring/live/backends/database.py).
    LIVE_BACKEND = "scoring.live.backends.database.DatabaseBackend"

# Push (scoring/live/push.py): where the app servers publish each committed change of a game, nchan's publisher
# location in nginx (`http://host:port/prefix/` or `http+unix://<quoted socket path>/prefix/`), which holds the
# pages' streams. deploy/serve.py sets it for the app servers it starts; empty (`make run`, the tests), nothing
# is published, no page opens a stream, and the pages poll as before.
PUSH_PUBLISH_URL = os.environ.get("PUSH_PUBLISH_URL", "")

# Who is asking (scoring/site/client.py): REMOTE_ADDR, or with N proxies of ours in front, the N-th address
# from the right of X-Forwarded-For; IPv6 counted per /64.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
RATELIMIT_IP_META_KEY = "scoring.site.client.client_address"
RATELIMIT_IPV6_MASK = 64

# Logins (django-axes): a username from one client may fail 10 times in 5 minutes, then waits 5 minutes
# from its 10th failure. Someone else guessing Ann's password from elsewhere never locks Ann out.
# Refused attempts during the lock are not counted, so they do not push its end further away. Failures
# across usernames are limited per client too (scoring.site.rate_limits: password spraying).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "scoring.backends.CaseInsensitiveModelBackend"]
AXES_HANDLER = "scoring.site.rate_limits.LoginLimits"  # counts in the cache: no database write per attempt
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=5)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "scoring.backends.lowercase_username"
AXES_CLIENT_IP_CALLABLE = "scoring.site.client.client_address"
AXES_LOCKOUT_CALLABLE = "scoring.site.rate_limits.too_many"
AXES_ENABLE_ADMIN = False  # the site has no admin

LANGUAGE_CODE = "en"
# The languages of the source documents.
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("ko", "한국어"),
    ("it", "Italiano"),
    ("zh-hant", "繁體中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

WHITENOISE_AUTOREFRESH = DEBUG
# Whitenoise has its own table of types, without the web app manifest's (it would send application/octet-stream,
# which browsers may refuse as a manifest); Django's static view and nginx (deploy/nginx.conf.template) know it.
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy: everything from this site only, no inline script or style anywhere.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "worker-src": [CSP.SELF],  # the service worker (/sw.js)
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    # Production: HTTPS only. Behind a proxy that terminates TLS, set SECURE_PROXY_SSL_HEADER=1.
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    if env_bool("SECURE_PROXY_SSL_HEADER"):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").strip().upper()
if LOG_LEVEL not in logging.getLevelNamesMapping():
    raise ImproperlyConfigured(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {LOG_LEVEL!r}")
# Everything to standard error, where gunicorn's own log goes: each server error (django.request) with
# its traceback, client errors (4xx) as warnings, the site's own messages, and other libraries' warnings; with
# the table codes and tokens of every path masked (okanagan_site/log_masks.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "filters": {"secret_paths": {"()": "okanagan_site.log_masks.MaskSecretPaths"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "line", "filters": ["secret_paths"]}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {"django": {"level": LOG_LEVEL}, "scoring": {"level": LOG_LEVEL}},  # to the root's handler
}
