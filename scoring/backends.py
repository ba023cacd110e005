"""Logging in: usernames are matched without regard to case ("ANN" logs in as "ann")."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest


class CaseInsensitiveModelBackend(ModelBackend):
    """Django's backend, finding the account by its username in any case.

    Sign-up keeps usernames unique without regard to case (a unique index on ``Lower(username)``), so
    at most one account matches.
    """

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> User | None:
        if username is None or password is None:
            return None
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            User().set_password(password)  # as Django does: hash anyway, so timing does not tell who exists
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None


def lowercase_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The username django-axes counts failures by: lowercased, so "Ann" and "ANN" share one count."""
    username = (credentials or {}).get("username", request.POST.get("username"))
    return username.lower() if isinstance(username, str) else None
