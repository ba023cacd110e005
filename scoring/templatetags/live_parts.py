"""The parts of a polled live fragment and its poller (scoring/live/parts.py says how a changed poll uses them)."""

from __future__ import annotations

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

from scoring.live.parts import HEADER, PART_NAME, POLLER_ID, Part, digest, parts_of

register = template.Library()


def _csrf_token_used(context: Context) -> str:
    """This answer's CSRF token if its rendering used it (a form), else ``""``: asking for it then would make
    the answer set the CSRF cookie (Django marks a request whose token was asked for, in its ``META``)."""
    request = context.get("request")
    if request is None or not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return ""
    return str(context.get("csrf_token", ""))


class LivePartNode(template.Node):
    def __init__(self, name: str, nodelist: NodeList, *, shared: bool) -> None:
        self.name = name
        self.nodelist = nodelist
        self.shared = shared

    def render(self, context: Context) -> SafeString:
        parts = parts_of(context)
        shared = parts.shared if self.shared else None
        content = None if shared is None else shared.get(self.name, lambda: str(context.get("csrf_token", "")))
        if content is None:
            content = self.nodelist.render(context)
            if shared is not None:
                shared.keep(self.name, content, _csrf_token_used(context))
        part = Part(self.name, digest(content, _csrf_token_used(context)), content)
        parts.parts.append(part)
        return part.element()


@register.tag
def livepart(parser: Parser, token: Token) -> LivePartNode:
    """``{% livepart "name" %}…{% endlivepart %}``: one part of the live fragment, sent again by a changed poll
    only when its content changed. Every part of a fragment has its own name, of lowercase letters and hyphens;
    a fragment's parts are the same whatever the game's state (a part may be empty).

    ``{% livepart "name" shared %}``: a part that is the same for every phone polling this version of the
    fragment (nothing of the phone's: no seat, no entry, no "you", no session's form but a CSRF token), which a
    poll that shares parts (scoring/live/parts.py) renders once for all of them."""
    bits = token.split_contents()
    shared = len(bits) == 3 and bits[2] == "shared"
    if shared:
        bits = bits[:2]
    name = bits[1][1:-1] if len(bits) == 2 and bits[1][0] == bits[1][-1] and bits[1][0] in "\"'" else ""
    if not PART_NAME.fullmatch(name):
        raise template.TemplateSyntaxError(
            'livepart takes one quoted name, and "shared" if it is: {% livepart "scoreboard" shared %}'
        )
    nodelist = parser.parse(("endlivepart",))
    parser.delete_first_token()
    return LivePartNode(name, nodelist, shared=shared)


class LivePollNode(template.Node):
    def __init__(self, target: FilterExpression) -> None:
        self.target = target

    def render(self, context: Context) -> SafeString:
        parts = parts_of(context)
        poller = context.template.engine.get_template("scoring/_live_poll.html")  # type: ignore[union-attr]
        pushed = {"live_target": self.target.resolve(context), "live_held": parts.held(), "live_header": HEADER}
        with context.push(pushed, live_poller=POLLER_ID):
            parts.poller = poller.render(context)
        return mark_safe(parts.poller)


@register.tag
def livepoll(parser: Parser, token: Token) -> LivePollNode:
    """``{% livepoll "#game" %}``, after the fragment's last part: the element that polls for the fragment
    (``#game``), with the digests of the parts above it."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError('livepoll takes the fragment\'s selector: {% livepoll "#game" %}')
    return LivePollNode(parser.compile_filter(bits[1]))
