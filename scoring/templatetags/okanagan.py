"""Template helpers: reward tokens drawn as their coloured shapes, and explanations in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from rules import Reward, Shape, SpecialActionKind, Step
from scoring.wording import WORDS, explain, label, reward_label, say

register = template.Library()

SHAPE_PATHS = {
    Shape.SQUARE: '<rect x="3" y="3" width="18" height="18" rx="2"/>',
    Shape.CIRCLE: '<circle cx="12" cy="12" r="10"/>',
    Shape.HEXAGON: '<polygon points="12,1.5 21.5,7 21.5,17 12,22.5 2.5,17 2.5,7"/>',
}


@register.simple_tag
def token(reward: Reward | str, size: int = 24) -> SafeString:
    """A reward token as an SVG of its shape in its colour, labelled for screen readers."""
    reward = Reward(reward)
    text = reward_label(reward)
    return format_html(
        '<svg class="token {}" width="{}" height="{}" viewBox="0 0 24 24" role="img" aria-label="{}">'
        "<title>{}</title>{}</svg>",
        reward.colour.value,
        size,
        size,
        text,
        text,
        SafeString(SHAPE_PATHS[reward.shape]),
    )


register.filter(reward_label)
register.filter(explain)
register.filter(label)
register.filter(say)


@register.filter
def listing(items: Iterable[str]) -> str:
    """Names joined as the reader's language joins a list in a sentence: "Ann, Ben, and Cy", "Ann, Ben et Cy"."""
    return WORDS.listing([str(item) for item in items])


@register.filter
def get(mapping: object, key: object) -> object:
    """``mapping[key]``, or 0 when absent (for counters)."""
    return mapping.get(key, 0) if isinstance(mapping, dict) else 0


# The app's own pictograms of the special actions, drawn beside their names (the tiles' printed pictures are
# not known to us: these do not copy them).
ACTION_PATHS: dict[str, str] = {
    SpecialActionKind.REWARD_OF_SHAPE: '<rect x="2" y="8" width="8" height="8"/><circle cx="17" cy="12" r="4.5"/>',
    SpecialActionKind.TWO_REWARDS: '<circle cx="8" cy="12" r="5"/><circle cx="16" cy="12" r="5"/>',
    SpecialActionKind.CHOOSE_FIRST: '<circle cx="12" cy="12" r="9"/><path d="M10 8l3-2v12"/>',
    SpecialActionKind.GOLD_NUGGET: '<path d="M4 15l3-7 6-2 6 4 1 6-6 3-7-1z" fill="#d4a017"/>',
    SpecialActionKind.NEW_OBJECTIVES: (
        '<rect x="3" y="5" width="10" height="14" rx="1"/><rect x="11" y="3" width="10" height="14" rx="1"/>'
    ),
    SpecialActionKind.GIFTS: (
        '<rect x="4" y="10" width="16" height="10"/><path d="M3 7h18v3H3zM12 7v13M12 7c-2-4-6-4-5-1M12 7c2-4 6-4 5-1"/>'
    ),
    SpecialActionKind.TRADE: '<path d="M4 8h14l-3-3M20 16H6l3 3"/>',
    SpecialActionKind.NEW_TILES: (
        '<polygon points="7,3 12,6 12,12 7,15 2,12 2,6"/><polygon points="17,9 22,12 22,18 17,21 12,18 12,12"/>'
    ),
    SpecialActionKind.EXCHANGE_SHAPE: (
        '<rect x="2" y="4" width="7" height="7"/>'
        '<circle cx="17.5" cy="16.5" r="4"/>'
        '<path d="M9 14h4l-2 -2M15 9h-4l2 2"/>'
    ),
    SpecialActionKind.EXCHANGE_COLOUR: (
        '<circle cx="6" cy="7" r="4" fill="#2e7d32"/><circle cx="18" cy="17" r="4" fill="#1565c0"/><path d="M10 12h4"/>'
    ),
}


@register.simple_tag
def action_icon(kind: str, size: int = 28) -> SafeString:
    """The app's pictogram of a special action (decorative: the action's name is written beside it)."""
    return format_html(
        '<svg class="action-icon" width="{}" height="{}" viewBox="0 0 24 24" aria-hidden="true" fill="none" '
        'stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">{}</svg>',
        size,
        size,
        SafeString(ACTION_PATHS.get(kind, "")),
    )


@register.inclusion_tag("scoring/_steps.html")
def steps(items: Iterable[Step | tuple[str, str]], links: bool = True, here: bool = False) -> dict[str, object]:
    """An explanation as a list: each step in the reader's language (a :class:`Step`, or a (text, rule) pair
    explained already), with a link to the rule it cites, on the rules page with that rule's game first
    (``here``: on the rules page itself, its anchor alone)."""
    rows = []
    for item in items:
        text, rule = (explain(item), item.rule) if isinstance(item, Step) else item
        page = "" if here else f"{reverse('rules')}?game={rule.partition('.')[0]}"
        rows.append((text, rule, f"{page}#{rule}"))
    return {"rows": rows, "links": links}
