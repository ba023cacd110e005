"""Who may see or change what. A stranger gets 404: the site does not even say the thing exists.

- A group's members (its owner among them) see and edit its games.
- A table guest, who joined a game with its table code, follows and enters data for that one game
  while it is in progress and its code is unchanged, and keeps read access to its result once it ends
  (until a new code: a member's, or the game reopened). The codes live in the session. A control left on a
  guest's phone once the game ended (Undo, Edit, an entry) is told so, as a member's is (:func:`game_at_table`).
- A spectator link shows a game read-only.
- A finished game is logged in BG Stats (the card on its page, its ``.bgsplay`` file) by whoever may read its
  page: :func:`may_log_play`. The spectator link, public, shows neither.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate

from django.contrib.auth.views import redirect_to_login
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from scoring.models import Game, Group

TABLES_KEY = "tables"

NEXT_LENGTH = 1000
"""The longest page address a login redirect carries back (``?next=``). Quoted in the redirect, a longer one
(a stranger's 8 kB query string) made a ``Location`` header larger than a proxy's header buffer."""


def login_required[R: HttpRequest, **P](
    view: Callable[Concatenate[R, P], HttpResponse],
) -> Callable[Concatenate[R, P], HttpResponse]:
    """Django's ``login_required``, whose ``?next=`` is bounded: the address asked for, or without its query
    string when that is longer than :data:`NEXT_LENGTH` (a URL's path is short: its patterns bound it)."""

    @wraps(view)
    def wrapped(request: R, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        asked = request.get_full_path()
        return redirect_to_login(asked if len(asked) <= NEXT_LENGTH else request.path)

    return wrapped


def member_group(request: HttpRequest, group_id: int) -> Group:
    """The group, if the user is one of its members."""
    if not request.user.is_authenticated:
        raise Http404
    return get_object_or_404(Group, pk=group_id, members=request.user)


def owned_group(request: HttpRequest, group_id: int) -> Group:
    """The group, if the user owns it."""
    group = member_group(request, group_id)
    if group.owner_id != request.user.pk:
        raise Http404
    return group


MEMBER = "reader_is_member"
"""The annotation of a game read with whether its reader is a member of its group (:func:`games_read_by`)."""


def is_member(request: HttpRequest, game: Game) -> bool:
    """Whether the user is a member of the game's group (read with the game when it came from
    :func:`games_read_by`)."""
    if not request.user.is_authenticated:
        return False
    known = game.__dict__.get(MEMBER)
    if known is not None:
        return bool(known)
    return game.group.members.filter(pk=request.user.pk).exists()


def games_read_by(request: HttpRequest, games: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """``games`` (all of them by default) with their group and, in the same query, whether this reader is a member
    of it (:func:`is_member` then asks nothing more)."""
    games = (Game.objects.all() if games is None else games).select_related("group")
    if not request.user.is_authenticated:
        return games
    members = Group.members.through.objects.filter(group_id=OuterRef("group_id"), user_id=request.user.pk)
    return games.annotate(**{MEMBER: Exists(members)})


def has_joined(request: HttpRequest, game: Game) -> bool:
    """Whether this browser joined the game with its current code: it may follow the game, and read its
    result once it ends."""
    tables: dict[str, str] = request.session.get(TABLES_KEY, {})
    return tables.get(str(game.pk)) == game.table_code


def is_table_guest(request: HttpRequest, game: Game) -> bool:
    """Whether this browser joined the game with its current code, and the game is still on: it may
    enter data."""
    return game.is_playing and has_joined(request, game)


def may_log_play(request: HttpRequest, game: Game, *, member: bool | None = None) -> bool:
    """Whether this reader may log the finished ``game`` in BG Stats (its card on the game's page, its file): its
    group's members and the phones that joined its table. ``member``: whether the reader is a member, if the
    caller knows it already."""
    if game.is_playing:
        return False
    return (is_member(request, game) if member is None else member) or has_joined(request, game)


def join_table(request: HttpRequest, game: Game) -> None:
    """Remember in the session that this browser may play at ``game``'s table."""
    tables = dict(request.session.get(TABLES_KEY, {}))
    tables[str(game.pk)] = game.table_code
    request.session[TABLES_KEY] = tables


def game_for_player(request: HttpRequest, game_id: int) -> Game:
    """The game, if the user may follow it and enter data: a member, or a guest at its table."""
    game = get_object_or_404(games_read_by(request), pk=game_id)
    if is_member(request, game) or is_table_guest(request, game):
        return game
    raise Http404


def game_at_table(request: HttpRequest, game_id: int, games: QuerySet[Game] | None = None) -> Game:
    """The game, if the user may enter data at it, or could until it ended: a member, or a guest who joined it
    with its current code. For the controls a phone keeps (Undo, Edit, an entry, a save): the view says that the
    game has ended (``scoring.http.game_over``), for a guest as for a member, rather than a 404. ``games``: the
    games to find it in, with what else the view reads with it, in the same query."""
    return at_table(request, games_read_by(request, games).filter(pk=game_id).first())


def at_table(request: HttpRequest, game: Game | None) -> Game:
    """``game``, read already, if the user may enter data at it, or could until it ended (:func:`game_at_table`);
    else (no game either) 404."""
    if game is not None and (is_member(request, game) or has_joined(request, game)):
        return game
    raise Http404


def okanagan_game(game: Game) -> Game:
    """The game, if it is Okanagan with its event log (the table, the event log and finishing are Okanagan's, and
    an imported play has none); else 404."""
    if not game.has_log:
        raise Http404
    return game


def game_for_member(request: HttpRequest, game_id: int) -> Game:
    """The game, if the user is a member of its group (finishing, reopening, table codes)."""
    game = get_object_or_404(games_read_by(request), pk=game_id)
    if is_member(request, game):
        return game
    raise Http404


def watched_game(request: HttpRequest, token: str) -> Game:
    """The game of a spectator link: 404 for a finished game whose result is not public, but to its members;
    404 for a score sheet still being filled in (its page is its result, once scored)."""
    game = get_object_or_404(page_games(), spectator_token=token)
    if not game.is_okanagan and game.is_playing:
        raise Http404
    if not game.is_playing and not game.public_result and not is_member(request, game):
        raise Http404
    return game


def page_games() -> QuerySet[Game]:
    """Games with their group and seats, as every game page needs them."""
    return Game.objects.select_related("group").prefetch_related("seats")
