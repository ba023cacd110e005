"""The rules page and its search, the calculators."""

from __future__ import annotations

from django.urls import path
from django.views.generic import RedirectView

from scoring.help.views import calculators, rules

urlpatterns = [
    path("rules/", rules.rule_list, name="rules"),
    path("calculators/", calculators.calculator_list, name="calculators"),
    path("calculators/<slug:slug>/", calculators.calculator, name="calculator"),
    # The calculators' first address, kept for the links already shared.
    path("helper/", RedirectView.as_view(pattern_name="calculators", permanent=True, query_string=True)),
    path(
        "helper/<slug:slug>/",
        RedirectView.as_view(pattern_name="calculator", permanent=True, query_string=True),
    ),
]
