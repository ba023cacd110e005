"""Old plays brought into a group from a BG Stats ``.bgsplay`` file: the upload, then what was imported and refused."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from scoring.access import member_group
from scoring.forms import PlaysImportForm
from scoring.history.bgsplay_import import BadPlayFile, ImportReport, import_plays, read_play_file
from scoring.http import HtmxHttpRequest
from scoring.site.quotas import OverQuota


@require_http_methods(["GET", "POST"])
def plays_import(request: HtmxHttpRequest, group_id: int) -> HttpResponse:
    """The upload form (members only); a POST imports the file's plays of the three games and shows how many
    were imported and each play refused with its reason. A file that is no play file, or plays over the owner's
    quota, import nothing and say why in the form."""
    group = member_group(request, group_id)
    posted = request.method == "POST"
    form = PlaysImportForm(request.POST if posted else None, request.FILES if posted else None)
    report: ImportReport | None = None
    if posted and form.is_valid():
        try:
            report = import_plays(group, read_play_file(form.cleaned_data["plays"]))
        except (BadPlayFile, OverQuota) as error:
            form.add_error("plays", str(error))
        else:
            form = PlaysImportForm()
    status = 422 if form.errors else 200
    context = {"group": group, "form": form, "report": report}
    return render(request, "history/plays_import.html", context, status=status)
