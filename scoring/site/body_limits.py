"""How large a request body the site accepts, per URL: the one place that says it.

The body-limit middleware (``scoring.site.middleware``), Django's upload settings and the nginx configuration
(``manage.py nginx_conf``) all read these figures. The upload forms check their files against
smaller sizes of their own (``scoring.forms``), so that a file just over its form's limit is still
answered by the form, with its error in place.
"""

from __future__ import annotations

KIB = 1024
MIB = 1024 * KIB

DEFAULT_BODY_LIMIT = 128 * KIB
"""Any form of the site: a few fields, at most a draft of one event."""

BODY_LIMITS = {
    "game_import": 2 * MIB,  # a record file of at most 1 MB, in a multipart body
    "group_restore": 6 * MIB,  # a group's backup of at most 5 MB
    "plays_import": 6 * MIB,  # a BG Stats play file of at most 5 MB
}
"""Larger limits for the URLs that take a file, by URL name."""

LARGEST_BODY_LIMIT = max(DEFAULT_BODY_LIMIT, *BODY_LIMITS.values())


def body_limit(url_name: str | None) -> int:
    """The most bytes a request body may have on the URL named ``url_name``.

    >>> body_limit("group_restore") == 6 * MIB and body_limit("home") == 128 * KIB
    True
    """
    return BODY_LIMITS.get(url_name or "", DEFAULT_BODY_LIMIT)
