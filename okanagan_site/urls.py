"""The site's URLs."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import include, path, register_converter
from django.views.generic import RedirectView

from scoring.rate_limits import limit_logins
from scoring.views import (
    bgstats,
    calculators,
    drafts,
    entry,
    games,
    groups,
    live,
    offline,
    pages,
    results,
    seats,
    sheets,
    stats,
)


class IdConverter:
    """A database id: at most 18 digits, so that no URL asks the database for a number it cannot hold."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")

urlpatterns = [
    path("", pages.home, name="home"),
    path("health/", pages.health, name="health"),
    path("health/live/", pages.health_live, name="health_live"),
    path("too-big/", pages.too_big, name="too_big"),
    path("rules/", pages.rule_list, name="rules"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("offline/", offline.offline_page, name="offline"),
    path("theme/", pages.set_theme, name="theme"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("calculators/", calculators.calculator_list, name="calculators"),
    path("calculators/<slug:slug>/", calculators.calculator, name="calculator"),
    # The calculators' first address, kept for the links already shared.
    path("helper/", RedirectView.as_view(pattern_name="calculators", permanent=True, query_string=True)),
    path(
        "helper/<slug:slug>/",
        RedirectView.as_view(pattern_name="calculator", permanent=True, query_string=True),
    ),
    path("accounts/signup/", pages.signup, name="signup"),
    path("accounts/login/", limit_logins(auth_views.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("groups/new/", groups.group_create, name="group_create"),
    path("groups/restore/", groups.group_restore, name="group_restore"),
    path("groups/<id:group_id>/backup.json", groups.group_backup, name="group_backup"),
    path("groups/<id:group_id>/stats/", stats.group_stats_page, name="group_stats"),
    path("groups/<id:group_id>/plays.csv", groups.group_plays_csv, name="group_plays_csv"),
    path("groups/<id:group_id>/plays.bgsplay", bgstats.group_bgsplay, name="group_bgsplay"),
    path("groups/<id:group_id>/", groups.group_detail, name="group"),
    path("groups/<id:group_id>/invite/", groups.invite_regenerate, name="invite_regenerate"),
    path("groups/<id:group_id>/members/<id:user_id>/remove/", groups.member_remove, name="member_remove"),
    path("groups/<id:group_id>/players/<id:profile_id>/", groups.profile_edit, name="profile"),
    path("groups/<id:group_id>/games/new/", games.game_new, name="game_new"),
    path("groups/<id:group_id>/games/import/", groups.game_import, name="game_import"),
    path("groups/<id:group_id>/sheets/new/<str:kind>/", sheets.sheet_new, name="sheet_new"),
    path("invite/<str:token>/", groups.invite, name="invite"),
    path("games/<id:game_id>/", games.game_detail, name="game"),
    path("games/<id:game_id>/delete/", games.game_delete, name="game_delete"),
    path("games/<id:game_id>/sheet/<id:position>/", sheets.sheet_line, name="sheet_line"),
    path("games/<id:game_id>/sheet/score/", sheets.sheet_score, name="sheet_score"),
    path("games/<id:game_id>/sheet/correct/", sheets.sheet_correct, name="sheet_correct"),
    path("games/<id:game_id>/record.json", groups.game_export, name="game_export"),
    path("games/<id:game_id>/play.bgsplay", bgstats.game_bgsplay, name="game_bgsplay"),
    path("games/<id:game_id>/seats/", seats.seats, name="seats"),
    path("games/<id:game_id>/qr.svg", seats.table_qr, name="table_qr"),
    path("games/<id:game_id>/code/", seats.table_code_regenerate, name="table_code"),
    path("games/<id:game_id>/finish/", games.game_finish, name="game_finish"),
    path("games/<id:game_id>/reopen/", games.game_reopen, name="game_reopen"),
    path("games/<id:game_id>/public/", results.public_result, name="public_result"),
    path("games/<id:game_id>/events/new/<str:kind>/", entry.event_new, name="event_new"),
    path("games/<id:game_id>/events/<id:index>/", entry.event_edit, name="event_edit"),
    path("games/<id:game_id>/events/<id:index>/delete/", games.event_delete, name="event_delete"),
    path("games/<id:game_id>/cards/keep/", games.cards_keep, name="cards_keep"),
    path("games/<id:game_id>/round-end/", games.round_end, name="round_end"),
    path("games/<id:game_id>/drafts/<id:draft_id>/take/", drafts.draft_take, name="draft_take"),
    path("games/<id:game_id>/drafts/<id:draft_id>/cancel/", drafts.draft_cancel, name="draft_cancel"),
    path("join/", seats.join, name="join"),
    path("join/<str:code>/", seats.join, name="join_code"),
    path("watch/<str:token>/", live.watch, name="watch"),
    path("watch/<str:token>/live/", live.live, name="live"),
    path("watch/<str:token>/result.png", results.result_image, name="result_image"),
]
