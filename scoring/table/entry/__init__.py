"""Entering an event step by step: a draft of the record's event, changed one tap at a time.

The draft travels in the page (a hidden field, signed: it comes back only as the server made it), so the
same flow works as plain forms and with HTMX, and the server keeps a copy, so that a reload or another phone
picks it up (both in :mod:`scoring.table.drafts`). Each tap is an *op* (the value of the pressed button, e.g.
``add:rewards:green-circle:1``); after each op the draft is checked by ``rules`` and, if the op made it
illegal, the op is undone and the error shown in place. This module only maps taps to record fields and asks
``rules`` what is legal: it decides no rule itself.

A draft is always analysed against the game as it is now: when another phone changed the game under it
and a stage no longer holds, that stage is to do again, with the reason, and every other stage keeps its
data (see :func:`analyse`).
"""

from __future__ import annotations

from scoring.table.entry.analysis import analyse
from scoring.table.entry.draft import Draft
from scoring.table.entry.screen import Screen
from scoring.table.entry.stages import EVENT_KINDS, STAGES, BadOp
from scoring.table.entry.taps import count_from_holdings, tap

__all__ = ["EVENT_KINDS", "STAGES", "BadOp", "Draft", "Screen", "analyse", "count_from_holdings", "tap"]
