"""This machine's own IP addresses, which the development server allows as host names."""

from __future__ import annotations

import contextlib
import socket

# A documentation address (RFC 5737): connecting a UDP socket to it sends nothing, but picks the
# address of the interface that leads out, the one a phone on the same network reaches.
_OUTSIDE = ("192.0.2.1", 9)


def own_addresses() -> list[str]:
    """Loopback, and the address of the interface that leads out if there is one, as they appear in a
    Host header. (No lookup of the machine's name: a slow resolver would delay every start.)"""
    found = ["127.0.0.1", "[::1]"]
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_OUTSIDE)
        address = str(probe.getsockname()[0])
        if address not in found:
            found.append(address)
    return found
