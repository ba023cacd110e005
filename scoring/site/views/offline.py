"""The site on a lost connection: its service worker (templates/sw.js) and the page it shows offline."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from scoring.http import HtmxHttpRequest

COPIES = r"^/(games/\d+|watch/[^/]+)/$"
"""The paths of the pages kept for reading offline: a game's page and its spectator page."""


@require_safe
@cache_control(no_cache=True)  # a new version is found on the next visit
def service_worker(request: HtmxHttpRequest) -> HttpResponse:
    """The service worker, at the root of the site so that its scope is every page. Its cache is named after
    what it serves: a new stylesheet or script (a new name in production) starts a new cache."""
    context = {
        "offline_url": reverse("offline"),
        "static_prefix": settings.STATIC_URL,  # static("") fails on hashed names: no file is named ""
        "logout_url": reverse("logout"),
        "copies": COPIES,
    }
    files = "".join(static(name) for name in ("css/site.css", "js/table.js", "js/entry_queue.js"))
    source = render_to_string("sw.js", {**context, "version": ""})
    context["version"] = hashlib.sha256((source + files).encode()).hexdigest()[:12]
    return HttpResponse(render_to_string("sw.js", context), content_type="text/javascript; charset=utf-8")


@require_safe
def offline_page(request: HtmxHttpRequest) -> HttpResponse:
    """What to do when a page cannot be loaded; the service worker keeps it, in the reader's language."""
    return render(request, "site/offline.html")
