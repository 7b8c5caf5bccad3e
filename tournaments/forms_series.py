"""Forms of the series screens (docs/series.md). They parse and word errors; the services
(tournaments/services/series.py) decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event, Series
from tournaments.services import series_csv
from tournaments.services.errors import ServiceError
from tournaments.services.series import parse_points
from tournaments.words import sentence


class SeriesRuleForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    description = forms.CharField(
        label=_("Description"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    value = forms.ChoiceField(
        label=_("What a stage gives"),
        choices=Series.Value.choices,
        initial=Series.Value.SCORE,
        help_text=_(
            "Imported scores as they are (a Grand Prix), or points by place from the table "
            "below (a season). An event's stage always gives points by place."
        ),
    )
    best = forms.IntegerField(
        label=_("Best stages that count"),
        min_value=1,
        max_value=200,
        required=False,
        help_text=_(
            "Each player's best N stages count (6 for the WPF's six best of eight); "
            "empty: every stage counts."
        ),
    )
    points = forms.CharField(
        label=_("Points by place"),
        max_length=4000,
        required=False,
        help_text=_(
            "Points of places 1, 2, 3 ... separated by spaces or commas, e.g. "
            "25 18 15 12 10; a place past the end gets 0."
        ),
    )
    ties = forms.ChoiceField(
        label=_("Equal totals"), choices=Series.Ties.choices, initial=Series.Ties.SHARED
    )
    public = forms.BooleanField(label=_("Public"), required=False, initial=True)

    def clean_points(self) -> list[str]:
        try:
            return parse_points(self.cleaned_data.get("points") or "")
        except ServiceError as error:
            raise forms.ValidationError([sentence(p) for p in error.problems]) from None


class SeriesCreateForm(SeriesRuleForm):
    slug = forms.SlugField(
        label=_("Web address"),
        max_length=80,
        required=False,
        help_text=_("Letters, digits and hyphens; made from the name when left empty."),
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=Series.Kind.choices)

    field_order = ["name", "slug", "kind"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("name") and not data.get("slug"):
            data["slug"] = slugify(data["name"])[:80]
        return data


class EventStageForm(forms.Form):
    event = forms.SlugField(
        label=_("Event's web address"),
        max_length=80,
        help_text=_("The last part of the event's address: demo-gokodom for /e/demo-gokodom/."),
    )
    name = forms.CharField(label=_("Stage name"), max_length=120, required=False)

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_event(self) -> Event:
        from accounts.permissions import can_view

        slug = self.cleaned_data["event"]
        event = Event.objects.filter(slug=slug).first()
        # an event the director may not see is answered as one that does not exist
        if event is None or not can_view(self.user, event):
            raise forms.ValidationError(
                _("No event you can see has the address '%(slug)s'."), params={"slug": slug}
            )
        return event


class ScoresImportForm(forms.Form):
    name = forms.CharField(label=_("Stage name"), max_length=120)
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("or paste it here"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "placeholder": "player,score,wof id"}),
        help_text=_("One player a line: name, score and optionally the WOF id."),
    )
    stage = forms.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload:
            raw = upload.read(series_csv.MAX_BYTES + 1)
            if len(raw) > series_csv.MAX_BYTES:
                raise forms.ValidationError(
                    _("The file is larger than %(limit)s bytes."),
                    params={"limit": f"{series_csv.MAX_BYTES:,}"},
                )
            try:
                data["csv"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        else:
            data["csv"] = data.get("text") or ""
        if not data["csv"].strip():
            raise forms.ValidationError(_("Choose a file or paste its text."))
        return data


class MergeForm(forms.Form):
    name = forms.CharField(label=_("This spelling"), max_length=150)
    same_as = forms.CharField(label=_("is the player"), max_length=150)
