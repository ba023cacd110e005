"""The calculators: small forms that settle a dispute with the ruling and the rules it applies."""

from __future__ import annotations

from django import forms
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from rules import CATALOGUE
from scoring.help.calculators import CALCULATORS, Answer
from scoring.http import HtmxHttpRequest


@require_safe
def calculator_list(request: HtmxHttpRequest) -> HttpResponse:
    """The calculators, each with the question it answers."""
    return render(request, "help/calculators.html", {"calculators": CALCULATORS.values()})


@require_safe
def calculator(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One calculator: its form, and with figures, the ruling, the rules cited and the example to try."""
    calc = CALCULATORS.get(slug)
    if calc is None:
        raise Http404
    form = calc.form(request.GET or None)
    answer: Answer | None = None
    if form.is_bound and form.is_valid():
        try:
            answer = calc.answer(form)
        except forms.ValidationError as error:
            form.add_error(None, error)
    steps = [
        *(answer.steps if answer else ()),
        *(step for _label, steps in (answer.readings if answer else ()) for step in steps),
    ]
    cited = [CATALOGUE[rule] for rule in dict.fromkeys(step.rule for step in steps)]
    context = {"calc": calc, "form": form, "answer": answer, "cited": cited}
    template = "help/calculator.html#ruling" if request.htmx else "help/calculator.html"
    return render(request, template, context, status=422 if form.errors else 200)
