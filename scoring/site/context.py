"""Template context: what every page has (the context processors), and the home page's, which more than
one view renders."""

from __future__ import annotations

from django.http import HttpRequest

from rules import RULES, EventType, Game, LoneChoice, Source, SpecialActionKind
from scoring.forms import GroupForm, JoinForm, RestoreForm
from scoring.http import HtmxHttpRequest

THEMES = ("auto", "dark", "light")
THEME_COOKIE = "theme"


def theme(request: HttpRequest) -> dict[str, str]:
    """The reader's light/dark choice (``auto`` follows the phone's setting), and the next one to offer."""
    chosen = request.COOKIES.get(THEME_COOKIE, "auto")
    chosen = chosen if chosen in THEMES else "auto"
    return {"theme": chosen, "next_theme": THEMES[(THEMES.index(chosen) + 1) % len(THEMES)]}


IDENTIFIERS: dict[str, object] = {
    "kinds": {kind.name: kind for kind in EventType},
    "actions": {action.name: action for action in SpecialActionKind},
    "lone_choices": {choice.name: choice for choice in LoneChoice},
    "sheet_games": [game for game in Game if game is not Game.OKANAGAN],
}


def identifiers(request: HttpRequest) -> dict[str, object]:
    """The identifiers of ``rules`` that templates compare with or link to, by name: ``kinds.VOLCANO``,
    ``actions.GIFTS``, ``lone_choices.REWARDS`` (so that no template spells ``"volcano"`` again), and the
    games scored from a sheet."""
    return IDENTIFIERS


def home_context(request: HtmxHttpRequest, **forms: object) -> dict[str, object]:
    """The home page's context, with ``forms`` that carry errors in place of the empty ones."""
    groups = request.user.play_groups.order_by("name") if request.user.is_authenticated else []
    printed = sum(rule.source in {Source.RULEBOOK, Source.GAME_HELP} for rule in RULES)
    return {
        "groups": groups,
        "group_form": GroupForm(),
        "join_form": JoinForm(),
        "restore_form": RestoreForm(),
        "rule_count": len(RULES),
        "printed_count": printed,
        **forms,
    }
