"""Pages for everyone: home, sign-up, the light/dark switch; the health checks and the
page for a request that is too big."""

from __future__ import annotations

import logging

from django.contrib.auth import login
from django.core.cache import cache
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.forms import USERNAME_TAKEN, SignupForm
from scoring.http import HtmxHttpRequest
from scoring.site.body_limits import BODY_LIMITS, DEFAULT_BODY_LIMIT
from scoring.site.context import THEME_COOKIE, THEMES, home_context
from scoring.site.rate_limits import over_limit, too_many

logger = logging.getLogger(__name__)


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    """Your groups and a new one, the table-code box, and what the app does."""
    return render(request, "site/home.html", home_context(request))


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    """Create an account and log in; a client may try this a few times an hour."""
    if request.method == "POST" and over_limit(request, "signup"):
        return too_many(request)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:  # another sign-up took the name (in another case) meanwhile
            form.add_error("username", USERNAME_TAKEN)
        else:
            login(request, user, backend="scoring.backends.CaseInsensitiveModelBackend")
            return HttpResponseRedirect(safe_next(request, "home"))
    return render(request, "registration/signup.html", {"form": form, "next": request.GET.get("next", "")})


@require_POST
def set_theme(request: HtmxHttpRequest) -> HttpResponse:
    """Remember light, dark or the system's setting, then go back."""
    theme = request.POST.get("theme", "auto")
    response = HttpResponseRedirect(safe_next(request, "home"))
    if theme in THEMES:
        response.set_cookie(THEME_COOKIE, theme, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def safe_next(request: HtmxHttpRequest, fallback: str) -> str:
    """The ``next`` page asked for, if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse(fallback)


@require_safe
@never_cache
def health(request: HtmxHttpRequest) -> HttpResponse:
    """For monitors: "ok", or 503 naming what is down, after a trivial query and a cache round trip; with the
    database up and the cache down, "degraded: cache" and 200, since every page is then answered from the
    database (scoring/cache.py), and a load balancer must keep the server.

    The answers are for machines and stay in English.
    """
    down = [name for name, works in (("database", _database_answers), ("cache", _cache_answers)) if not works()]
    if down == ["cache"]:
        return HttpResponse("degraded: cache", content_type="text/plain")
    if down:
        return HttpResponse(f"down: {', '.join(down)}", content_type="text/plain", status=503)
    return HttpResponse("ok", content_type="text/plain")


def _database_answers() -> bool:
    """Whether a trivial query runs."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database is down")
        return False
    return True


def _cache_answers() -> bool:
    """Whether the cache gives back a value just stored."""
    try:
        cache.set("health", "ok", 10)
        if cache.get("health") == "ok":
            return True
        logger.error("Health check: the cache did not give back a value just stored")
    except Exception:  # any backend's failure (the database cache's, a cache server's) means it is down
        logger.exception("Health check: the cache is down")
    return False


@require_safe
@never_cache
def health_live(request: HtmxHttpRequest) -> HttpResponse:
    """The process answers: no query, a few bytes (a readiness probe, and the load test's trivial view)."""
    return HttpResponse("ok", content_type="text/plain")


@csrf_exempt  # it changes nothing; nginx sends its own 413s here, and a POST must get the page too
def too_big(request: HttpRequest) -> HttpResponse:
    """413 to any method: what the site accepts, for a body over its URL's limit (``scoring.site.body_limits``)."""
    limits = {"form": DEFAULT_BODY_LIMIT, "record": BODY_LIMITS["game_import"], "backup": BODY_LIMITS["group_restore"]}
    return render(request, "site/too_big.html", limits, status=413)
