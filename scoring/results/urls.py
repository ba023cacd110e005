"""A finished game's result shared: BG Stats files, the public page, the result image."""

from __future__ import annotations

from django.urls import path

from scoring.results.views import bgstats, pages

urlpatterns = [
    path("groups/<id:group_id>/plays.bgsplay", bgstats.group_bgsplay, name="group_bgsplay"),
    path("games/<id:game_id>/play.bgsplay", bgstats.game_bgsplay, name="game_bgsplay"),
    path("games/<id:game_id>/public/", pages.public_result, name="public_result"),
    path("watch/<text:token>/result.png", pages.result_image, name="result_image"),
]
