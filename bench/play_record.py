"""A robot that plays an Okanagan record through the site's UI, as a person on a phone would.

    .venv/bin/python bench/play_record.py RECORD.json

Starts the site as in production (gunicorn, a fresh SQLite database), signs up, creates a group and a
game with the record's players (in seat order) and options, claims the first seat ("I am …"), then
enters every event of the record in Chromium at 390×844 (mobile, touch): it taps only visible, enabled
controls found by their role and accessible name, scrolls a control into view when it is off screen, and
never posts a form itself nor imports the record. It ends the game (confirming on the finish page) and
checks that the final scores (the ``#final`` table: Explorer, objectives, nuggets, total, rank per
player) equal what ``rules`` scores for the record.

It prints JSON: the setup, each event and the end, then the totals, each with

- ``taps``: controls tapped (a radio of the tie-break and "Enter for …" count; typing does not);
- ``typed``: fields typed (names at setup, a correction's note);
- ``scrolls``: times a control to tap was off screen and had to be scrolled into view;
- ``screens``: what the person sees change as a new step: a page load, or a swap of the entry form whose
  current stage is another one (for the collection, another collector); a + that only changes a count
  is no new screen;
- ``server_ms``: time spent waiting for the server's answers to this event's taps (pages and form swaps,
  request start to response end; the game page's polls are left out).

It exits with status 1, naming the event, when a control is missing, the site shows an error, or a
final score differs; with status 2 when the record is invalid. The new-game form sets every option a
record may hold (the supply is in a disclosure, opened only for a record that sets it). A correction that
changes nothing (valid in the format, refused by the site, scoring nothing) is skipped and marked so in the
output.
The "Icons of other colours" disclosure is found by its text: a ``<summary>`` has no role Playwright knows.
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
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.production import free_port, prepare, production_env, serve  # noqa: E402
from rules import RulesError  # noqa: E402
from rules.reading import read_json  # noqa: E402
from rules.record import parse_record  # noqa: E402
from tests.conftest import CHROMIUM_FLAGS, chromium_path  # noqa: E402

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
ANSWERED = "(hadForm) => !window.__robot || (hadForm && !document.querySelector('#wizard[data-robot]'))"
IN_VIEW = """(e) => {
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
}"""
SCREEN = """() => {
  const stage = document.querySelector('#wizard fieldset.stage');
  if (!stage) return location.pathname;
  const who = stage.dataset.stage === 'picks' ? (stage.querySelector('p > strong') || {}).textContent : '';
  return location.pathname + '#' + stage.dataset.stage + ':' + who;
}"""


class Failure(Exception):
    """The robot could not go on, or the site disagrees with the rules."""


class Skipped(Exception):
    """An event a person cannot enter and need not: it changes nothing."""


class Counts:
    """What one part of the game cost the person."""

    def __init__(self, index: int | str, kind: str) -> None:
        self.index, self.kind = index, kind
        self.taps = self.typed = self.scrolls = self.screens = 0
        self.server_ms = 0.0
        self.skipped = ""

    def as_json(self) -> dict[str, Any]:
        return ({"skipped": self.skipped} if self.skipped else {}) | {
            "index": self.index,
            "type": self.kind,
            "taps": self.taps,
            "typed": self.typed,
            "scrolls": self.scrolls,
            "screens": self.screens,
            "server_ms": round(self.server_ms, 1),
        }


class Robot:
    """A person on one phone: taps what they see, scrolls when it is not in view, reads the screen."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.counts = Counts("setup", "setup")
        self.waiting = False
        self.trace = False
        page.on("requestfinished", self._finished)

    def _finished(self, request: Any) -> None:
        if not self.waiting or "/live/" in request.url or request.resource_type not in {"document", "xhr", "fetch"}:
            return
        timing = request.timing
        if timing["responseEnd"] > 0:
            self.counts.server_ms += timing["responseEnd"]

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
        if not target.evaluate(IN_VIEW):
            target.scroll_into_view_if_needed()
            self.counts.scrolls += 1

    def tap(self, role: str, name: str, within: Any = None) -> None:
        """Tap the control and wait for the site's answer (a new page or a new entry form); fail on an error
        shown."""
        target = self.control(role, name, within)
        if not target.is_enabled():
            raise Failure(f"{role} {name!r} is disabled")
        self._bring_into_view(target)
        before = self.page.evaluate(SCREEN)
        had_form = self.page.evaluate(MARK)
        self.waiting = True
        try:
            target.tap()
            self.counts.taps += 1
            self.page.wait_for_function(ANSWERED, arg=had_form, timeout=20000)
            self.page.wait_for_load_state()
        finally:
            self.waiting = False
        after = self.page.evaluate(SCREEN)
        if self.trace:
            print(f"  tap {role} {name!r} -> {after}", file=sys.stderr)
        if after != before or not had_form:
            self.counts.screens += 1
        error = self.page.locator("#wizard .error, form .errorlist")
        if error.count():
            raise Failure(f"the site says: {error.first.inner_text()!r} after {name!r}")

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


def reward_name(reward: str) -> str:
    return reward.replace("-", " ")


def setup(robot: Robot, base: str, record: dict[str, Any]) -> None:
    """Sign up, create a group and the game, claim the first seat."""
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
    robot.tap("button", f"I am {players[0]}")


def play_event(robot: Robot, event: dict[str, Any], me: str) -> None:
    """Enter one event from the game page to its Save, back on the game page."""
    kind = event["type"]
    if kind == "adjust" and not any(event.get("rewards", {}).values()) and not event.get("nuggets"):
        raise Skipped("a correction that changes nothing: the site refuses it, and it scores nothing")
    if kind == "territory":
        robot.tap("link", "Score a territory")
    else:
        robot.tap("link", EVENT_LINKS[kind])
    for _ in range(400):
        stage = robot.stage()
        if not stage:
            return  # saved: back on the game page
        STAGES[stage](robot, event, me)
    raise Failure("the entry never ended")


def counters(robot: Robot, bag: dict[str, int]) -> None:
    """Tap + (or − for a negative count) on each reward counter."""
    for reward, count in bag.items():
        sign = "one more" if count > 0 else "one less"
        for _ in range(abs(count)):
            robot.tap("button", f"{sign} {reward_name(reward)}")


def stage_territory(robot: Robot, event: dict[str, Any], me: str) -> None:
    robot.tap("button", TERRITORY_BUTTONS[event["territory"]])


def stage_rewards(robot: Robot, event: dict[str, Any], me: str) -> None:
    colour = TERRITORY_COLOURS[event["territory"]]
    rewards = event.get("rewards", {})
    home = {reward: count for reward, count in rewards.items() if reward.startswith(colour + "-")}
    others = {reward: count for reward, count in rewards.items() if reward not in home}
    counters(robot, home)  # first: a + on a home icon closes the other colours again
    if others and not robot.page.locator("#wizard details[open]").count():
        # A <summary> has no ARIA role Playwright knows: found by its visible text instead.
        robot.touch(robot.page.get_by_text("Icons of other colours", exact=True).locator("visible=true"), "summary")
    counters(robot, others)
    robot.tap("button", "Next")


def stage_buildings(robot: Robot, event: dict[str, Any], me: str) -> None:
    for player, counts in event.get("buildings", {}).items():
        for building, count in counts.items():
            for _ in range(count):
                robot.tap("button", f"one more {BUILDING_NAMES[building]} {player}")
    robot.tap("button", "Next")


def stage_closer(robot: Robot, event: dict[str, Any], me: str) -> None:
    robot.tap("button", event["closed_by"])


def stage_order(robot: Robot, event: dict[str, Any], me: str) -> None:
    """Each tied group offers every order as a radio: choose the record's (the first is chosen already)."""
    order = event.get("order")
    if order is None:
        raise Failure("players tie but the record gives no order")
    groups = robot.page.locator("#wizard [role=radiogroup]")
    for number in range(groups.count()):
        labels = groups.nth(number).locator("label").all_inner_texts()
        tied = set(labels[0].strip().split(" > "))
        wanted = " > ".join(player for player in order if player in tied)
        if wanted not in [label.strip() for label in labels]:
            raise Failure(f"the order {wanted} is not offered")
        if wanted != labels[0].strip():
            robot.check(wanted)
    robot.tap("button", "This order")


def stage_lone(robot: Robot, event: dict[str, Any], me: str) -> None:
    choice = event.get("lone_choice")
    robot.tap("button", "The special action" if choice == "special_action" else "The rewards")


def stage_action(robot: Robot, event: dict[str, Any], me: str) -> None:
    """The action, then its details; the entry moves on by itself once the action is complete."""
    action = event.get("special_action")
    page = robot.page
    if not action:
        robot.tap("button", "Not recorded")
        return
    kind = action["action"]
    if not page.get_by_role("button", name="Another action", exact=True).locator("visible=true").count():
        robot.tap("button", ACTION_BUTTONS[kind])
    if kind in {"reward_of_shape", "two_rewards"}:
        robot.tap("button", reward_name(action["reward"]))
    elif kind == "gifts":
        for giver, reward in action.get("from", {}).items():
            robot.tap("button", f"{giver}: {reward_name(reward)}")
    elif kind == "trade":
        robot.tap("button", action["with"])
        robot.tap("button", reward_name(action["give"]), page.locator("#wizard p:has-text('Gives:') + .row"))
        robot.tap("button", reward_name(action["get"]), page.locator("#wizard p:has-text('Gets:') + .row"))
    elif kind in {"exchange_shape", "exchange_colour"}:
        for given, taken in action["swaps"]:
            robot.tap("button", f"{reward_name(given)} → {reward_name(taken)}")
        if len(action["swaps"]) < 2:
            robot.tap("button", "Done")


def stage_picks(robot: Robot, event: dict[str, Any], me: str) -> None:
    """The current collector takes their pick, then is done."""
    player = robot.page.locator("#wizard fieldset.stage > p > strong").first.inner_text().strip()
    counters(robot, event.get("picks", {}).get(player, {}))
    robot.tap("button", f"{player} is done")


def stage_player(robot: Robot, event: dict[str, Any], me: str) -> None:
    player = event["player"]
    if event["type"] == "objectives":
        robot.tap("button", f"My cards ({me})" if player == me else f"Enter for {player}")
    else:
        robot.tap("button", player)


def stage_reward(robot: Robot, event: dict[str, Any], me: str) -> None:
    robot.tap("button", reward_name(event["reward"]))


def stage_cards(robot: Robot, event: dict[str, Any], me: str) -> None:
    """This phone's player's cards are proposed: another player's need "Change", then "Enter for …"."""
    chosen = robot.page.locator("#wizard .summary[data-stage=player] strong")
    if chosen.count() and chosen.inner_text().strip() != event["player"]:
        robot.tap("button", "Change Player")
        return
    for card in event.get("cards", []):
        robot.tap("button", CARD_BUTTONS[card["kind"]])
        for reward in card["rewards"]:
            robot.tap("button", reward_name(reward))
        robot.tap("button", "Add this card")
    robot.tap("button", "These are the cards kept")


def stage_changes(robot: Robot, event: dict[str, Any], me: str) -> None:
    counters(robot, event.get("rewards", {}))
    nuggets = event.get("nuggets", 0)
    for _ in range(abs(nuggets)):
        robot.tap("button", f"{'one more' if nuggets > 0 else 'one less'} Gold nuggets")
    if event.get("note"):
        robot.type("Why (optional)", event["note"])
    robot.tap("button", "Next")


def stage_confirm(robot: Robot, event: dict[str, Any], me: str) -> None:
    robot.tap("button", "Save")


STAGES = {
    "territory": stage_territory,
    "rewards": stage_rewards,
    "buildings": stage_buildings,
    "closer": stage_closer,
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
    robot.tap("link", "End the game and score it")
    robot.tap("button", "End the game and score it")
    rows = robot.page.locator("#final tbody tr")
    keys = ("explorer_points", "objective_points", "nugget_points", "total", "rank")
    scores: list[dict[str, int | str]] = []
    for number in range(rows.count()):
        cells = [cell.strip() for cell in rows.nth(number).locator("td").all_inner_texts()]
        scores.append({"name": cells[0]} | {key: int(value) for key, value in zip(keys, cells[1:], strict=True)})
    return scores


def expected_scores(path: Path) -> list[dict[str, int | str]]:
    """What ``python -m rules score`` gives for the record, in the final table's columns."""
    run = subprocess.run([sys.executable, "-m", "rules", "score", str(path)], cwd=ROOT, capture_output=True, text=True)
    if run.returncode:
        raise RulesError(run.stderr.strip())
    keys = ("name", "explorer_points", "objective_points", "nugget_points", "total", "rank")
    return [{key: player[key] for key in keys} for player in json.loads(run.stdout)["players"]]


def summary(parts: list[Counts], territories: list[Counts]) -> dict[str, Any]:
    taps = [part.taps for part in territories]
    return {
        "taps": sum(part.taps for part in parts),
        "typed": sum(part.typed for part in parts),
        "scrolls": sum(part.scrolls for part in parts),
        "screens": sum(part.screens for part in parts),
        "server_ms": round(sum(part.server_ms for part in parts), 1),
        "event_taps": sum(part.taps for part in parts if isinstance(part.index, int)),
        "territories": len(taps),
        "territory_taps": ({"min": min(taps), "median": statistics.median(taps), "max": max(taps)} if taps else None),
    }


def play(
    record: dict[str, Any], wanted: list[dict[str, int | str]], *, trace: bool = False
) -> tuple[dict[str, Any], str | None]:
    """Play ``record`` on a fresh site; the report and the failure, if any."""
    port = free_port()
    parts: list[Counts] = []
    failure: str | None = None
    with tempfile.TemporaryDirectory() as folder:
        env = production_env(f"sqlite:///{folder}/robot.sqlite3")
        prepare(env)
        server = serve(env, port, workers=2)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
                context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
                context.set_default_timeout(20000)
                robot = Robot(context.new_page())
                robot.trace = trace
                try:
                    parts.append(robot.counts)
                    setup(robot, f"http://127.0.0.1:{port}", record)
                    for index, event in enumerate(record["events"]):
                        robot.counts = Counts(index, event["type"])
                        parts.append(robot.counts)
                        try:
                            play_event(robot, event, record["players"][0])
                        except Skipped as skipped:
                            robot.counts.skipped = str(skipped)
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
    args = parser.parse_args(argv)
    try:
        record = read_json(args.record.read_text(encoding="utf-8"))
        parse_record(record)
        wanted = expected_scores(args.record.resolve())
    except (OSError, RulesError) as error:
        print(f"error: {args.record}: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    report, failure = play(record, wanted, trace=args.trace)
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
