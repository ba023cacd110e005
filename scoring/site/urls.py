"""The site's own pages: home, health, accounts, the theme, offline, a request too big."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import include, path

from scoring.site.rate_limits import limit_logins
from scoring.site.views import offline, pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("health/", pages.health, name="health"),
    path("health/live/", pages.health_live, name="health_live"),
    path("too-big/", pages.too_big, name="too_big"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("offline/", offline.offline_page, name="offline"),
    path("theme/", pages.set_theme, name="theme"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/signup/", pages.signup, name="signup"),
    path("accounts/login/", limit_logins(auth_views.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]
