"""Template helpers: reward tokens drawn as their coloured shapes, and explanations in the reader's language."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from rules import Reward, Shape
from scoring.wording import explain, label, reward_label, say

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
def get(mapping: object, key: object) -> object:
    """``mapping[key]``, or 0 when absent (for counters)."""
    return mapping.get(key, 0) if isinstance(mapping, dict) else 0
