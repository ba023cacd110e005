"""A group, its players and invites, its statistics, its files (CSV, backup), a game's record in and out."""

from __future__ import annotations

from django.urls import path

from scoring.history.views import groups, old_plays, stats

urlpatterns = [
    path("groups/new/", groups.group_create, name="group_create"),
    path("groups/restore/", groups.group_restore, name="group_restore"),
    path("groups/<id:group_id>/backup.json", groups.group_backup, name="group_backup"),
    path("groups/<id:group_id>/stats/", stats.group_stats_page, name="group_stats"),
    path("groups/<id:group_id>/statistics.json", stats.group_stats_json, name="group_stats_json"),
    path("groups/<id:group_id>/plays.csv", groups.group_plays_csv, name="group_plays_csv"),
    path("groups/<id:group_id>/", groups.group_detail, name="group"),
    path("groups/<id:group_id>/invite/", groups.invite_regenerate, name="invite_regenerate"),
    path("groups/<id:group_id>/members/<id:user_id>/remove/", groups.member_remove, name="member_remove"),
    path("groups/<id:group_id>/players/<id:profile_id>/", groups.profile_edit, name="profile"),
    path("groups/<id:group_id>/games/import/", groups.game_import, name="game_import"),
    path("groups/<id:group_id>/plays/import/", old_plays.plays_import, name="plays_import"),
    path("invite/<text:token>/", groups.invite, name="invite"),
    path("games/<id:game_id>/record.json", groups.game_export, name="game_export"),
]
