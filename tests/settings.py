"""Settings for the test suite: the site's own, with a throwaway key (DEBUG stays off)."""

from __future__ import annotations

import os
import uuid

os.environ.setdefault("SECRET_KEY", "test-only-not-secret")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
# The test server speaks plain HTTP; production keeps both on (see test_deploy_settings).
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")

from okanagan_site.settings import *  # noqa: E402, F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, as in production: an in-memory database shares one cache between threads, whose table
    # locks fail at once where a file's writers wait their turn (the concurrency tests need this). One file per
    # run, so that two runs in one checkout do not write into each other's database.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}  # noqa: F405
WHITENOISE_AUTOREFRESH = True
if REDIS_URL:  # noqa: F405
    # Several suites may share one Redis (SQLite and PostgreSQL runs, other worktrees): each run counts
    # under a prefix of its own, and tests/conftest.py deletes only this prefix's keys after each test.
    CACHES["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex[:12]}"  # noqa: F405
