"""The site's URLs."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from scoring.views import entry, games, groups, pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("rules/", pages.rule_list, name="rules"),
    path("theme/", pages.set_theme, name="theme"),
    path("accounts/signup/", pages.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("groups/new/", groups.group_create, name="group_create"),
    path("groups/<int:group_id>/", groups.group_detail, name="group"),
    path("groups/<int:group_id>/invite/", groups.invite_regenerate, name="invite_regenerate"),
    path("groups/<int:group_id>/members/<int:user_id>/remove/", groups.member_remove, name="member_remove"),
    path("groups/<int:group_id>/players/<int:profile_id>/", groups.profile_edit, name="profile"),
    path("groups/<int:group_id>/games/new/", games.game_new, name="game_new"),
    path("groups/<int:group_id>/games/import/", games.game_import, name="game_import"),
    path("invite/<str:token>/", groups.invite, name="invite"),
    path("games/<int:game_id>/", games.game_detail, name="game"),
    path("games/<int:game_id>/record.json", games.game_export, name="game_export"),
    path("games/<int:game_id>/qr.svg", games.table_qr, name="table_qr"),
    path("games/<int:game_id>/code/", games.table_code_regenerate, name="table_code"),
    path("games/<int:game_id>/finish/", games.game_finish, name="game_finish"),
    path("games/<int:game_id>/reopen/", games.game_reopen, name="game_reopen"),
    path("games/<int:game_id>/events/new/<str:kind>/", entry.event_new, name="event_new"),
    path("games/<int:game_id>/events/<int:index>/", entry.event_edit, name="event_edit"),
    path("games/<int:game_id>/events/<int:index>/delete/", games.event_delete, name="event_delete"),
    path("join/", games.join, name="join"),
    path("join/<str:code>/", games.join, name="join_code"),
    path("watch/<str:token>/", games.watch, name="watch"),
    path("watch/<str:token>/scoreboard/", games.scoreboard, name="scoreboard"),
]
