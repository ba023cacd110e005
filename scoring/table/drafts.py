"""The entries in progress of a game's phones: one draft per phone per game, in its page and on the server.

The page carries its draft (:class:`scoring.table.entry.Draft`) signed, and posts it back with each tap: a draft
comes back only as the server made it, for this entry on this phone (:func:`signed`, :func:`posted`); a
changed, made-up or misplaced one is refused as a damaged form, and an older one than the draft kept is not
taken (:func:`is_latest`). The server keeps a copy, so that a reload, Back, a locked screen or another phone
picks an entry up where it was. A draft is dropped when it is saved
(in the save's transaction), cancelled, or the game ends; one left for :data:`KEPT_FOR` is ignored, and
replaced or deleted the next time a draft of that game starts.

Each entry has an identity (:attr:`scoring.models.Draft.entry`), made when its page first opens and posted with every
tap: the phone keeps its taps waiting under it (static/js/entry_queue.js), so that they are sent into that entry
whichever address reopens it, and never into another. A tap of an entry that is no longer this phone's (continued
on another phone, saved, cancelled, replaced: :func:`closed`) is refused, and the phone names it.

The other phones show who is entering what ("Maya is scoring a forest…"): whenever that changes (a draft
starts, ends, changes kind, event, territory or phone), ``Game.activity`` counts one more, the version of
the fragment they poll (a draft saved ends with its save, whose ``Game.revision`` counts for both). The taps in
between change nothing they show, and count nothing: each is one statement (:func:`store`).
"""

from __future__ import annotations

import copy
import json
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules import EventType, Territory
from rules.fields import members
from scoring.live.versions import game_changed
from scoring.models import Draft, EndedEntry, Game
from scoring.table.entry import BadOp
from scoring.table.entry import Draft as EventDraft
from scoring.table.locking import GameGone, lock_game
from scoring.wording import ENTERING, SCORING, StrPromise

KEPT_FOR = timedelta(hours=12)
SECRET_KINDS = frozenset({EventType.OBJECTIVES})
"""Drafts no other phone may continue: objective cards are secret to their player."""


ANOTHER: dict[Territory, StrPromise] = {
    Territory.FOREST: gettext_lazy("Start another forest"),
    Territory.LAKE: gettext_lazy("Start another lake"),
    Territory.FIELD: gettext_lazy("Start another field"),
    Territory.MOUNTAIN: gettext_lazy("Start another mountain"),
}
"""Asked before entering a territory that another phone is entering (:func:`rival`): not the same one."""


ENTRY = re.compile(r"^[A-Za-z0-9_-]{16}$")
"""An entry's identity, as :func:`new_entry` makes it."""
TAKEN = "taken"
ENDED = "ended"


def new_entry() -> str:
    """The identity of an entry whose page opens now."""
    return secrets.token_urlsafe(12)


class Refused(Exception):
    """This phone may not continue that draft."""


class Moved(Exception):
    """This phone's draft changed between a tap's reading it and its storing the tap (another tap of the entry came
    first, or the entry was saved, cancelled or continued on another phone meanwhile): nothing was stored."""


@dataclass(frozen=True)
class Entering:
    """An entry in progress at a game, as its page shows it to one phone."""

    id: int
    who: str
    """The seat of the phone entering it, or ``""`` (a phone that claimed no seat)."""
    kind: str
    territory: str
    """The territory chosen so far, or ``""``."""
    editing: int | None
    """The index of the event being changed, or ``None`` for a new event."""
    is_mine: bool
    can_take: bool
    """Whether this phone may continue it ("Continue here")."""
    url: str
    """The entry page."""

    @property
    def another(self) -> str:
        """The button that starts another entry of the same kind beside it: "Start another field"."""
        if territory := members(Territory).get(self.territory):
            return str(ANOTHER[territory])
        return _("Start another entry")

    @property
    def what(self) -> str:
        """What the phone is doing, in the reader's language: "scoring a forest", "entering the Volcano"."""
        if territory := members(Territory).get(self.territory):
            return str(SCORING[territory])
        kind = members(EventType).get(self.kind)
        return str(ENTERING.get(kind, "")) if kind else ""


def _kept(game: Game) -> QuerySet[Draft]:
    return Draft.objects.filter(game=game, updated__gte=timezone.now() - KEPT_FOR)


def load(game: Game, phone: str) -> Draft | None:
    """This phone's draft at ``game``, unless it was left too long (or the phone has no token yet)."""
    return _kept(game).filter(phone=phone).first() if phone else None


_PHONE_OR_ENTRY = f"""
SELECT * FROM {Draft._meta.db_table} WHERE game_id = %s AND updated >= %s AND (phone = %s OR entry = %s)
"""
"""A tap's read of the drafts (:func:`load_with`), written out: built by the ORM, it cost a tap 0.3 ms more of
Python (``bench/tap_cost.py``)."""


def load_with(game: Game, phone: str, entry: str) -> tuple[Draft | None, Draft | None]:
    """This phone's draft at ``game`` (as :func:`load`) and the kept draft of the entry ``entry`` a tap posted
    (``""``: none), whichever phone's, in one query: what :func:`closed` asks about a tap."""
    if not phone and not entry:
        return None, None
    since = connection.ops.adapt_datetimefield_value(timezone.now() - KEPT_FOR)
    # "" matches no phone and no entry: each is stored non-empty (a draft kept before entries had one aside, which
    # only its phone reads).
    rows = list(Draft.objects.raw(_PHONE_OR_ENTRY, [game.pk, since, phone or None, entry or None]))
    mine = next((row for row in rows if row.phone == phone), None) if phone else None
    holder = next((row for row in rows if row.entry == entry), None) if entry else None
    return mine, holder


ENTRY_ENDED = "entry_ended"
"""The annotation of a game read with whether a posted entry is over (:func:`with_entry_ended`)."""


def with_entry_ended(games: QuerySet[Game], entry: str) -> QuerySet[Game]:
    """``games`` with, in the same query, whether the entry ``entry`` is over at each (saved, cancelled, replaced:
    :func:`closed` asks nothing more)."""
    return games.annotate(**{ENTRY_ENDED: Exists(EndedEntry.objects.filter(game=OuterRef("pk"), entry=entry))})


def is_for(stored: Draft | None, kind: str, editing: int | None) -> bool:
    """Whether ``stored`` is an entry of ``kind`` (of event ``editing``): the page of that entry resumes it."""
    return stored is not None and stored.kind == kind and stored.editing == editing


def resumes(stored: Draft, seat: str) -> bool:
    """Whether this phone, now the player at ``seat`` (``""``: nobody), picks ``stored`` up: objective cards only
    as the seat that last entered them, so that a phone lent to another player, or whose seat moved to another
    phone, never shows them (the entry starts again, and its first tap replaces them)."""
    return stored.kind not in SECRET_KINDS or stored.by == seat


def event_draft(stored: Draft) -> EventDraft | None:
    """The draft as the entry pages work on it, or ``None`` if it is not one (kept by code of another
    version): the page then starts the entry again, and its next tap replaces it."""
    try:
        return EventDraft.from_data(stored.data)
    except BadOp:
        return None


def signed(draft: EventDraft, game: Game, editing: int | None, phone: str) -> str:
    """``draft`` as its page carries it: compressed, and signed for this phone's entry at ``game`` (the
    event ``editing``, or a new one), so that only this page's entry can post it back (see :func:`posted`)."""
    return signing.dumps(draft.to_data(), salt=_entry_salt(game, draft.kind, editing, phone), compress=True)


def posted(token: str, game: Game, kind: str, editing: int | None, phone: str) -> EventDraft:
    """The draft a page posted back, to this phone's entry of ``kind`` (of event ``editing``) at ``game``.

    Raises :class:`BadOp` unless the server signed it for that very entry (:func:`signed`) less than
    :data:`KEPT_FOR` ago: a draft changed or made up by the phone, a draft of another game, kind of event,
    event or phone, and a page left too long are all refused as a damaged form.
    """
    try:
        data = signing.loads(token, salt=_entry_salt(game, kind, editing, phone), max_age=KEPT_FOR)
    except signing.BadSignature as error:  # SignatureExpired too
        raise BadOp(_("The form was damaged; start again.")) from error
    return EventDraft.from_data(data)


def is_latest(draft: EventDraft, stored: Draft) -> bool:
    """Whether ``draft`` is the draft kept as ``stored``: a page posts back the draft of the server's last answer
    for its entry. A signature says who made a draft, not which one is the last: an older page of the entry (a
    tap whose answer was lost on the way, a 500 or a 502, then another tap sent from the page as it was; a second
    tab) posts an older draft, whose taps would undo the later ones, and whose Save would store less than the
    phone made."""
    return _as_stored(draft.to_data()) == _as_stored(stored.data)


def _as_stored(data: object) -> object:
    """``data`` as the database gives it back (JSON: lists, not tuples)."""
    return json.loads(json.dumps(data))


def _entry_salt(game: Game, kind: str, editing: int | None, phone: str) -> str:
    """What a page's draft is signed for. Saved at another game, as another kind or in place of another
    event, a draft would change what it was not made for; continued on another phone, it would move an entry
    that :func:`take` would not (objective cards stay on their player's phone). The revision is not bound: a
    draft is checked against the game as it is now whatever the page saw."""
    return f"scoring.table.drafts.entry:{game.pk}:{kind}:{editing}:{phone}"


def closed(game: Game, phone: str, entry: str, mine: Draft | None, holder: Draft | None) -> str:
    """Why a tap of ``entry`` no longer applies on this phone, whose draft of that kind is ``mine``, the entry's
    kept draft being ``holder`` (:func:`load_with`): :data:`TAKEN` (it was continued on another phone),
    :data:`ENDED` (saved, cancelled, replaced by another entry of the phone, or the phone is entering another of
    that kind); ``""`` when it applies (this phone's entry, or a new one)."""
    if mine is not None and mine.entry == entry:
        return ""
    if holder is not None and holder.phone != phone:
        return TAKEN
    if (mine is not None and mine.entry) or _is_over(game, entry):
        return ENDED
    return ""


def _is_over(game: Game, entry: str) -> bool:
    """Whether the entry ``entry`` is over at ``game``: as read with the game (:func:`with_entry_ended`), or asked."""
    known = game.__dict__.get(ENTRY_ENDED)
    if known is not None:
        return bool(known)
    return EndedEntry.objects.filter(game=game, entry=entry).exists()


def _ended(game: Game, drafts: QuerySet[Draft]) -> None:
    """Remember the entries of ``drafts``, about to be deleted, as over (see :func:`closed`)."""
    entries = [entry for entry in drafts.values_list("entry", flat=True) if entry]
    EndedEntry.objects.bulk_create([EndedEntry(game=game, entry=entry) for entry in entries], ignore_conflicts=True)


def store(
    game: Game,
    phone: str,
    by: str,
    draft: EventDraft,
    editing: int | None,
    revision: int,
    before: Draft | None,
    entry: str = "",
) -> Draft:
    """Keep ``draft`` as this phone's entry ``entry`` at ``game`` (replacing any other entry of the phone, which
    is then over), checked against the log at ``revision``; ``before`` is the phone's draft as loaded, to tell what
    others see, and to store nothing over a draft changed since.

    A tap of the entry ``before`` holds is one statement, an ``UPDATE`` of that row as it was read (in
    autocommit: no lock is held past it); the first tap of an entry is one ``INSERT``, after the entry's start is
    counted (which locks the game's row first, as :mod:`scoring.table.locking` asks). Anything else (another entry
    of the phone replaced, or either statement finding the rows otherwise) is done in a transaction that locks the
    game first. The other phones' version counts one more only when what they show of the entries changes
    (:func:`_seen`).

    Raises :class:`scoring.table.locking.GameGone` if the game was deleted meanwhile, :class:`Moved` if the phone's
    draft is no longer ``before``: nothing is stored either way.
    """
    same = before is not None and is_for(before, draft.kind, editing) and before.by == by
    now = timezone.now()
    values: dict[str, object] = {
        "by": by,
        "kind": draft.kind,
        "editing": editing,
        "data": draft.to_data(),
        "revision": revision,
    }
    values |= {} if same else {"started": now}  # a new entry, or one of another seat's (not resumed)
    stored = _stored_at_once(game, phone, before, entry, values | {"updated": now})
    if stored is None:
        return _stored_locked(game, phone, before, entry, values)
    if before is not None and _seen(before) != _seen(stored):
        _count_activity(game)
    return stored


def _stored_at_once(
    game: Game, phone: str, before: Draft | None, entry: str, values: dict[str, object]
) -> Draft | None:
    """The draft stored at once: ``before`` updated in one statement if it is still as read, or a first draft
    inserted (in a transaction that counts the entry's start first, which locks the game's row and finds it there);
    ``None`` when that cannot be (another entry of the phone replaced, the row changed or gone, a row there
    already): :func:`_stored_locked` then says what happened."""
    if before is None:
        try:
            with transaction.atomic():
                if not game_changed(game):  # an entry starts: the other phones' version counts one more
                    raise GameGone
                stored = Draft.objects.create(game=game, phone=phone, entry=entry, **values)
                _forget_old(game)
        except IntegrityError:  # a draft of the phone there already
            return None
        return stored
    if before.entry != entry:
        return None
    if not Draft.objects.filter(pk=before.pk, phone=phone, updated=before.updated).update(**values):
        return None
    stored = copy.copy(before)
    for name, value in values.items():
        setattr(stored, name, value)
    return stored


def _stored_locked(game: Game, phone: str, before: Draft | None, entry: str, values: dict[str, object]) -> Draft:
    """The draft stored in a transaction that locks the game first (see :func:`store`)."""
    with transaction.atomic():
        lock_game(game)
        now = _kept(game).filter(phone=phone).values_list("pk", "updated").first()
        if now != (None if before is None else (before.pk, before.updated)):
            raise Moved
        if before is not None and before.entry != entry:
            _ended(game, Draft.objects.filter(pk=before.pk))
        stored, _created = Draft.objects.update_or_create(game=game, phone=phone, defaults=values | {"entry": entry})
        if before is None:
            _forget_old(game)
        if before is None or _seen(before) != _seen(stored):
            _count_activity(game)
    return stored


def _forget_old(game: Game) -> None:
    """Delete the drafts and ended entries of ``game`` left for :data:`KEPT_FOR` (when a draft of it starts)."""
    Draft.objects.filter(game=game, updated__lt=timezone.now() - KEPT_FOR).delete()
    EndedEntry.objects.filter(game=game, ended__lt=timezone.now() - KEPT_FOR).delete()


def discard(game: Game, phone: str, draft_id: int) -> None:
    """Drop this phone's draft ``draft_id`` (saved or cancelled); a draft of another phone stays."""
    dropped = Draft.objects.filter(game=game, phone=phone, pk=draft_id)
    _ended(game, dropped)
    deleted, _kinds = dropped.delete()
    if deleted:
        _count_activity(game)


def drop_saved(game: Game, stored: Draft) -> None:
    """Drop this phone's draft ``stored``, saved in the current transaction: its entry is over. The save raised the
    game's revision, so every phone's version changed already: nothing more is counted."""
    if Draft.objects.filter(game=game, phone=stored.phone, pk=stored.pk).delete()[0] and stored.entry:
        EndedEntry.objects.bulk_create([EndedEntry(game=game, entry=stored.entry)], ignore_conflicts=True)


def discard_all(game: Game) -> None:
    """Drop every draft of ``game`` (it ended: nothing more is entered)."""
    dropped = Draft.objects.filter(game=game)
    _ended(game, dropped)
    deleted, _kinds = dropped.delete()
    if deleted:
        _count_activity(game)


def take(game: Game, draft_id: int, phone: str, by: str) -> Draft:
    """Move draft ``draft_id`` to this phone ("Continue here"); the phone's own draft, if any, gives way.

    Raises ``Draft.DoesNotExist`` if it was saved, cancelled or left too long, :class:`Refused` if it is secret,
    :class:`scoring.table.locking.GameGone` if the game was deleted.
    """
    with transaction.atomic():
        lock_game(game)
        stored = _kept(game).select_for_update().get(pk=draft_id)
        if stored.phone == phone:
            return stored
        if stored.kind in SECRET_KINDS:
            raise Refused
        own = Draft.objects.filter(game=game, phone=phone)
        _ended(game, own)
        own.delete()
        stored.phone, stored.by = phone, by
        stored.save(update_fields=["phone", "by", "updated"])
        _count_activity(game)
    return stored


def taken_by(game: Game, draft_id: int, phone: str) -> bool:
    """Whether draft ``draft_id``, once this phone's, is now another phone's (it was continued there)."""
    return _kept(game).filter(pk=draft_id).exclude(phone=phone).exists()


def entering(game: Game, phone: str) -> list[Entering]:
    """The entries in progress at ``game``, in the order they started, as ``phone`` sees them."""
    return [entry for entry, _stored in _entering(game, phone)]


def _entering(game: Game, phone: str) -> list[tuple[Entering, Draft]]:
    return [
        (
            Entering(
                id=stored.pk,
                who=stored.by,
                kind=stored.kind,
                territory=_territory(stored),
                editing=stored.editing,
                is_mine=bool(phone) and stored.phone == phone,
                can_take=stored.phone != phone and stored.kind not in SECRET_KINDS,
                url=entry_url(stored),
            ),
            stored,
        )
        for stored in _kept(game).order_by("pk")
    ]


def subject(kind: str, event: object) -> tuple[str, str] | None:
    """What makes two new entries of ``kind`` entries of the same thing, as ``(key, value)`` of their events: the
    territory (a forest and another forest), or the player (a promo tile, a correction for the same player);
    ``None`` when ``event`` names none yet, or for secret kinds (objective cards: each player's own)."""
    key = "territory" if kind == EventType.TERRITORY else "player"
    value = event.get(key) if isinstance(event, dict) else None
    return (key, value) if isinstance(value, str) and value and kind not in SECRET_KINDS else None


def _same_elsewhere(game: Game, phone: str, kind: str, event: object) -> list[Entering]:
    """The other phones' new entries of the same thing as ``event`` (of ``kind``; see :func:`subject`)."""
    same = subject(kind, event)
    if same is None:
        return []
    key, value = same
    return [
        entry
        for entry, stored in _entering(game, phone)
        if entry.can_take and entry.kind == kind and entry.editing is None and _event_of(stored).get(key) == value
    ]


def rival(game: Game, phone: str, start: EventDraft) -> Entering | None:
    """Another phone's entry of the same new event as ``start`` (:func:`subject`), which this phone may continue:
    opening it asks first, rather than letting two phones enter one territory. ``None`` when ``start`` names no
    territory or player yet."""
    return next(iter(_same_elsewhere(game, phone, start.kind, start.event)), None)


def also_entering(game: Game, phone: str) -> list[Entering]:
    """The other phones' new entries of the same thing as this phone's new entry (two phones opened the same
    territory at once): its page says so live ("Lena is scoring a forest too")."""
    stored = load(game, phone)
    if stored is None or stored.editing is not None:
        return []
    return _same_elsewhere(game, phone, stored.kind, _event_of(stored))


def busy(entering: list[Entering]) -> dict[str, Entering]:
    """The entry of each territory in progress on another phone, by territory: the bottom bar names who is
    entering it on its button ("Lena…")."""
    return {
        entry.territory: entry for entry in entering if not entry.is_mine and entry.editing is None and entry.territory
    }


def entry_url(stored: Draft) -> str:
    """The page of ``stored``'s entry."""
    if stored.editing is None:
        return reverse("event_new", args=[stored.game_id, stored.kind])
    url = reverse("event_edit", args=[stored.game_id, stored.editing])
    return f"{url}?show=1" if stored.kind in SECRET_KINDS else url


def _event_of(stored: Draft) -> dict[str, object]:
    """The event of ``stored``'s draft so far, or ``{}`` (a draft kept by code of another version)."""
    event = stored.data.get("event") if isinstance(stored.data, dict) else None
    return event if isinstance(event, dict) else {}


def _territory(stored: Draft) -> str:
    territory = _event_of(stored).get("territory", "")
    return territory if isinstance(territory, str) else ""


def _seen(stored: Draft) -> tuple[object, ...]:
    """What the other phones show of a draft."""
    return (stored.pk, stored.phone, stored.by, stored.kind, stored.editing, _territory(stored))


def _count_activity(game: Game) -> None:
    game_changed(game)
