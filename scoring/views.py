"""The scoring site's views: thin functions that ask ``rules`` and render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from rules import RULES, Source


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The home page: what the app does, and how many rules it knows."""
    printed = sum(rule.source in {Source.RULEBOOK, Source.GAME_HELP} for rule in RULES)
    return render(request, "scoring/home.html", {"rule_count": len(RULES), "printed_count": printed})
