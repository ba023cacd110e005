"""Who is asking: the client address that every rate limit counts by.

Both django-axes (``AXES_CLIENT_IP_CALLABLE``) and django-ratelimit (``RATELIMIT_IP_META_KEY``) ask
:func:`client_address`, so a login and a table-code guess from one phone land in buckets of the same name.

``REMOTE_ADDR`` is the address unless ``settings.TRUSTED_PROXY_COUNT`` is N > 0: then N proxies of ours
stand in front of the site, each appending the address it was reached from to ``X-Forwarded-For``, and
the client is the N-th address from the right (anything further left was written by the client and
proves nothing). A header that is shorter than that, or whose address there is not an address, falls
back to ``REMOTE_ADDR``.

An IPv6 address is reduced to its network of ``settings.RATELIMIT_IPV6_MASK`` bits (64): one home line
or phone gets a whole /64 and can change addresses inside it at will, so a limit per address would be
no limit.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

UNKNOWN = "0.0.0.0"
"""The bucket of requests whose address is unknown (a Unix socket without a proxy header)."""


def client_address(request: HttpRequest) -> str:
    """The address to count this request's attempts by: an IPv4 address, or an IPv6 network's first address."""
    address = _parse(_forwarded_for(request)) or _parse(request.META.get("REMOTE_ADDR", ""))
    if address is None:
        return UNKNOWN
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:192.0.2.1 is 192.0.2.1 reached over a dual stack
            return str(address.ipv4_mapped)
        network = ipaddress.IPv6Network((int(address), settings.RATELIMIT_IPV6_MASK), strict=False)
        return str(network.network_address)
    return str(address)


def _forwarded_for(request: HttpRequest) -> str:
    """The entry of ``X-Forwarded-For`` written by our outermost trusted proxy, or "" if none is trusted."""
    count: int = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return ""
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    return hops[-count] if len(hops) >= count else ""


def _parse(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an address, or None if it is not one."""
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None
