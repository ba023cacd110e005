"""Files made while they are sent (a group's CSV of plays, its backup, its BG Stats file): memory and the time to
the first byte do not grow with the group.

Everything that may fail is done before the first byte (the view's checks, reading the group and its players):
once the answer has started, an error can no longer become an error page, only a cut file. So the generators
read stored data the site wrote and checked (and ``manage.py check_data`` checks again) and format it,
and nothing in them raises on such data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping

from django.http import StreamingHttpResponse
from django.utils.translation import get_language, override

PART_SIZE = 32 * 1024
"""About how many characters each part of a streamed answer holds: one write to the front server, not one a
row."""


def download(pieces: Iterable[str], content_type: str, filename: str) -> StreamingHttpResponse:
    """An attachment named ``filename``, sent as ``pieces`` of text come (UTF-8, in parts of about
    :data:`PART_SIZE` characters), in the reader's language: the pieces are made after the view has returned,
    each in the language of the request."""
    response = StreamingHttpResponse(_parts(iter(pieces), get_language()), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _parts(pieces: Iterator[str], language: str | None) -> Iterator[bytes]:
    """``pieces`` joined into parts of at least :data:`PART_SIZE` characters (the last one shorter), as UTF-8."""
    part: list[str] = []
    size = 0
    while True:
        with override(language):  # each piece, whichever thread makes it
            piece = next(pieces, None)
        if piece is None:
            break
        part.append(piece)
        size += len(piece)
        if size >= PART_SIZE:
            yield "".join(part).encode()
            part, size = [], 0
    if part:
        yield "".join(part).encode()


def json_object(
    head: Mapping[str, object],
    key: str,
    items: Iterable[object],
    tail: Callable[[], Mapping[str, object]] = dict,
) -> Iterator[str]:
    """A JSON object in pieces: ``head``'s members, then ``key`` with the array of ``items``, one a line as they
    come, then the members ``tail()`` gives once every item is written (what the items add up to).

    >>> "".join(json_object({"format": "x"}, "games", iter([{"n": 1}, {"n": 2}]), lambda: {"count": 2}))
    '{"format": "x", "games": [\\n{"n": 1},\\n{"n": 2}\\n], "count": 2}\\n'
    >>> "".join(json_object({}, "games", []))
    '{"games": [\\n]}\\n'
    """
    opening = json.dumps(head, ensure_ascii=False)[:-1]
    yield f"{opening}{', ' if head else ''}{json.dumps(key)}: ["
    for number, item in enumerate(items):
        yield f"{',' if number else ''}\n{json.dumps(item, ensure_ascii=False)}"
    members = json.dumps(tail(), ensure_ascii=False)[1:-1]
    yield f"\n]{', ' if members else ''}{members}}}\n"
