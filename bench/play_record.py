"""A robot that plays an Okanagan record through the site's UI, as a person on a phone would.

    .venv/bin/python bench/play_record.py RECORD.json

Starts the site as in production (gunicorn, a fresh SQLite database), signs up, creates a group and a
game with the record's players (in seat order) and options, and seats a table of phones: the first phone
is the first player's ("I am …"), every other player's phone opens the join link (as if it scanned the QR
code), joins and says who it is. Then it enters every event of the record in Chromium at 390×844 (mobile,
touch) on the phone of the player who did it (a territory on its closer's, cards, promo tiles and
corrections on their player's, the end of round 1 on the first phone): it taps only visible, enabled
controls found by their role and accessible name, scrolls a control into view when it is off screen, and
never posts a form itself nor imports the record. With ``--one-phone`` every event is entered on the
first phone (objective cards of the others through "Enter for …"). It ends the game (confirming on the finish page) and
checks that the final scores (the ``#final`` table by rank: rank, Explorer, objectives, nuggets, total per
player) equal what ``rules`` scores for the record.

It prints JSON: the setup, each event and the end, then the totals, each with

- ``taps``: controls tapped (a radio of the tie-break and "Enter for …" count; typing does not);
- ``typed``: fields typed (names at setup, a correction's note);
- ``scrolls``: times a control to tap was off screen and had to be scrolled into view;
- ``screens``: what the person sees change as a new step: a page load, or a swap of the entry form whose
  current stage is another one (for the collection, another collector); a + that only changes a count
  is no new screen;
- ``server_ms``: time spent waiting for the server's answers to this event's taps (pages and form swaps,
  request start to response end; the game page's polls are left out);
- ``phone``: the seat of the phone that entered it.

The totals add each phone's share of the taps and the server's answer time per tap (median, p95, max).

It exits with status 1, naming the event, when a control is missing, the site shows an error, or a
final score differs; with status 2 when the record is invalid. The new-game form sets every option a
record may hold (the supply is in a disclosure, opened only for a record that sets it). A correction that
changes nothing (valid in the format, refused by the site, scoring nothing) is skipped and marked so in the
output.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.serve import prepare  # noqa: E402
from rules import (  # noqa: E402
    GameState,
    Reward,
    RulesError,
    SpecialActionKind,
    answer_territory,
    apply_event,
    exchange_options,
    new_game,
    on_one_card,
    parse_territory_so_far,
    special_action_options,
)
from rules.reading import read_json  # noqa: E402
from rules.record import parse_record  # noqa: E402
from scoring.table.entry.stages import MAX_CHIP, MAX_WHOLE_POOL  # noqa: E402
from support.chromium import CHROMIUM_FLAGS, chromium_path  # noqa: E402
from support.production import free_port, production_env, serve  # noqa: E402

TERRITORY_BUTTONS = {"forest": "Forest", "lake": "Lake", "field": "Field", "mountain": "Mountain"}
BUILDING_NAMES = {"farm": "Farm", "warehouse": "Warehouse", "silo": "Silo"}
ACTION_BUTTONS = {
    "reward_of_shape": "A reward of a shape",
    "two_rewards": "Two rewards",
    "choose_first": "Choose first",
    "gold_nugget": "A gold nugget",
    "new_objectives": "New objectives",
    "gifts": "Gifts",
    "trade": "Trade",
    "new_tiles": "New tiles",
    "exchange_shape": "Exchange a shape",
    "exchange_colour": "Exchange a colour",
}
CARD_BUTTONS = {
    "specific": "Specific reward (3 VP each)",
    "shape": "Shape set (7 VP)",
    "territory": "Territory set (5 VP)",
}
EVENT_LINKS = {
    "volcano": "Volcano",
    "beaver_dam": "Beaver Dam",
    "objectives": "Objective cards",
    "round_end": "End of round 1",
    "adjust": "Correction",
}
TERRITORY_COLOURS = {"forest": "green", "lake": "blue", "field": "yellow", "mountain": "black"}
REWARD_ORDER = [reward.value for reward in Reward]
SEAT_LABELS = ("First player", "Second player", "Third player", "Fourth player")
SUPPLY_SUMMARY = "Tokens and nugget cards in the box"
SUPPLY_LABELS = {"reward_supply": "Reward tokens of each kind", "nugget_supply": "Gold nugget cards"}
PASSWORD = "robot-plays-42"

# Marks the page before a tap, so that the answer is known to have arrived: a new page has no mark, a
# swapped entry form no marked form.
MARK = """() => {
  window.__robot = true;
  const form = document.querySelector('#wizard');
  if (form) form.dataset.robot = '1';
  return !!form;
}"""
# The game's revision as the page shows it: the game page's poller's, or the entry's the phone was brought to.
REVISION = """() => document.querySelector('#live-poll')?.dataset.revision
  || document.querySelector('#wizard input[name=revision]')?.value || ''"""
KEPT = "!document.querySelector('#redraw') || !!document.querySelector('#game .messages')"
"""One's cards kept on the game page (its live part swapped in place): the redraw prompt gone, or a message."""
ANSWERED = "(hadForm) => !window.__robot || (hadForm && !document.querySelector('#wizard[data-robot]'))"
# In view, and not under something else (the sticky answer at the bottom of the board): a person sees it.
IN_VIEW = """(e) => {
  const r = e.getBoundingClientRect();
  if (!(r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0)) return false;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!top && (top === e || e.contains(top) || top.contains(e));
}"""
# A screen is what the person sees as one: a page, or the entry's screen (the territory's resolution is one
# screen whose questions appear one below the other).
SCREEN = """() => {
  const stage = document.querySelector('#wizard fieldset.stage');
  return stage ? location.pathname + '#' + stage.dataset.screen : location.pathname;
}"""


class Failure(Exception):
    """The robot could not go on, or the site disagrees with the rules."""


class Counts:
    """What one part of the game cost the person."""

    def __init__(self, index: int | str, kind: str) -> None:
        self.index, self.kind = index, kind
        self.taps = self.typed = self.scrolls = self.screens = 0
        self.server_ms = 0.0
        self.tap_ms: list[float] = []
        self.phone = 0
        self.decisions: int | None = None
        """A territory: what the person must express of it (:func:`territory_decisions`)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "type": self.kind,
            "taps": self.taps,
            **({} if self.decisions is None else {"decisions": self.decisions}),
            "typed": self.typed,
            "scrolls": self.scrolls,
            "screens": self.screens,
            "server_ms": round(self.server_ms, 1),
            "phone": self.phone,
        }


class Robot:
    """A person on one phone: taps what they see, scrolls when it is not in view, reads the screen."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.counts = Counts("setup", "setup")
        self.waiting = False
        self.trace = False
        self.answer_ms = 0.0
        self.shots: Path | None = None
        self.shot: set[str] = set()
        page.on("requestfinished", self._finished)

    def _finished(self, request: Any) -> None:
        if not self.waiting or "/live/" in request.url or request.resource_type not in {"document", "xhr", "fetch"}:
            return
        timing = request.timing
        if timing["responseEnd"] > 0:
            self.counts.server_ms += timing["responseEnd"]
            self.answer_ms += timing["responseEnd"]

    def control(self, role: str, name: str, within: Any = None) -> Any:
        """The one visible control of ``role`` named ``name``."""
        scope = within or self.page
        found = scope.get_by_role(role, name=name, exact=True).locator("visible=true")
        if found.count() == 0:  # a token from the supply is named by its icon and how many are left: "yellow circle 12"
            found = scope.get_by_role(role, name=re.compile(rf"^{re.escape(name)} \d+$")).locator("visible=true")
        count = found.count()
        if count != 1:
            raise Failure(f"{'no' if count == 0 else count} visible {role} {name!r} on {self.page.url}")
        return found

    def _bring_into_view(self, target: Any) -> None:
        for attempt in range(3):  # the game page's live update may replace the control meanwhile: found again
            try:
                if not target.evaluate(IN_VIEW):
                    target.scroll_into_view_if_needed()
                    self.counts.scrolls += 1
                return
            except PlaywrightError as error:
                if "not attached" not in str(error) or attempt == 2:
                    raise

    def tap(self, role: str, name: str, within: Any = None, *, until: str = "") -> None:
        """Tap the control and wait for the site's answer (a new page or a new entry form; for a part of the
        page swapped in place, until the JavaScript expression ``until`` is true); fail on an error shown."""
        target = self.control(role, name, within)
        if not target.is_enabled():
            raise Failure(f"{role} {name!r} is disabled")
        self._bring_into_view(target)
        before = self.page.evaluate(SCREEN)
        had_form = self.page.evaluate(MARK)
        self.waiting, self.answer_ms = True, 0.0
        try:
            target.tap()
            self.counts.taps += 1
            if until:
                self.page.wait_for_function(f"() => {until}", timeout=20000)
            else:
                self.page.wait_for_function(ANSWERED, arg=had_form, timeout=20000)
            self.page.wait_for_load_state()
        finally:
            self.waiting = False
        self.counts.tap_ms.append(self.answer_ms)
        after = self.page.evaluate(SCREEN)
        if self.trace:
            print(f"  tap {role} {name!r} -> {after} ({self.answer_ms:.0f} ms)", file=sys.stderr)
        if after != before or not had_form:
            self.counts.screens += 1
        self._screenshot()
        error = self.page.locator("#wizard .error, form .errorlist, #game .messages .error")
        if error.count():
            raise Failure(f"the site says: {error.first.inner_text()!r} after {name!r}")

    def _screenshot(self) -> None:
        """With ``--shots``: each stage of each kind of entry (and each page), once, in light and dark."""
        stage = self.page.locator("#wizard fieldset.stage")
        kind = re.sub(r"\d+", "N", self.page.evaluate("location.pathname"))
        key = f"{kind}#{stage.get_attribute('data-stage') if stage.count() else ''}"
        if self.shots is None or key in self.shot:
            return
        self.shot.add(key)
        name = re.sub(r"[^a-z_#]+", "-", key.strip("/")).replace("#", "--").strip("-") or "home"
        for scheme in ("light", "dark"):
            self.page.emulate_media(color_scheme=scheme)
            self.page.screenshot(path=str(self.shots / f"{len(self.shot):02d}-{name}-{scheme}.png"), full_page=True)
        self.page.emulate_media(color_scheme="light")

    def type(self, label: str, text: str) -> None:
        field = self.page.get_by_label(label, exact=True).locator("visible=true")
        self._bring_into_view(field)
        field.fill(text)
        self.counts.typed += 1

    def check(self, label: str) -> None:
        """Tap a radio button or checkbox by its label (no answer from the server)."""
        self.touch(self.page.get_by_label(label, exact=True).locator("visible=true"), label, check=True)

    def touch(self, target: Any, name: str, *, check: bool = False) -> None:
        """Tap a control the page answers by itself, without the server (a radio, a disclosure)."""
        if target.count() != 1:
            raise Failure(f"no single visible {name!r} on {self.page.url}")
        self._bring_into_view(target)
        if check:
            target.check()
        else:
            target.tap()
        self.counts.taps += 1
        if self.trace:
            print(f"  tap {name!r} (on the page)", file=sys.stderr)

    def stage(self) -> str:
        stage = self.page.locator("#wizard fieldset.stage")
        return str(stage.get_attribute("data-stage")) if stage.count() else ""


def by_kind(item: tuple[str, int]) -> int:
    """A reward and its count, in the record's order of kinds (as the site lists them)."""
    return REWARD_ORDER.index(item[0])


def reward_name(reward: str) -> str:
    return reward.replace("-", " ")


def setup(robot: Robot, base: str, record: dict[str, Any]) -> str:
    """Sign up, create a group and the game, claim the first seat; the join link (its QR code, that the other
    phones scan, is on the game page before the first seat is claimed and leads to that player's cards)."""
    page, players, options = robot.page, record["players"], record.get("options", {})
    page.goto(base + "/")
    robot.counts.screens += 1
    robot.tap("link", "Sign up")
    robot.type("Username", "robot")
    robot.type("Password", PASSWORD)
    if page.get_by_label("Password confirmation", exact=True).count():
        robot.type("Password confirmation", PASSWORD)
    robot.tap("button", "Create my account")
    robot.type("New group", "Robot's table")
    robot.tap("button", "Create")
    robot.tap("link", "New game of Okanagan")
    for label, player in zip(SEAT_LABELS, players, strict=False):
        robot.type(label, player)
    if options.get("nugget_ladder") == "fewest_zero":
        robot.check("Fewest nuggets score 0")
    supply = {label: options[key] for key, label in SUPPLY_LABELS.items() if key in options}
    if supply:  # in a disclosure, closed unless the form was sent back
        robot.touch(robot.page.get_by_text(SUPPLY_SUMMARY, exact=True).locator("visible=true"), "summary")
        for label, count in supply.items():
            robot.type(label, str(count))
    if any(event["type"] in {"volcano", "beaver_dam"} for event in record["events"]):
        robot.check("Promo tiles (Volcano, Beaver Dam)")
    robot.tap("button", "Start the game")
    join_url = str(robot.page.locator("a.url").first.inner_text()).strip()
    robot.tap("button", f"I am {players[0]}")
    return join_url


def seat(robot: Robot, join_url: str, player: str) -> None:
    """Another player's phone: it opens the join link (the QR code), joins the table, says who it is."""
    robot.page.goto(join_url)
    robot.counts.screens += 1
    robot.tap("button", "Join this table")
    robot.tap("button", f"I am {player}")  # in round 1, with no card entered yet: on to one's cards


def play_event(
    robot: Robot, event: dict[str, Any], me: str, held: list[tuple[str, frozenset[str]]], revision: str = ""
) -> None:
    """Enter one event from the game page until it is saved (by its last choice, or by Save), back on the game
    page, once this phone's live page shows the game's ``revision`` (it polls every 1.5 s: a person acts on
    what their phone shows). A phone that the site led to its player's cards (after "I am …", or after an
    action that drew new ones) enters them there if that is its next event, else goes back to the game
    first; after round 1, cards the same as those ``held`` are kept in one tap."""
    kind = event["type"]
    if robot.stage():  # the cards entry a claimed seat led to
        if kind == "objectives" and event["player"] == me and "/events/new/objectives/" in robot.page.url:
            return enter(robot, event, me)
        robot.tap("link", "Back to the game")
    if revision:  # a person acts on what their live page shows: it polls every 1.5 s
        shown = "+(document.querySelector('#live-poll')?.dataset.revision ?? -1)"  # the poller's (scoring/live.py)
        robot.page.wait_for_function(f"() => {shown} >= {revision}")
    if kind == "objectives" and event["player"] == me and Counter(map(same_card, event["cards"])) == Counter(held):
        keep = robot.page.locator("#redraw").get_by_role("button", name=re.compile(r"^Keep my \d+ cards?$"))
        if keep.locator("visible=true").count():
            robot.tap("button", str(keep.inner_text()).strip(), robot.page.locator("#redraw"), until=KEPT)
            return
    if kind == "territory":
        robot.tap("link", TERRITORY_BUTTONS[event["territory"]])
    elif kind == "round_end":  # one tap on the game page
        robot.tap("button", EVENT_LINKS[kind])
    else:
        robot.tap("link", EVENT_LINKS[kind])
    enter(robot, event, me)


def enter(robot: Robot, event: dict[str, Any], me: str) -> None:
    """Each step of the entry, until it is saved."""
    for _ in range(400):
        stage = robot.stage()
        if not stage or not robot.page.evaluate("location.pathname").endswith(f"/events/new/{event['type']}/"):
            return  # saved: back on the game page, or on the next thing to enter
        STAGES[stage](robot, event, me)
    raise Failure("the entry never ended")


def counters(robot: Robot, bag: dict[str, int]) -> None:
    """Tap + (or − for a negative count) on each reward counter."""
    for reward, count in bag.items():
        sign = "one more" if count > 0 else "one less"
        for _ in range(abs(count)):
            robot.tap("button", f"{sign} {reward_name(reward)}")


def pressed(robot: Robot, name: str, within: Any = None) -> bool:
    return bool(robot.control("button", name, within).get_attribute("aria-pressed") == "true")


def chips(robot: Robot, bag: dict[str, int]) -> None:
    """Tap the chip of each reward's count (past the last chip, + for each one more)."""
    for reward, count in bag.items():
        name = reward_name(reward)
        if not pressed(robot, f"{min(count, MAX_CHIP)} × {name}"):
            robot.tap("button", f"{min(count, MAX_CHIP)} × {name}")
        for _ in range(count - MAX_CHIP):
            robot.tap("button", f"one more {name}")


def stage_territory(robot: Robot, event: dict[str, Any], me: str) -> None:
    robot.tap("button", TERRITORY_BUTTONS[event["territory"]])


def stage_board(robot: Robot, event: dict[str, Any], me: str) -> None:
    """Who closed it (this phone's player is proposed), the reward icons (the whole pool in one tap when each kind
    of the territory's colour shows once or twice), the buildings grid (a player's warehouse and silo in one tap),
    then the board's answer: the tie, the lone player's choice, the last player's special action, or nobody
    built."""
    closer = robot.page.locator("#wizard [role=group][aria-labelledby=closer-label]")
    if not pressed(robot, event["closed_by"], closer) if closer.count() else False:  # not the question's name
        robot.tap("button", event["closed_by"], closer)
    colour = TERRITORY_COLOURS[event["territory"]]
    rewards = event.get("rewards", {})
    home = {reward: count for reward, count in rewards.items() if reward.startswith(colour + "-")}
    others = {reward: count for reward, count in rewards.items() if reward not in home}
    if len(home) == 3 and all(1 <= count <= MAX_WHOLE_POOL for count in home.values()):  # the whole pool in one tap
        pool = " + ".join(f"{count} × {reward_name(reward)}" for reward, count in sorted(home.items(), key=by_kind))
        robot.tap("button", pool, robot.page.locator("#wizard .pools"))
    else:
        chips(robot, home)
    group = robot.page.locator("#wizard .others")
    for reward, count in others.items():  # icons of other colours: a tap is one more
        for _ in range(count):
            button = group.get_by_role("button", name=re.compile(rf"^{re.escape(reward_name(reward))}: \d+$"))
            robot.tap("button", button.get_attribute("aria-label") or "", group)
    for player, counts in event.get("buildings", {}).items():
        pairs = min(counts.get("warehouse", 0), counts.get("silo", 0))  # a warehouse and a silo: one tap
        for _ in range(pairs):
            robot.tap("button", f"{player}: Warehouse + Silo", robot.page.locator("#wizard .pair"))
        for building, count in counts.items():
            for _ in range(count - (pairs if building in {"warehouse", "silo"} else 0)):
                cell = robot.page.get_by_role(
                    "button", name=re.compile(rf"^{re.escape(player)}, {BUILDING_NAMES[building]}: \d+$")
                )
                robot.tap("button", cell.get_attribute("aria-label") or "")
    # The resolution's first question is asked on the board: its answer ends the board.
    answer = robot.page.locator("#wizard .next.answer")
    if answer.locator("[role=group][aria-labelledby=tie-question]").count():
        stage_order(robot, event, me)
    elif answer.locator("#lone-question").count():  # the rewards, or the special action tapped below the buildings
        if event.get("lone_choice") == "rewards":
            robot.tap("button", "The rewards", answer)
        else:
            stage_action(robot, event, me)
    elif answer.get_by_role("button", name="Nobody built here: save").count():
        robot.tap("button", "Nobody built here: save", answer)
    else:  # the last player's special action, below the buildings
        stage_action(robot, event, me)


def stage_order(robot: Robot, event: dict[str, Any], me: str) -> None:
    """The closer taps the whole order when the orders are offered (a tie of three, or two ties), else the tied
    players from first to last (the last of a group goes by itself)."""
    order = event.get("order")
    if order is None:
        raise Failure("players tie but the record gives no order")
    group = robot.page.locator("#wizard [role=group][aria-labelledby=tie-question]")
    if group.get_by_role("button", name=" > ".join(order), exact=True).count():  # the whole order in one tap
        robot.tap("button", " > ".join(order), group)
        return
    undecided = [name.strip() for name in group.get_by_role("button").all_inner_texts()]
    robot.tap("button", next(player for player in order if player in undecided), group)


def stage_lone(robot: Robot, event: dict[str, Any], me: str) -> None:
    """The rewards, or the special action (its button is the choice too)."""
    if event.get("lone_choice") == "rewards":
        robot.tap("button", "The rewards")
    else:
        stage_action(robot, event, me)


def stage_action(robot: Robot, event: dict[str, Any], me: str) -> None:
    """The action, then its details; the entry moves on by itself once the action is complete."""
    action = event.get("special_action")
    page = robot.page
    if not action:
        robot.tap("button", "Not recorded")
        return
    kind = action["action"]
    with_token = f"{ACTION_BUTTONS[kind]}: {reward_name(action.get('reward', ''))}"
    if page.get_by_role("button", name=with_token, exact=True).locator("visible=true").count():
        robot.tap("button", with_token)  # the action and its token of the supply in one tap
    elif not page.get_by_role("button", name="Another action", exact=True).locator("visible=true").count():
        robot.tap("button", ACTION_BUTTONS[kind])
    if robot.stage() != "action":  # the action left nothing to choose: its details were filled in
        return
    if kind in {"reward_of_shape", "two_rewards"}:
        robot.tap("button", reward_name(action["reward"]))
    elif kind == "gifts":  # a giver who holds one kind only has nothing to choose: no button
        for giver, reward in action.get("from", {}).items():
            if page.get_by_role("button", name=f"{giver}: {reward_name(reward)}", exact=True).count():
                robot.tap("button", f"{giver}: {reward_name(reward)}")
    elif kind == "trade":  # what one gives (filled in when one holds a single kind), then whom with and what
        gives = page.locator("#wizard p:has-text('Gives:') + .row")
        if gives.count():
            robot.tap("button", reward_name(action["give"]), gives)
        get = f"{action['with']}: {reward_name(action['get'])}"
        if page.get_by_role("button", name=get, exact=True).count():  # else the only token to get: filled in
            robot.tap("button", get)
    elif kind in {"exchange_shape", "exchange_colour"}:
        for given, taken in action["swaps"]:
            robot.tap("button", f"{reward_name(given)} → {reward_name(taken)}")
        if robot.stage() == "action":  # one swap, and a second one could be made: it ends with Done
            robot.tap("button", "Done")


def stage_picks(robot: Robot, event: dict[str, Any], me: str) -> None:
    """The current collector's whole take in one chip when it mixes kinds and is offered so, else the count of
    one kind; the turn ends by itself once nothing is left to choose."""
    player = robot.page.locator("#wizard strong.collector").inner_text().strip()
    pick = event.get("picks", {}).get(player, {})
    whole = " + ".join(f"{pick[reward]} × {reward_name(reward)}" for reward in REWARD_ORDER if pick.get(reward))
    if robot.page.locator("#wizard .takes").get_by_role("button", name=whole, exact=True).count():
        robot.tap("button", whole, robot.page.locator("#wizard .takes"))  # a mixed take in one chip
        return
    for reward, count in pick.items():
        name = f"take {count} {'token' if count == 1 else 'tokens'}: {reward_name(reward)}"
        if robot.page.get_by_role("button", name=name, exact=True).count() and not pressed(robot, name):
            robot.tap("button", name)
            return
    raise Failure(f"{player}'s pick {pick} cannot be tapped")


def stage_player(robot: Robot, event: dict[str, Any], me: str) -> None:
    player = event["player"]
    if event["type"] == "objectives":
        robot.tap("button", f"My cards ({me})" if player == me else f"Enter for {player}")
    else:
        robot.tap("button", player)


def stage_reward(robot: Robot, event: dict[str, Any], me: str) -> None:
    robot.tap("button", reward_name(event["reward"]))


def same_card(card: dict[str, Any]) -> tuple[str, frozenset[str]]:
    return card["kind"], frozenset(card["rewards"])


def stage_cards(robot: Robot, event: dict[str, Any], me: str) -> None:
    """The cards one holds are proposed: remove those not kept, then each new one: a full set by its button,
    another set by its icons (the first icon of the next card starts it by itself when it cannot be on the
    card so far: else "Add this card"), save."""
    chosen = robot.page.locator("#wizard .summary[data-stage=player] strong")
    if chosen.count() and chosen.inner_text().strip() != event["player"]:
        robot.tap("button", "Change Player")
        return
    wanted = [same_card(card) for card in event.get("cards", [])]
    shown = robot.page.locator("#wizard fieldset.stage .summary button")
    for number in range(shown.count() - 1, -1, -1):
        label = shown.nth(number).get_attribute("aria-label") or ""
        held = next((card for card in wanted if label == card_label(card)), None)
        if held is None:
            robot.tap("button", label)
            return
        wanted.remove(held)
    tapping: list[Reward] = []  # the icons of the card being tapped
    for kind, rewards in wanted:
        icons = sorted((Reward(reward) for reward in rewards), key=list(Reward).index)
        if kind == "specific":
            robot.tap("button", f"card of one {reward_name(icons[0])}")
            continue
        if len(icons) == (3 if kind == "territory" else 4):  # a full set: its button
            if tapping and set(tapping) <= set(icons):  # else the icons so far would complete into it
                robot.tap("button", "Add this card")
            robot.tap("button", full_set_name(kind, icons[0]))
            tapping = []
            continue
        # An icon of the card so far would be untapped, not start the next card.
        starters = [icon for icon in icons if icon not in tapping and not on_one_card([*tapping, icon])]
        if tapping and not starters:
            robot.tap("button", "Add this card")
        elif starters:  # the icon that starts this card first
            icons.remove(starters[0])
            icons.insert(0, starters[0])
        for icon in icons:
            robot.tap("button", reward_name(icon))
        tapping = icons
    if robot.stage() == "cards":  # a third card complete saves the cards by itself
        robot.tap("button", "Save these cards")


def full_set_name(kind: str, reward: Reward) -> str:
    """The name of a full set card's button: its colour's (territory) or its shape's."""
    if kind == "territory":
        return f"All 3 {reward.colour.value}: territory set"
    return f"All 4 {reward.shape.value}s: shape set"


def card_label(card: tuple[str, frozenset[str]]) -> str:
    """The name of a card's Remove button."""
    kind, rewards = card
    icons = " ".join(reward_name(reward) for reward in sorted(rewards, key=REWARD_ORDER.index))
    return f"Remove {CARD_BUTTONS[kind]} {icons}"


def stage_changes(robot: Robot, event: dict[str, Any], me: str) -> None:
    counters(robot, event.get("rewards", {}))
    nuggets = event.get("nuggets", 0)
    for _ in range(abs(nuggets)):
        robot.tap("button", "one more gold nugget" if nuggets > 0 else "one gold nugget less")
    if event.get("note"):
        robot.type("Why (optional)", event["note"])
    robot.tap("button", "Save")


def stage_confirm(robot: Robot, event: dict[str, Any], me: str) -> None:
    robot.tap("button", "Save")


STAGES = {
    "territory": stage_territory,
    "board": stage_board,
    "order": stage_order,
    "lone": stage_lone,
    "action": stage_action,
    "picks": stage_picks,
    "player": stage_player,
    "reward": stage_reward,
    "cards": stage_cards,
    "changes": stage_changes,
    "confirm": stage_confirm,
}


def finish(robot: Robot) -> list[dict[str, int | str]]:
    """End the game (the finish page asks first) and read the final scores."""
    if robot.stage():  # still on the cards entry "I am …" led to (a record with no objective cards)
        robot.tap("link", "Back to the game")
    robot.tap("link", "End the game and score it")
    robot.tap("button", "End the game and score it")
    rows = robot.page.locator("#final tbody tr")
    keys = ("explorer_points", "objective_points", "nugget_points", "total")
    scores: list[dict[str, int | str]] = []
    for number in range(rows.count()):  # by rank: the place, the name, then each part
        cells = [cell.strip() for cell in rows.nth(number).locator("td").all_inner_texts()]
        parts = {key: int(value) for key, value in zip(keys, cells[2:], strict=True)}
        scores.append({"name": cells[1], **parts, "rank": int(cells[0])})
    return scores


def expected_scores(path: Path) -> list[dict[str, int | str]]:
    """What ``python -m rules score`` gives for the record, in the final table's columns."""
    run = subprocess.run([sys.executable, "-m", "rules", "score", str(path)], cwd=ROOT, capture_output=True, text=True)
    if run.returncode:
        raise RulesError(run.stderr.strip())
    keys = ("name", "explorer_points", "objective_points", "nugget_points", "total", "rank")
    players = sorted(json.loads(run.stdout)["players"], key=lambda player: player["rank"])  # as the site lists them
    return [{key: player[key] for key in keys} for player in players]


def summary(parts: list[Counts], territories: list[Counts]) -> dict[str, Any]:
    taps = [part.taps for part in territories]
    decisions = [part.decisions or 0 for part in territories]
    events = [part for part in parts if isinstance(part.index, int)]
    event_taps = sum(part.taps for part in events)
    by_phone: dict[int, int] = {}
    for part in events:
        by_phone[part.phone] = by_phone.get(part.phone, 0) + part.taps
    answers = sorted(ms for part in events for ms in part.tap_ms)
    return {
        "taps": sum(part.taps for part in parts),
        "typed": sum(part.typed for part in parts),
        "scrolls": sum(part.scrolls for part in parts),
        "screens": sum(part.screens for part in parts),
        "server_ms": round(sum(part.server_ms for part in parts), 1),
        "event_taps": event_taps,
        "event_taps_by_phone": {str(phone): taps for phone, taps in sorted(by_phone.items())},
        "busiest_phone_share": round(max(by_phone.values()) / event_taps, 3) if event_taps else 0,
        "territories": len(taps),
        "territory_taps": ({"min": min(taps), "median": statistics.median(taps), "max": max(taps)} if taps else None),
        "territory_decisions": (
            {"min": min(decisions), "median": statistics.median(decisions), "max": max(decisions)} if taps else None
        ),
        "territory_taps_without_a_decision": sum(taps) - sum(decisions),
        "territory_screens_max": max((part.screens for part in territories), default=0),
        "answer_ms_per_tap": (
            {
                "median": round(statistics.median(answers), 1),
                "p95": round(answers[max(0, -(-len(answers) * 95 // 100) - 1)], 1),
                "max": round(answers[-1], 1),
            }
            if answers
            else None
        ),
    }


def territory_decisions(record: dict[str, Any]) -> dict[int, int]:
    """What a person must express of each territory, counted from the record and the game as it stands before
    it (``rules`` says what is forced): which territory; each kind of icon (its count); each building; the order
    of each group of tied players (a choice for each of them but the last); the lone player's choice; the
    special action and each of its details that leaves a choice (a token of the supply among several, each
    giver holding several kinds, what one gives and what one gets when there is a choice, each swap, and
    stopping after one swap when a second could be made); each collector's pick that leaves a choice; that
    nobody built there, when nobody did. The closer is not counted: the phone proposes its player, who closes
    the territories it enters."""
    parsed = parse_record(record)
    state = new_game(parsed.players, parsed.options)
    counts: dict[int, int] = {}
    for index, (event, raw) in enumerate(zip(parsed.events, record["events"], strict=True)):
        if raw["type"] == "territory":
            counts[index] = _decisions(state, parsed.players, raw)
        apply_event(state, event, index)
    return counts


def _decisions(state: GameState, players: tuple[str, ...], raw: dict[str, Any]) -> int:
    answer = answer_territory(state, parse_territory_so_far(players, raw), action_answered=True)
    count = 1 + len(raw.get("rewards", {})) + sum(sum(kinds.values()) for kinds in raw.get("buildings", {}).values())
    count += sum(len(tied) - 1 for tied in answer.report.ties)  # the closer puts all but the last of each in order
    count += (answer.report.lone is not None) + (not answer.report.influence)  # the lone choice; nobody built
    action = raw.get("special_action")
    if answer.recipient is not None:
        count += 1  # the action, or "Not recorded"
    if answer.recipient is not None and action:
        options = special_action_options(state, answer.recipient, collects=answer.report.lone is None)
        kind = SpecialActionKind(action["action"])
        if kind in {SpecialActionKind.REWARD_OF_SHAPE, SpecialActionKind.TWO_REWARDS}:
            count += len(options.supply) > 1
        elif kind is SpecialActionKind.GIFTS:
            count += sum(len(kinds) > 1 for kinds in options.holders.values())
        elif kind is SpecialActionKind.TRADE:
            count += (len(options.own) > 1) + (sum(map(len, options.holders.values())) > 1)
        elif "swaps" in action:
            swaps = [(Reward(given), Reward(taken)) for given, taken in action["swaps"]]
            count += len(swaps) + (len(swaps) == 1 and bool(exchange_options(state, answer.recipient, kind, swaps)))
    return count + sum(turn.settled({}) is None for turn in answer.turns)


def actor(record: dict[str, Any], event: dict[str, Any]) -> int:
    """The seat of the phone an event is entered on: the closer's, the player's, else the first."""
    name = event.get("closed_by", event.get("player"))
    return record["players"].index(name) if name in record["players"] else 0


def play(
    record: dict[str, Any],
    wanted: list[dict[str, int | str]],
    *,
    trace: bool = False,
    one_phone: bool = False,
    shots: Path | None = None,
) -> tuple[dict[str, Any], str | None]:
    """Play ``record`` on a fresh site; the report and the failure, if any."""
    port = free_port()
    parts: list[Counts] = []
    failure: str | None = None
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        env = production_env(f"sqlite:///{folder}/robot.sqlite3")
        prepare(env)
        server = serve(env, port, workers=2)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)

                def phone() -> Robot:
                    context = browser.new_context(
                        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
                    )
                    context.set_default_timeout(20000)
                    robot = Robot(context.new_page())
                    robot.trace, robot.shots = trace, shots
                    if phones:  # one set of screenshots for the table
                        robot.shot = phones[0].shot
                    return robot

                phones: list[Robot] = []
                phones.append(phone())
                robot = phones[0]
                try:
                    parts.append(robot.counts)
                    join_url = setup(robot, base, record)
                    if not one_phone:
                        for player in record["players"][1:]:
                            phones.append(phone())
                            phones[-1].counts = robot.counts
                            seat(phones[-1], join_url, player)
                    held: dict[str, list[tuple[str, frozenset[str]]]] = {}
                    decisions = territory_decisions(record)
                    revision = ""  # the game's, as the phone that entered the last event shows it
                    for index, event in enumerate(record["events"]):
                        seat_number = 0 if one_phone else actor(record, event)
                        robot = phones[seat_number]
                        robot.counts = Counts(index, event["type"])
                        robot.counts.phone = seat_number
                        robot.counts.decisions = decisions.get(index)
                        parts.append(robot.counts)
                        me = record["players"][seat_number]
                        play_event(robot, event, me, held.get(me, []), revision)
                        revision = robot.page.evaluate(REVISION)
                        if event["type"] == "objectives":
                            held[event["player"]] = [same_card(card) for card in event["cards"]]
                    robot = phones[0]
                    robot.counts = Counts("end", "end")
                    parts.append(robot.counts)
                    scores = finish(robot)
                    if scores != wanted:
                        failure = f"final scores differ: the site {scores}, rules {wanted}"
                except Exception as error:  # noqa: BLE001 - any failure is reported with its event
                    where = robot.counts.index
                    name = f"event {where} ({robot.counts.kind})" if isinstance(where, int) else str(where)
                    failure = f"{name}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
                browser.close()
        finally:
            server.terminate()
            server.wait()
    territories = [part for part in parts if part.kind == "territory"]
    report = {"events": [part.as_json() for part in parts], "totals": summary(parts, territories)}
    return report, failure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("record", type=Path)
    parser.add_argument("--totals", action="store_true", help="print the totals only, not each event")
    parser.add_argument("--trace", action="store_true", help="each tap and the screen after it, on stderr")
    parser.add_argument("--one-phone", action="store_true", help="enter every event on the first phone")
    parser.add_argument("--shots", type=Path, help="a folder for a screenshot of each stage, light and dark")
    args = parser.parse_args(argv)
    try:
        record = read_json(args.record.read_text(encoding="utf-8"))
        parse_record(record)
        wanted = expected_scores(args.record.resolve())
        if not isinstance(record, dict):
            raise RulesError("a record is a JSON object")
    except (OSError, RulesError) as error:
        print(f"error: {args.record}: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    report, failure = play(record, wanted, trace=args.trace, one_phone=args.one_phone, shots=args.shots)
    report = {"record": str(args.record), **report, "seconds": round(time.perf_counter() - start, 1)}
    if args.totals:
        report = {"record": report["record"], "totals": report["totals"], "seconds": report["seconds"]}
    print(json.dumps(report, indent=1))
    if failure:
        print(f"error: {args.record}: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
