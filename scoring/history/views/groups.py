"""A group: its games and players, its members and invite link; a game's record exported and imported."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Prefetch
from django.http import Http404, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from rules import PROMO_EVENTS, RECORD_FORMAT, parse_record
from scoring.access import (
    game_for_member,
    login_required,
    member_group,
    owned_group,
)
from scoring.creation import create_game, create_sheet_game
from scoring.forms import GroupForm, ImportForm, ProfileForm, RestoreForm
from scoring.history.charts import line
from scoring.history.insights import shown
from scoring.history.portability import (
    BadBackup,
    RestoreUnderWay,
    backup,
    exported_document,
    one_restore_at_a_time,
    plays_csv,
    restore,
)
from scoring.history.ratings import player_history, rating_chart
from scoring.history.statistics import player_key, timeline
from scoring.history.streams import attachment, download
from scoring.history.summary import group_summary, history, player_stats
from scoring.http import HtmxHttpRequest
from scoring.live.versions import new_codes
from scoring.log import finish
from scoring.models import Game, Group, Seat
from scoring.site.context import home_context
from scoring.site.quotas import OverQuota, kept_within
from scoring.site.rate_limits import over_limit, too_many, used_up

GAMES_PER_PAGE = 20
"""The group page lists its games newest first, this many a page."""


@login_required
@require_POST
def group_create(request: HtmxHttpRequest) -> HttpResponse:
    """A new group, owned by its creator, who is its first member; they become a player of the group when
    they claim a seat in a game ("I am Maya"), under the name the table uses."""
    form = GroupForm(request.POST)
    user = request.user
    assert isinstance(user, User)  # login_required
    if form.is_valid():
        try:
            with kept_within(user.pk, groups=1):
                group = form.save(commit=False)
                group.owner = user
                group.save()
                group.members.add(user)
        except OverQuota as error:
            form.add_error("name", str(error))
        else:
            return redirect("group", group_id=group.pk)
    return render(request, "site/home.html", home_context(request, group_form=form), status=422)


@require_http_methods(["GET", "POST"])
def group_detail(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """The group's games (newest first, a page at a time: ``?page=2``) and players with their Okanagan record;
    a POST adds a player profile. As many queries whatever the number of games."""
    group = member_group(request, group_id)
    form = ProfileForm(request.POST if request.method == "POST" else None, group=group)
    if request.method == "POST" and form.is_valid():
        form.save()
        form = ProfileForm(group=group)
    seats = Seat.objects.select_related("profile").order_by("position")
    games = group.games.prefetch_related(Prefetch("seats", queryset=seats))
    context = {
        "group": group,
        "is_owner": group.owner_id == request.user.pk,
        "profile_form": form,
        "import_form": ImportForm(),
        "invite_url": request.build_absolute_uri(f"/invite/{group.invite_token}/"),
        "games": Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page")),
        "summary": group_summary(history(group), group.profiles.select_related("user")),
    }
    template = "history/group.html#profiles" if request.htmx and request.method == "POST" else "history/group.html"
    return render(request, template, context, status=422 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def profile_edit(request: HtmxHttpRequest, group_id: int, profile_id: int) -> HttpResponse:
    """A player's record at each game and their insights beside the group's average; rename them or link them to a
    member's account."""
    group = member_group(request, group_id)
    profile = get_object_or_404(group.profiles, pk=profile_id)
    form = ProfileForm(request.POST if request.method == "POST" else None, instance=profile, group=group)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect("group", group_id=group.pk)
    summary = history(group)
    games = timeline(group, profile)
    rated = player_history(games)
    okanagan = summary.okanagan()
    mine = okanagan.insights.get(player_key(profile.pk, profile.name))
    sections = [
        {
            "player": record,
            "chart": line(
                _("Scores over time"),
                [(game.day.isoformat(), game.total) for game in games if game.kind == record.kind],
            ),
            "ratings": [(record, rated_games[-1].rating)] if (rated_games := rated.get(record.kind)) else [],
            "rating_chart": rating_chart(rated_games) if rated_games else "",
            "insights": shown(okanagan.split.group, mine)
            if record.kind == Game.Kind.OKANAGAN and mine is not None
            else None,
        }
        for record in player_stats(summary, profile)
    ]
    context = {"group": group, "form": form, "profile": profile, "sections": sections}
    return render(request, "history/profile.html", context)


@require_POST
def invite_regenerate(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """A new invite link; the old one stops working."""
    group = owned_group(request, group_id)
    group.new_invite()
    messages.success(request, _("A new invite link is ready; the old one no longer works."))
    return redirect("group", group_id=group.pk)


def _lock_out_former_members(group: Group) -> None:
    """After a member leaves: a new invite link, and new table codes and spectator links for every game (a
    finished one may be reopened), so that nothing they saw lets them (or a guest they let in) back in."""
    group.new_invite()
    for game in group.games.all():
        new_codes(game)


@require_POST
def member_remove(request: HtmxHttpRequest, group_id: int, user_id: int) -> HttpResponse:
    """The owner removes a member (not themself)."""
    group = owned_group(request, group_id)
    member = get_object_or_404(group.members, pk=user_id)
    if member.pk == group.owner_id:
        messages.error(request, _("The owner stays in the group."))
    else:
        with transaction.atomic():
            group.members.remove(member)
            group.profiles.filter(user=member).update(user=None)
            _lock_out_former_members(group)
        messages.success(
            request,
            _(
                "%(name)s is no longer a member. The invite link, and the table codes and spectator links of the "
                "group's games, are new: send them again to the others."
            )
            % {"name": member.get_username()},
        )
    return redirect("group", group_id=group.pk)


@require_http_methods(["GET", "POST"])
def invite(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Someone opened an invite link: after logging in, one tap joins the group."""
    group = get_object_or_404(Group, invite_token=token)
    if not request.user.is_authenticated:
        return render(request, "history/invite.html", {"group": group}, status=200)
    if group.members.filter(pk=request.user.pk).exists():
        return redirect("group", group_id=group.pk)
    if request.method == "POST":
        group.members.add(request.user)
        messages.success(request, _("Welcome to %(group)s.") % {"group": group.name})
        return redirect("group", group_id=group.pk)
    return render(request, "history/invite.html", {"group": group})


@require_safe
def group_backup(request: HtmxHttpRequest, group_id: int) -> HttpResponseBase:
    """The group's full backup, as a JSON file sent as it is read (:mod:`scoring.history.streams`)."""
    group = member_group(request, group_id)
    return download(backup(group), "application/json", f"okanagan-group-{group.pk}.json")


@require_safe
def group_plays_csv(request: HtmxHttpRequest, group_id: int) -> HttpResponseBase:
    """Every play of the group, one row per player per game, as CSV sent as it is read."""
    group = member_group(request, group_id)
    return download(plays_csv(group), "text/csv; charset=utf-8", f"okanagan-plays-{group.pk}.csv")


@login_required
@require_POST
def group_restore(request: HtmxHttpRequest) -> HttpResponse:
    """A new group from a backup file, owned by whoever restores it; a few an hour per account. Only a restore
    that goes through counts: one refused (a bad file, a quota, another restore under way) costs none."""
    if used_up(request, "restore"):  # two of one account at once: one_restore_at_a_time refuses the second
        return too_many(request)
    form = RestoreForm(request.POST, request.FILES)
    if form.is_valid():
        user = request.user
        assert isinstance(user, User)  # login_required
        try:
            with one_restore_at_a_time():
                group = restore(user, form.cleaned_data["backup"])
        except RestoreUnderWay:
            form.add_error("backup", _("Another group is being restored: try again in a minute."))
            response = render(request, "site/home.html", home_context(request, restore_form=form), status=429)
            response["Retry-After"] = "60"
            return response
        except BadBackup as error:
            form.add_error("backup", str(error))
        else:
            over_limit(request, "restore")  # counted once it went through
            count = group.games.count()
            messages.success(
                request,
                ngettext(
                    "The group is restored with its %(count)d game.",
                    "The group is restored with its %(count)d games.",
                    count,
                )
                % {"count": count},
            )
            return redirect("group", group_id=group.pk)
    return render(request, "site/home.html", home_context(request, restore_form=form), status=422)


@require_POST
def game_import(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """Add a game from a record file; a finished one goes straight to the history, and one exported in
    progress (its objective cards left out) stays in progress."""
    group = member_group(request, group_id)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "history/import.html", {"group": group, "form": form}, status=422)
    data = form.cleaned_data["record"]
    record = parse_record(data) if data["format"] == RECORD_FORMAT else None
    try:
        with kept_within(group.owner_id, games=1, stored=len(json.dumps(data))):
            if record is None:
                game = create_sheet_game(group, data)
            else:  # stored as the rules read it, so that every event can be edited
                uses_promos = any(event.type in PROMO_EVENTS for event in record.events)
                events = [event.to_json() for event in record.events]
                game = create_game(group, record.players, record.options.to_json(), promos=uses_promos, events=events)
    except OverQuota as error:
        form.add_error("record", str(error))
        return render(request, "history/import.html", {"group": group, "form": form}, status=422)
    if record is None:
        messages.success(request, _("Game imported."))
        return redirect("game", game_id=game.pk)
    if record.hidden_objectives is not None:  # exported in progress: it cannot end before the cards are back
        messages.success(
            request,
            _("Game imported, in progress: the file left out the objective cards; each player enters theirs."),
        )
        return redirect("game", game_id=game.pk)
    if form.cleaned_data["finished"]:
        finish(game, game.revision)
    messages.success(request, _("Game imported."))
    return redirect("game", game_id=game.pk)


@require_safe
def game_export(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The record JSON, as a file (a game in progress without its objective cards: see ``exported_document``)."""
    game = game_for_member(request, game_id)
    if game.imported or (not game.is_okanagan and game.sheet is None):
        raise Http404  # an imported play (no record), a sheet still being filled in (nothing scored yet)
    response = JsonResponse(exported_document(game), json_dumps_params={"indent": 2, "ensure_ascii": False})
    return attachment(response, f"okanagan-{game.pk}.json")
