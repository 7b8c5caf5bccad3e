"""Forms of registration and qualification (issue 32): the public entry form, the
director's registration settings, the rating list and the qualification list uploads."""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.services import rating_list

MAX_UPLOAD = rating_list.MAX_BYTES
ENTRY_DEADLINE_BAD = _(
    "Entry deadline: “%(value)s” is not a date and time (for example 2026-12-02 14:30)."
)
ENTRY_DEADLINE_BAD = _(
    "Entry deadline: “%(value)s” is not a date and time (for example 2026-12-02 14:30)."
)


class EntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=150, help_text=_("As you play under it."))
    email = forms.EmailField(
        label=_("E-mail"),
        max_length=254,
        help_text=_("Your entry's links and the offer of a place are sent here."),
    )
    external_id = forms.CharField(
        label=_("WOF id (if you have one)"), max_length=40, required=False
    )


class RegistrationForm(forms.Form):
    open = forms.BooleanField(label=_("Entries are open"), required=False)
    capacity = forms.IntegerField(
        label=_("Places"),
        required=False,
        min_value=1,
        max_value=10_000,
        help_text=_("Empty: no limit. Entries beyond it wait in order of entry."),
    )
    closes_at = forms.CharField(
        label=_("Entry deadline"),
        required=False,
        max_length=40,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("On the event's clock; empty: until you close entries."),
    )
    confirm_hours = forms.IntegerField(
        label=_("Hours to confirm an offered place"), min_value=1, max_value=720, initial=48
    )
    min_rating = forms.IntegerField(
        label=_("Minimum rating"),
        required=False,
        min_value=-10_000,
        max_value=10_000,
        help_text=_("Read from the rating list below; empty: none."),
    )
    federations = forms.CharField(
        label=_("Federations"),
        required=False,
        max_length=200,
        help_text=_("Members of these only, as the rating list names them (FRA GBR); empty: any."),
    )

    def __init__(self, *args: Any, zone: zoneinfo.ZoneInfo, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zone = zone

    def clean_closes_at(self) -> datetime.datetime | None:
        text = self.cleaned_data["closes_at"].strip()
        if not text:
            return None
        try:
            naive = datetime.datetime.fromisoformat(text)
        except ValueError:
            raise forms.ValidationError(
                ENTRY_DEADLINE_BAD,
                params={"value": text},
            ) from None
        return naive if naive.tzinfo is not None else naive.replace(tzinfo=self.zone)

    def clean_federations(self) -> str:
        words = self.cleaned_data["federations"].replace(",", " ").split()
        for word in words:
            if not (word.isalpha() and 2 <= len(word) <= 3):
                raise forms.ValidationError(
                    _("Federations: “%(value)s” is not a federation code (2 or 3 letters)."),
                    params={"value": word},
                )
        return " ".join(w.upper() for w in words)


class ListUploadForm(forms.Form):
    KINDS = (("csv", _("CSV")), ("wof", _("WOF rating file (.elo)")))
    kind = forms.ChoiceField(label=_("File type"), choices=KINDS, initial="csv")
    file = forms.FileField(label=_("File"))

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(
                _("File: larger than %(n)s MB.") % {"n": MAX_UPLOAD // 1_000_000}
            )
        data = upload.read()
        try:
            return str(data.decode("utf-8-sig"))
        except UnicodeDecodeError:
            return str(data.decode("cp1252", errors="replace"))


class QualifyForm(forms.Form):
    """Where an invitation event's places come from (docs/registration.md)."""

    SOURCES = (
        ("csv", _("A ranked list (CSV: name, email, score, id; best first)")),
        ("event", _("The final standings of another event (a previous season)")),
        ("series", _("A series' standings (its ranked totals)")),
    )
    source = forms.ChoiceField(label=_("Places come from"), choices=SOURCES, initial="csv")
    file = forms.FileField(label=_("Ranked list (CSV)"), required=False)
    from_event = forms.SlugField(
        label=_("The other event's address name (slug)"), required=False, max_length=80
    )
    series = forms.SlugField(
        label=_("The series' address name (slug)"), required=False, max_length=80
    )
    places = forms.IntegerField(label=_("Places"), min_value=1, max_value=1000, initial=16)
    invite = forms.IntegerField(
        label=_("Candidates listed"),
        min_value=1,
        max_value=5000,
        initial=30,
        help_text=_("How far down the list to go (the WPF e-mails its top 30)."),
    )
    label = forms.CharField(
        label=_("Named in each reason as"), max_length=120, help_text=_("GP 2026, Season II")
    )
    confirm_hours = forms.IntegerField(
        label=_("Hours to answer an invitation"), min_value=1, max_value=720, initial=168
    )

    def clean_file(self) -> str:
        upload = self.cleaned_data.get("file")
        if upload is None:
            return ""
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(
                _("File: larger than %(n)s MB.") % {"n": MAX_UPLOAD // 1_000_000}
            )
        data = upload.read()
        try:
            return str(data.decode("utf-8-sig"))
        except UnicodeDecodeError:
            return str(data.decode("cp1252", errors="replace"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("source") == "csv" and not data.get("file"):
            self.add_error("file", _("Ranked list: choose the CSV file."))
        if data.get("source") == "event" and not data.get("from_event"):
            self.add_error("from_event", _("Other event: give its address name."))
        if data.get("source") == "series" and not data.get("series"):
            self.add_error("series", _("Series: give its address name."))
        if data.get("places") and data.get("invite") and data["invite"] < data["places"]:
            self.add_error("invite", _("Candidates listed: at least as many as the places."))
        return data
