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

from django.http import HttpResponseBase, StreamingHttpResponse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, override

PART_SIZE = 32 * 1024
"""About how many characters each part of a streamed answer holds: one write to the front server, not one a
row."""


def download(pieces: Iterable[str], content_type: str, filename: str) -> StreamingHttpResponse:
    """An attachment named ``filename``, sent as ``pieces`` of text come (UTF-8, in parts of about
    :data:`PART_SIZE` characters), in the reader's language: the pieces are made after the view has returned,
    each in the language of the request."""
    response = StreamingHttpResponse(_parts(iter(pieces), get_language()), content_type=content_type)
    return attachment(response, filename)


def attachment[R: HttpResponseBase](response: R, filename: str) -> R:
    """``response`` as a private file named ``filename``: a group's data, kept by no shared cache (a proxy, a
    CDN) nor written to the reader's disk cache."""
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    patch_cache_control(response, private=True, no_store=True)
    return response


def _parts(pieces: Iterator[str], language: str | None) -> Iterator[bytes]:
    """``pieces`` joined into parts of at least :data:`PART_SIZE` characters (the last one shorter), as UTF-8."""
    while True:
        with override(language):  # a part is made in one go, in one thread: in the request's language
            part = _part(pieces)
        if not part:
            return
        yield part.encode()


def _part(pieces: Iterator[str]) -> str:
    """The next ``pieces``, joined, up to at least :data:`PART_SIZE` characters; empty when there are none."""
    part: list[str] = []
    size = 0
    for piece in pieces:
        part.append(piece)
        size += len(piece)
        if size >= PART_SIZE:
            break
    return "".join(part)


def json_text(value: object) -> str:
    """``value`` as JSON text, its non-ASCII letters as they are."""
    return json.dumps(value, ensure_ascii=False)


def json_object(
    head: Mapping[str, object],
    key: str,
    items: Iterable[str],
    tail: Callable[[], Mapping[str, object]] = dict,
) -> Iterator[str]:
    """A JSON object in pieces: ``head``'s members, then ``key`` with the array of ``items`` (each one's JSON
    text), one a line as they come, then the members ``tail()`` gives once every item is written (what the items
    add up to).

    >>> "".join(json_object({"format": "x"}, "games", iter(['{"n": 1}', '{"n": 2}']), lambda: {"count": 2}))
    '{"format": "x", "games": [\\n{"n": 1},\\n{"n": 2}\\n], "count": 2}\\n'
    >>> "".join(json_object({}, "games", []))
    '{"games": [\\n]}\\n'
    """
    opening = json_text(head)[:-1]
    yield f"{opening}{', ' if head else ''}{json_text(key)}: ["
    for number, item in enumerate(items):
        yield f"{',' if number else ''}\n{item}"
    members = json_text(tail())[1:-1]
    yield f"\n]{', ' if members else ''}{members}}}\n"


def with_texts(value: Mapping[str, object], key: str, texts: Iterable[str]) -> str:
    """``value`` as JSON text, with as its last member ``key``: the array of ``texts``, each an item's JSON text
    written as it is (JSON the database holds, not parsed to be written again).

    >>> with_texts({"format": "x", "events": None}, "events", ['{"type": "a"}', "[1, 2]"])
    '{"format": "x", "events": [{"type": "a"}, [1, 2]]}'
    """
    others = json_text({name: item for name, item in value.items() if name != key} | {key: []})
    return f"{others[:-2]}{', '.join(texts)}]}}"
