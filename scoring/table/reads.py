"""What an entry's page and each of its taps read of the game, in one query: the game's row, whether the reader is a
member of its group (:func:`scoring.access.is_member`), the state after its last event (:func:`scoring.states.now`)
and whether the entry a tap posted is over (:func:`scoring.table.drafts.closed`); its seats then, the phone's draft
then (:func:`scoring.table.drafts.load_with`): three queries a tap.

The query is written once, here, as SQL that SQLite and PostgreSQL both run: built by the ORM with its three
subqueries, it cost a tap about 0.8 ms of Python to compile, more than the rest of the tap's reading (measured by
``bench/tap_cost.py``); written out, 0.1 ms. Its columns are the annotations the modules above read, so a game read
here or through the ORM answers the same.
"""

from __future__ import annotations

from django.db.models import prefetch_related_objects
from django.http import HttpRequest

from scoring.access import MEMBER
from scoring.models import EndedEntry, Event, EventState, Game, Group
from scoring.states import LAST_INDEX, LAST_STORED
from scoring.table.drafts import ENTRY, ENTRY_ENDED

_MEMBERS, _GAMES = Group.members.through._meta.db_table, Game._meta.db_table
_EVENTS, _STATES, _ENDED = Event._meta.db_table, EventState._meta.db_table, EndedEntry._meta.db_table

GAME = f"""
SELECT g.*,
  EXISTS (SELECT 1 FROM {_MEMBERS} m WHERE m.group_id = g.group_id AND m.user_id = %s) AS {MEMBER},
  (SELECT e."index" FROM {_EVENTS} e WHERE e.game_id = g.id ORDER BY e."index" DESC LIMIT 1) AS {LAST_INDEX},
  (SELECT s.data FROM {_EVENTS} e LEFT JOIN {_STATES} s ON s.event_id = e.id
    WHERE e.game_id = g.id ORDER BY e."index" DESC LIMIT 1) AS {LAST_STORED},
  EXISTS (SELECT 1 FROM {_ENDED} x WHERE x.game_id = g.id AND x.entry = %s) AS {ENTRY_ENDED}
FROM {_GAMES} g WHERE g.id = %s
"""


def entry_game(request: HttpRequest, game_id: int) -> Game | None:
    """Game ``game_id`` as an entry's page or tap reads it (see above), its seats read next; ``None`` if there is
    none. Who may see it is for :func:`scoring.access.at_table` to say."""
    user = request.user.pk if request.user.is_authenticated else None
    posted = request.POST.get("entry", "")
    entry = posted if ENTRY.match(posted) else ""  # "": no entry is over (none is ever stored empty)
    game = next(iter(Game.objects.raw(GAME, [user, entry, game_id])), None)
    if game is not None:
        prefetch_related_objects([game], "seats")
    return game
