"""The live table: a game, its entry, drafts and seats, joining by code, watching live."""

from __future__ import annotations

from django.urls import path

from scoring.table.views import drafts, entry, games, live, seats

urlpatterns = [
    path("groups/<id:group_id>/games/new/", games.game_new, name="game_new"),
    path("games/<id:game_id>/", games.game_detail, name="game"),
    path("games/<id:game_id>/delete/", games.game_delete, name="game_delete"),
    path("games/<id:game_id>/seats/", seats.seats, name="seats"),
    path("games/<id:game_id>/qr.svg", seats.table_qr, name="table_qr"),
    path("games/<id:game_id>/code/", seats.table_code_regenerate, name="table_code"),
    path("games/<id:game_id>/finish/", games.game_finish, name="game_finish"),
    path("games/<id:game_id>/reopen/", games.game_reopen, name="game_reopen"),
    path("games/<id:game_id>/events/new/<text:kind>/", entry.event_new, name="event_new"),
    path("games/<id:game_id>/events/<id:index>/", entry.event_edit, name="event_edit"),
    path("games/<id:game_id>/events/<id:index>/delete/", games.event_delete, name="event_delete"),
    path("games/<id:game_id>/cards/keep/", games.cards_keep, name="cards_keep"),
    path("games/<id:game_id>/round-end/", games.round_end, name="round_end"),
    path("games/<id:game_id>/drafts/<id:draft_id>/take/", drafts.draft_take, name="draft_take"),
    path("games/<id:game_id>/drafts/<id:draft_id>/cancel/", drafts.draft_cancel, name="draft_cancel"),
    path("games/<id:game_id>/entry/", drafts.entry_state, name="entry_state"),
    path("join/", seats.join, name="join"),
    path("join/<text:code>/", seats.join, name="join_code"),
    path("watch/<text:token>/", live.watch, name="watch"),
    path("watch/<text:token>/live/", live.live, name="live"),
    path("watch/<text:token>/stream/", live.stream, name="stream"),
]
