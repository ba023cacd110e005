"""The health checks: /health/ asks the database and the cache (tests/scoring/site/test_without_redis.py: a Redis that
is out); /health/live/ only the process."""

from __future__ import annotations

from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError, connection
from django.test import Client
from pytest_django import DjangoAssertNumQueries

pytestmark = pytest.mark.django_db


def test_it_says_ok_when_the_database_and_the_cache_answer(client: Client) -> None:
    response = client.get("/health/")
    assert (response.status_code, response.content) == (200, b"ok")


def test_it_says_the_database_is_down(client: Client) -> None:
    # Without Redis the cache is kept in the database: it goes down with it.
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("connection refused")):
        response = client.get("/health/")
    in_database = settings.CACHES["default"]["BACKEND"].endswith("DatabaseCache")
    expected = b"down: database, cache" if in_database else b"down: database"
    assert (response.status_code, response.content) == (503, expected)


def test_it_says_degraded_when_only_the_cache_is_down(client: Client) -> None:
    # Every page is then answered from the database (scoring/cache.py): a load balancer must keep the server.
    with mock.patch.object(cache, "get", return_value=None):
        response = client.get("/health/")
    assert (response.status_code, response.content) == (200, b"degraded: cache")


def test_the_liveness_check_runs_no_query(client: Client, django_assert_num_queries: DjangoAssertNumQueries) -> None:
    with django_assert_num_queries(0):
        response = client.get("/health/live/")
    assert (response.status_code, response.content) == (200, b"ok")
