"""Storage: groups and their members, player profiles, games and each game's event log.

A game's truth is its events (the record's ``events``, in order); the state after each event is stored too
(:class:`EventState`, :mod:`scoring.states`), and that is what the pages read. ``Game.revision`` counts
changes to the log: it is the ETag of the scoreboard and the guard against two phones changing the same game
at once.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rules import MAX_NAME_LENGTH, RECORD_FORMAT
from rules import Game as RulesGame

# No 0/O, 1/I/L: a code read aloud across a table or typed on a phone.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NAME_LENGTH = MAX_NAME_LENGTH
GROUP_NAME_LENGTH = 80
"""The longest player name (a record from elsewhere with longer names is refused at import)."""


def new_token() -> str:
    """A secret for a link: unguessable, URL-safe."""
    return secrets.token_urlsafe(16)


def new_table_code() -> str:
    """A short code for joining a game at the table."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Group(models.Model):
    """A group of people who play together: its members see and edit its games."""

    name = models.CharField(_("name"), max_length=GROUP_NAME_LENGTH)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_groups")
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="play_groups")
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    def new_invite(self) -> None:
        """A new invite link: the old one stops working."""
        self.invite_token = new_token()
        self.save(update_fields=["invite_token"])


class Profile(models.Model):
    """A player known to a group, by name; may be linked to a member's account."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="profiles")
    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    uuid = models.UUIDField(default=uuid.uuid4, editable=False)
    """This player's id outside the site (BG Stats' player uuid): the same on every export, whatever the
    player's name becomes, and carried by the group's backup into the restored group."""

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["group", "name"], name="unique_profile_name")]

    def __str__(self) -> str:
        return self.name


class Game(models.Model):
    """One play: of Okanagan (its players in seat order, options and event log), or of Small Islands or
    Cooper Island (the end-of-game score sheet)."""

    class Kind(models.TextChoices):
        # The values are the rules' games; the labels, the names shown where no language applies.
        OKANAGAN = RulesGame.OKANAGAN.value, "Okanagan"
        SMALL_ISLANDS = RulesGame.SMALL_ISLANDS.value, "Small Islands"
        COOPER_ISLAND = RulesGame.COOPER_ISLAND.value, "Cooper Island"

    class Status(models.TextChoices):
        PLAYING = "playing", _("in progress")
        FINISHED = "finished", _("finished")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="games")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.OKANAGAN)
    sheet = models.JSONField(null=True, blank=True)
    """For Small Islands and Cooper Island: the score sheet document (``*-sheet/1``)."""
    options = models.JSONField(default=dict)
    """The record's ``options``."""
    promos = models.BooleanField(_("promo tiles"), default=False)
    """Whether the Volcano and Beaver Dam tiles are in play (their events are offered)."""
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    public_result = models.BooleanField(_("public result"), default=True)
    """Whether the spectator link shows the finished game's result to anyone who has it (a member may turn
    it off: then the result page and its image are 404 for everyone but the group's members)."""
    revision = models.PositiveIntegerField(default=0)
    table_code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_table_code)
    spectator_token = models.CharField(max_length=32, unique=True, default=new_token)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    winners = models.JSONField(default=list)
    """The winners once finished, as the engine names them (a solo game's opponent card among them when it wins):
    with each seat's ``total``, ``rank`` and ``parts``, the one stored source of a finished play
    (:mod:`scoring.standings`)."""
    uuid = models.UUIDField(default=uuid.uuid4, editable=False)
    """This play's id outside the site (BG Stats' play uuid): the same on every export, so that a play sent
    twice is one play; carried by the group's backup into the restored group."""
    activity = models.PositiveIntegerField(default=0)
    """Counts changes that every phone shows but that are not the log: seats claimed or freed, entries
    started, moved on or ended. With ``revision`` it is the version of the live game fragment."""
    start_token = models.CharField(max_length=32, blank=True, default="")
    """The token of the "Start the game" form that made it: the same form posted twice (a double tap, a phone
    sending again) finds this game instead of starting another."""
    imported = models.BooleanField(default=False)
    """A play brought in from elsewhere (a BG Stats ``.bgsplay`` file): its scores and ranks only, no events."""
    source_play_id = models.CharField(max_length=64, blank=True, default="")
    """An imported play's ``sourcePlayId`` in the file it came from (empty otherwise): the same play imported
    twice is refused."""

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "start_token"], condition=~models.Q(start_token=""), name="one_game_per_start_form"
            )
        ]

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING

    @property
    def is_okanagan(self) -> bool:
        return self.kind == self.Kind.OKANAGAN

    @property
    def has_log(self) -> bool:
        """Whether it is an Okanagan game with its event log: played here, not an imported play (whose page, like
        a score sheet's, shows its stored result only)."""
        return self.is_okanagan and not self.imported

    def players(self) -> tuple[str, ...]:
        """Player names in seat order (uses the prefetched seats when there are)."""
        return tuple(seat.name for seat in sorted(self.seats.all(), key=lambda seat: seat.position))

    def players_now(self) -> tuple[str, ...]:
        """The players in seat order as the group calls them now (a renamed player by their new name), for a
        new game that proposes the last one's players: the game itself keeps the names it was played with."""
        seats = sorted(self.seats.select_related("profile"), key=lambda seat: seat.position)
        return tuple(seat.profile.name if seat.profile else seat.name for seat in seats)

    def record(self, events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The game as ``okanagan-record/1`` JSON (with ``events`` in place of the stored ones)."""
        if events is None:
            events = [event.data for event in self.events.all()]
        return record_document(self.players(), self.options, events)


def record_document(players: Sequence[str], options: dict[str, Any], events: list[Any]) -> dict[str, Any]:
    """A game of Okanagan as ``okanagan-record/1`` JSON: its players in seat order, its options, its events last."""
    return {"format": RECORD_FORMAT, "players": list(players), "options": options, "events": events}


SEAT_COLOURS = ("red", "purple", "orange", "teal")
"""Each seat's colour on every phone, by seat order (the record does not say which colour a player
plays, so the app gives each seat its own)."""


class Seat(models.Model):
    """A player's place in a game, named as in the record; linked to the group's profile."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_LENGTH)
    profile = models.ForeignKey(Profile, null=True, on_delete=models.SET_NULL, related_name="seats")
    total = models.IntegerField(null=True)
    """The final total once the game is finished (the engine's, stored when it finishes)."""
    rank = models.PositiveSmallIntegerField(null=True)
    """The final place once the game is finished: 1 for the winners (tied players share a place), as the engine
    ranks them."""
    parts = models.JSONField(default=dict)
    """The score part by part once the game is finished: each ``*_points`` component of the engine's result
    (``explorer_points``, ``objective_points``, ``nugget_points`` for Okanagan; the sheet's components
    otherwise). With ``total`` and ``rank`` it is all the statistics read: no page replays a game to count."""
    phone = models.CharField(max_length=32, blank=True, default="")
    """The phone that claimed this seat ("I am Ann"): the ``phone`` of its browser session, or empty."""
    seen = models.DateTimeField(null=True, blank=True)
    """When the seat's phone was last heard from (its claim, then its polls, at most once a minute): a seat of
    no account whose phone has been gone long enough may be claimed by another phone (:mod:`scoring.table.seats`)."""
    moved_at = models.DateTimeField(null=True, blank=True)
    """When the seat last changed phones (claimed, taken over, moved, left or freed): cards being entered for
    its player at that moment are marked in the log."""
    moved_from = models.CharField(max_length=32, blank=True, default="")
    """The phone the seat was taken from by another phone: that phone is told, on its next poll."""
    move_code = models.CharField(max_length=8, blank=True, default="")
    """A short code shown on the seat's phone ("Move my seat to another phone"): another phone that types it
    takes the seat, until ``move_code_until``."""
    move_code_until = models.DateTimeField(null=True, blank=True)
    line = models.JSONField(default=dict, blank=True)
    """A score-sheet game in progress: this player's line as last posted (field name → text), kept as typed so
    that a line half filled in is never lost and every value is checked again when the game is scored."""
    line_done = models.BooleanField(default=False)
    """Whether this player's line was checked and saved ("Done")."""
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    """This player's skill rating (OpenSkill's μ and σ) within the group and the game's kind after this game,
    for a finished game; ``None`` otherwise (:mod:`scoring.history.ratings`)."""
    facts = models.JSONField(default=dict, blank=True)
    """What this player's finished Okanagan game gives the group's history, counted from its event log when
    it finished (:mod:`scoring.history.insights`); empty for a game in progress, a sheet or an imported play."""

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="unique_seat"),
            models.UniqueConstraint(fields=["game", "phone"], condition=~models.Q(phone=""), name="one_seat_per_phone"),
        ]

    @property
    def colour(self) -> str:
        """The colour that shows this seat's player on every phone."""
        return SEAT_COLOURS[self.position % len(SEAT_COLOURS)]


SEAT_MOVED = " seat moved"
"""``Event.entered_for`` of objective cards entered on their player's phone while that player's seat changed
phones: untrimmed, so no player's name (``rules.name_problem``) can be it."""


class GroupHistory(models.Model):
    """What a group's finished games add up to, as the history pages show it (per game kind: each player's plays,
    wins, scores, streaks, latest rating and insights, the head-to-heads, the records): kept by the writer when the
    group's results change, so that a page reads one row however many games the group has
    (:mod:`scoring.history.summary`)."""

    group = models.OneToOneField(Group, on_delete=models.CASCADE, primary_key=True, related_name="history")
    data = models.JSONField(default=dict)
    """The sums as data (:meth:`scoring.history.summary.Summary.to_data`); empty until first made."""


class Event(models.Model):
    """One event of a game's log: the record's event JSON, at its index."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    index = models.PositiveIntegerField()
    data = models.JSONField()
    created = models.DateTimeField(default=timezone.now)
    """When it was saved; kept when an earlier event is changed or undone (:func:`scoring.log.change_log` writes the
    later events again)."""
    entered_for = models.CharField(max_length=NAME_LENGTH, blank=True, default="")
    """For objective cards entered on another player's phone: who entered them ("enter for Ann"), shown
    in the log ("-": a phone that is nobody; :data:`SEAT_MOVED`: their own phone, while their seat changed
    phones); empty when the player entered their own."""
    saved_by = models.CharField(max_length=NAME_LENGTH, blank=True, default="")
    """The seat of the phone that saved this event from an entry, or empty (a phone that is nobody at the table,
    a one-tap event, an import): a phone about to save the same territory is told who saved it
    (:mod:`scoring.table.twins`)."""

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"], name="unique_event_index")]


class EventState(models.Model):
    """The game's state after an event and what the event did (:mod:`scoring.states`): the next event applies to
    it and the pages read it, so that no request replays the log. Made when the event is stored, or from the log
    when first read. A table of its own, so that reading a game's events (a backup) does not read the states."""

    event = models.OneToOneField(Event, primary_key=True, on_delete=models.CASCADE, related_name="stored")
    data = models.TextField()
    """JSON text, as :func:`scoring.states.dump` writes it (never a pickle: reading it never runs code)."""


class Draft(models.Model):
    """The event a phone is entering (one at a time), kept on the server so that a reload, Back, a locked screen or
    another phone picks it up where it was; deleted when it is saved or abandoned."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="drafts")
    phone = models.CharField(max_length=32)
    """The phone entering it (see :mod:`scoring.phones`)."""
    by = models.CharField(max_length=NAME_LENGTH, blank=True, default="")
    """Who is entering it, as the other phones see it: the phone's seat, else empty ("a phone")."""
    kind = models.CharField(max_length=20)
    editing = models.PositiveIntegerField(null=True)
    """The index of the event being changed, or ``None`` for a new event."""
    data = models.JSONField(default=dict)
    """The draft as :class:`scoring.table.entry.Draft` writes it."""
    entry = models.CharField(max_length=24, blank=True, default="")
    """Which entry this is: a token made when its page first opened, posted with every tap, under which the phone
    keeps its taps waiting (see :mod:`scoring.table.drafts`); empty for a draft kept before entries had one."""
    revision = models.PositiveIntegerField(default=0)
    """The game's revision when the draft was last checked against the log."""
    started = models.DateTimeField(default=timezone.now)
    """When this entry began on this phone: objective cards whose player's seat changed phones since are
    marked in the log when saved."""
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["updated"]
        constraints = [
            models.UniqueConstraint(fields=["game", "phone"], name="one_draft_per_phone"),
        ]


class EndedEntry(models.Model):
    """An entry (:attr:`Draft.entry`) that is over: saved, cancelled, replaced by another of its phone, or the game
    ended. A tap of it that arrives late (a phone's queue, sent when the connection returns) is refused and named
    on the phone, never taken as the first tap of a new entry. Kept as long as a draft."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    entry = models.CharField(max_length=24)
    ended = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="one_end_per_entry"),
        ]
