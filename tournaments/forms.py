"""Forms for the director's screens. They parse and word errors; services decide."""

from __future__ import annotations

import datetime
import json
import zoneinfo
from collections.abc import Mapping
from typing import Any, TypedDict, cast

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from rules import registry
from rules.contract import Setting
from rules.formats.woc.wof import decode as decode_text
from tournaments import entrant_names
from tournaments.models import Entrant, Event
from tournaments.services import limits
from tournaments.services.errors import ServiceError
from tournaments.words import label, sentence


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Web address"),
        max_length=80,
        required=False,
        help_text=_("Letters, digits and hyphens; made from the name when left empty."),
    )
    format = forms.ChoiceField(label=_("Format"))
    public = forms.BooleanField(label=_("Public"), required=False, initial=True)
    starts_on = forms.DateField(
        label=_("First day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("Last day"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        initial="UTC",
        help_text=_("Every time on the event's pages, sheets and e-mails is shown in it."),
        error_messages={
            "invalid_choice": _(
                "'%(value)s' is not a time zone: choose one from the list (e.g. Europe/Paris)."
            )
        },
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the engines' names are English, marked in rules/: said in the page's language
        cast(forms.ChoiceField, self.fields["format"]).choices = [
            (k, label(name)) for k, name in registry.choices()
        ]
        cast(forms.ChoiceField, self.fields["time_zone"]).choices = time_zone_choices()

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("name") and not data.get("slug"):
            data["slug"] = slugify(data["name"])[:80]
        start, end = data.get("starts_on"), data.get("ends_on")
        if start and end and end < start:
            self.add_error("ends_on", _("The last day is before the first day."))
        return data


def time_zone_choices() -> list[tuple[str, str]]:
    """UTC, then every IANA zone by region and city ("Europe/Paris"), as a list to choose
    from (a zone typed by hand was too easy to get wrong)."""
    import zoneinfo

    zones = sorted(
        z
        for z in zoneinfo.available_timezones()
        if "/" in z and not z.startswith(("Etc/", "SystemV/"))
    )
    return [("UTC", "UTC"), *((z, z.replace("_", " ")) for z in zones)]


class _Common(TypedDict):
    label: str
    help_text: str
    required: bool


def setting_field(setting: Setting) -> forms.Field:
    default = setting.default
    common: _Common = {
        "label": setting.key.replace("_", " ").capitalize(),
        "help_text": label(setting.help),
        "required": False,
    }
    if setting.choices:
        return forms.TypedChoiceField(
            # a choice reads as words ("modified Swiss"), its value stays the engine's code
            choices=[(str(c), str(c).replace("_", " ")) for c in setting.choices],
            coerce=lambda v, s=setting: next(c for c in s.choices if str(c) == v),
            initial=str(default),
            **common,
        )
    if isinstance(default, bool):
        return forms.BooleanField(initial=default, **common)
    if isinstance(default, int):
        return forms.IntegerField(initial=default, **common)
    if isinstance(default, float):
        return forms.FloatField(initial=default, **common)
    if isinstance(default, list | tuple):
        return forms.CharField(
            initial=", ".join(map(str, default)),
            **common,
            widget=forms.TextInput(attrs={"data-list": "1"}),
        )
    if isinstance(default, str):
        return forms.CharField(initial=default, **common)
    return forms.CharField(initial=json.dumps(default), **common)


class SettingsForm(forms.Form):
    """One field per setting of the format, prefilled with the engine's defaults."""

    def __init__(
        self,
        format_key: str,
        *args: Any,
        initial_settings: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.engine = registry.get(format_key)
        for setting in self.engine.settings:
            field = setting_field(setting)
            if initial_settings and setting.key in initial_settings:
                value = initial_settings[setting.key]
                field.initial = ", ".join(map(str, value)) if isinstance(value, list) else value
            self.fields[f"setting_{setting.key}"] = field

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        settings: dict[str, Any] = {}
        for setting in self.engine.settings:
            value = data.get(f"setting_{setting.key}")
            if value in (None, "") and not isinstance(setting.default, bool):
                continue
            if isinstance(setting.default, list | tuple) and isinstance(value, str):
                items = [v.strip() for v in value.split(",") if v.strip()]
                value = [_number(v) for v in items] if all(_is_number(v) for v in items) else items
            elif setting.default is not None and not isinstance(
                setting.default, bool | int | float | str | list | tuple
            ):
                try:
                    value = limits.load_json(value or "")
                except ServiceError as error:
                    self.add_error(f"setting_{setting.key}", " ".join(error.messages))
                    continue
            if value != setting.default:
                settings[setting.key] = value
        for problem in self.engine.validate_settings(settings):
            name = f"setting_{problem.field}"
            self.add_error(name if name in self.fields else None, sentence(problem))
        data["settings"] = settings
        return data


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


# An entrant's fields in words: the entrant form's labels and the CSV import preview's
# column headings (every column the importer reads).
ENTRANT_LABELS = {
    "name": _("Name"),
    "family_name": _("Family name"),
    "given_name": _("Given name"),
    "rating": _("Rating"),
    "seed": _("Seed"),
    "country": _("Country"),
    "gender": _("Gender"),
    "team": _("Team"),
    "flags": _("Flags"),
    "external_id": _("External id"),
}


class EntrantForm(forms.ModelForm[Entrant]):
    team_name = forms.CharField(label=_("Team"), required=False, max_length=120)
    flags_text = forms.CharField(
        label=_("Flags"),
        required=False,
        help_text=_("Format flags, e.g. 'group_a' or 'colour=red'; separate with ';'."),
    )

    class Meta:
        model = Entrant
        fields = ["name", "family_name", "given_name", "rating", "seed", "country", "gender"]
        # the model's fields carry no words of their own: the form's labels are said here
        labels = {field: ENTRANT_LABELS[field] for field in fields}

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        # the two parts alone make the name (given name first); a WOF file wants them apart
        self.fields["name"].required = False
        self.fields["name"].help_text = _(
            "As the pages show it. Left empty: the given name, then the family name."
        )
        self.fields["family_name"].help_text = _(
            "Written in the NAME field of a WOF rating file; Firstname takes the given name."
        )
        if self.instance.pk:
            self.fields["team_name"].initial = self.instance.team.name if self.instance.team else ""
            self.fields["flags_text"].initial = "; ".join(
                k if v is True else f"{k}={v}" for k, v in self.instance.flags.items()
            )

    def clean_country(self) -> str:
        country: str = self.cleaned_data["country"]
        return country.strip().upper()

    def clean_seed(self) -> int | None:
        seed = self.cleaned_data.get("seed")
        if seed is not None:
            holder = self.event.entrants.filter(seed=seed).exclude(pk=self.instance.pk).first()
            if holder is not None:
                raise forms.ValidationError(
                    _("Seed %(seed)s is taken by %(name)s."),
                    params={"seed": seed, "name": holder.name},
                )
        return seed

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for part in ("name", "family_name", "given_name"):
            data[part] = str(data.get(part) or "").strip()
        name = data["name"] or entrant_names.display(data["family_name"], data["given_name"])
        if not name:
            self.add_error("name", _("Give a name, or a family name."))
            return data
        if len(name) > 150:
            self.add_error(
                "name", _("The given and family names make more than 150 characters: give a name.")
            )
            return data
        clash = self.event.entrants.filter(name__iexact=name).exclude(pk=self.instance.pk)
        if clash.exists():
            self.add_error(
                "name",
                forms.ValidationError(
                    _("'%(name)s' is already registered."), params={"name": name}
                ),
            )
        data["name"] = name
        return data


CSV_SALT = "tournaments.entrant-import"
CSV_MAX_AGE = 6 * 3600  # as an event import's confirmation


def _too_large_for_import() -> forms.ValidationError:
    from tournaments.services.entrants import MAX_BYTES, MAX_ROWS

    return forms.ValidationError(
        _(
            "The file is larger than %(mb)s MB (%(bytes)s bytes), the most an import takes "
            "(and at most %(rows)s rows): split it into smaller files."
        ),
        params={"mb": MAX_BYTES // 1_000_000, "bytes": f"{MAX_BYTES:,}", "rows": f"{MAX_ROWS:,}"},
        code="too_large",
    )


class CsvImportForm(forms.Form):
    """The file or pasted text, read whole up to entrants.MAX_BYTES and refused past it.

    The checked text goes to the confirmation step compressed and signed (``sealed``): a
    request may carry only DATA_UPLOAD_MAX_MEMORY_SIZE (config/settings.py: room for a whole
    file and its signed copy), and a signed one cannot be swapped for another between check
    and confirmation.
    """

    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("or paste it here"), required=False, widget=forms.Textarea(attrs={"rows": 6})
    )
    # how a single name column is split into family and given names (a file with a
    # family_name column says it itself); the preview shows the parts before anything is saved
    order = forms.ChoiceField(
        label=_("Order of the names in a single name column"),
        choices=[
            (entrant_names.GIVEN_FAMILY, _("Given name first: Hélène Dupré")),
            (entrant_names.FAMILY_GIVEN, _("Family name first: DUPRÉ Hélène, or Dupré, Hélène")),
        ],
        initial=entrant_names.GIVEN_FAMILY,
        required=False,
        widget=forms.RadioSelect,
    )

    def clean(self) -> dict[str, Any]:
        from django.conf import settings
        from django.core import signing

        from tournaments.services.entrants import MAX_BYTES

        super().clean()

        data = self.cleaned_data
        upload = data.get("file")
        if upload:
            raw = upload.read(MAX_BYTES + 1)  # one byte more tells a file past the limit
            if len(raw) > MAX_BYTES:
                raise _too_large_for_import()
            try:
                data["csv"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        else:
            data["csv"] = data.get("text", "")
            if len(data["csv"].encode("utf-8", "surrogatepass")) > MAX_BYTES:
                raise _too_large_for_import()
        if not data["csv"].strip():
            raise forms.ValidationError(_("Choose a file or paste its text."))
        data["order"] = data.get("order") or entrant_names.GIVEN_FAMILY
        sealed = {"csv": data["csv"], "order": data["order"]}
        data["sealed"] = signing.dumps(sealed, salt=CSV_SALT, compress=True)
        room = (settings.DATA_UPLOAD_MAX_MEMORY_SIZE or len(data["sealed"])) - 16_384
        if len(data["sealed"]) > room:  # a file of text that hardly compresses
            raise forms.ValidationError(
                _(
                    "The file is too large to carry to the confirmation step (its text does "
                    "not compress below %(mb).1f MB): split it into smaller files."
                ),
                params={"mb": room / 1_000_000},
                code="too_large",
            )
        return data


def unseal(sealed: str, *, salt: str, max_age: int) -> Any:
    """What a check step signed for its confirmation (the checked file travels with the
    form); a confirmation too old or changed since is refused, and the file is checked
    again."""
    from django.core import signing

    try:
        return signing.loads(sealed, salt=salt, max_age=max_age)
    except signing.SignatureExpired:
        raise forms.ValidationError(
            _("This confirmation is too old; check the file again."), code="expired"
        ) from None
    except signing.BadSignature:
        raise forms.ValidationError(
            _("This confirmation was changed after the file was checked; check it again."),
            code="tampered",
        ) from None


class CsvConfirmForm(forms.Form):
    sealed = forms.CharField(widget=forms.HiddenInput)

    def clean_sealed(self) -> dict[str, str]:
        """The checked file and the name order it was checked in."""
        sealed = unseal(self.cleaned_data["sealed"], salt=CSV_SALT, max_age=CSV_MAX_AGE)
        if isinstance(sealed, str):  # sealed before the order travelled with the file
            sealed = {"csv": sealed, "order": entrant_names.GIVEN_FAMILY}
        if (
            not isinstance(sealed, dict)
            or not isinstance(sealed.get("csv"), str)
            or sealed.get("order") not in entrant_names.ORDERS
        ):
            raise forms.ValidationError(_("Check the file again."), code="tampered")
        return {"csv": sealed["csv"], "order": sealed["order"]}


class SwapForm(forms.Form):
    first = forms.IntegerField(label=_("Entrant number"), min_value=1)
    second = forms.IntegerField(label=_("swaps places with number"), min_value=1)
    reason = forms.CharField(label=_("Reason"), max_length=300)


class RoundStartForm(forms.Form):
    """A round's start time, typed on the event's clock (a datetime-local input, or
    "2026-12-02 14:30" typed by hand); empty takes the time off."""

    starts_at = forms.CharField(
        label=_("Start time"),
        required=False,
        max_length=40,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )

    def __init__(self, *args: Any, zone: zoneinfo.ZoneInfo, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zone = zone

    def clean_starts_at(self) -> datetime.datetime | None:
        text = self.cleaned_data["starts_at"].strip()
        if not text:
            return None
        try:
            naive = datetime.datetime.fromisoformat(text)
        except ValueError:
            raise forms.ValidationError(
                _("Start time: “%(value)s” is not a date and time (for example 2026-12-02 14:30)."),
                params={"value": text},
            ) from None
        if naive.tzinfo is not None:  # a time with its own offset is taken as it is
            return naive
        return naive.replace(tzinfo=self.zone)


class DrawForm(forms.Form):
    key = forms.CharField(widget=forms.HiddenInput, max_length=120)
    value = forms.IntegerField(label=_("Number drawn"))
    low = forms.IntegerField(widget=forms.HiddenInput, required=False)
    high = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        value, low, high = data.get("value"), data.get("low"), data.get("high")
        if value is not None and low is not None and high is not None and not low <= value <= high:
            # a draw is never redone: an impossible value must not be stored
            self.add_error(
                "value",
                _("The draw is a number from %(low)s to %(high)s.") % {"low": low, "high": high},
            )
        return data


# -- importing a whole event (issue 12) ---------------------------------------------------

IMPORT_KINDS = [
    ("auto", _("Detect it from the file")),
    ("event", _("Arbiter event file (JSON)")),
    ("wof", _("WOF rating file (.ELO, PAPP)")),
    ("ftd", _("FlipTheDisc JSON export")),
]
IMPORT_SALT = "tournaments.event-import"
IMPORT_MAX_AGE = 6 * 3600  # a confirmation older than a working day's session is refused


class EventImportForm(forms.Form):
    file = forms.FileField(label=_("File"), required=False)
    text = forms.CharField(
        label=_("or paste its text here"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
    )
    kind = forms.ChoiceField(label=_("Kind of file"), choices=IMPORT_KINDS, initial="auto")
    slug = forms.SlugField(
        label=_("Web address"),
        max_length=80,
        required=False,
        help_text=_("Leave empty to take it from the file (or from the event's name)."),
    )
    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        required=False,
        help_text=_("Leave empty to take it from the file."),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        data["filename"] = ""
        try:
            if upload:
                limits.check_size(upload.size or 0)
                raw = upload.read(limits.import_limits().bytes + 1)  # whatever size it claims
                limits.check_bytes(raw)
            else:
                limits.check_bytes(data.get("text", ""))
        except ServiceError as error:
            raise forms.ValidationError(error.messages) from None
        if upload:
            # UTF-8, else the Windows code page (Latin-1) PAPP and older files are written in
            data["content"] = decode_text(raw)[0]
            data["filename"] = upload.name or ""
        else:
            data["content"] = data.get("text", "")
        if not data["content"].strip():
            raise forms.ValidationError(_("Choose a file or paste its text."))
        return data


def seal_import(user: Any, kind: str, text: str, filename: str) -> str:
    """The checked file, signed for the confirmation step: a changed one is refused."""
    from django.core import signing

    payload = {"user": user.pk, "kind": kind, "text": text, "filename": filename}
    return signing.dumps(payload, salt=IMPORT_SALT, compress=True)


class EventImportConfirmForm(forms.Form):
    sealed = forms.CharField(widget=forms.HiddenInput)
    slug = forms.SlugField(label=_("Web address"), max_length=80)
    name = forms.CharField(label=_("Name"), max_length=200)
    # shown only for a WOF file whose games cover less than its list says (cut short)
    accept_truncated = forms.BooleanField(
        label=_("The file holds all that was played: import it as it is"), required=False
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_sealed(self) -> dict[str, Any]:
        payload = unseal(self.cleaned_data["sealed"], salt=IMPORT_SALT, max_age=IMPORT_MAX_AGE)
        if not isinstance(payload, dict) or payload.get("user") != self.user.pk:
            raise forms.ValidationError(
                _("This confirmation belongs to another user; upload the file again."),
                code="tampered",
            )
        return payload
