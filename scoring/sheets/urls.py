"""A score sheet: started, its lines entered, scored and corrected."""

from __future__ import annotations

from django.urls import path

from scoring.sheets import views

urlpatterns = [
    path("groups/<id:group_id>/sheets/new/<text:kind>/", views.sheet_new, name="sheet_new"),
    path("games/<id:game_id>/sheet/<id:position>/", views.sheet_line, name="sheet_line"),
    path("games/<id:game_id>/sheet/score/", views.sheet_score, name="sheet_score"),
    path("games/<id:game_id>/sheet/correct/", views.sheet_correct, name="sheet_correct"),
]
