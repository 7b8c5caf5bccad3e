"""The admin on an event this machine does not write (venue mode's public copy, or a fenced
venue: docs/venue.md). What the event file holds (the event's fields, its stages, teams,
entrants, rounds, groups, matches, games and draws) comes from the venue; an admin edit
here would be overwritten by the next push, or worse, published as if the venue had made
it. So those rows are shown read-only, with the refusal the services give ("This event is
run at the venue ... Changes are made there."), and a change, an addition or a deletion
posted anyway is refused with that sentence, nothing saved. The event's directors stay
the copy's own (a director of the copy takes the event over), so its director inline
stays editable.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from tournaments.models import Event
from tournaments.services.mirror import outbox


def refusal_of(event: Event | None) -> str:
    """Why the admin may not change ``event``'s rows; "" when it may."""
    if event is None or event.mirror_state not in outbox.READ_ONLY:
        return ""
    return outbox.refusal(event)


def _walk(obj: Any, path: str) -> Any:
    for name in path.split("__") if path else ():
        obj = getattr(obj, name, None)
        if obj is None:
            return None
    return obj


class MirroredEventAdmin(admin.ModelAdmin[Any]):
    """A ModelAdmin of rows that belong to an event and come from its event file.
    ``event_path``: how a row reaches its event ("event", "round__event", ...; "" for the
    event itself)."""

    event_path = "event"

    def event_of(self, obj: Model | None) -> Event | None:
        found = _walk(obj, self.event_path) if obj is not None else None
        return found if isinstance(found, Event) else None

    def refusal(self, obj: Model | None) -> str:
        return refusal_of(self.event_of(obj))

    # -- one row: shown read-only with the reason; a post refused --------------------------

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and not self.keeps_local_edits() and self.refusal(obj):
            return False  # the admin shows the row read-only
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and self.refusal(obj):
            return False
        return super().has_delete_permission(request, obj)

    def _refused(self, request: HttpRequest, object_id: str | None) -> str:
        if object_id is None:
            return ""
        obj = self.get_object(request, unquote(object_id))
        return self.refusal(obj) if obj is not None else ""

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        said = self._refused(request, object_id)
        if said and request.method == "POST" and not self.keeps_local_edits():
            self.message_user(request, said, messages.ERROR)
            return HttpResponseRedirect(request.path)
        if said:
            self.message_user(request, said, messages.WARNING)
        return super().changeform_view(request, object_id, form_url, extra_context)

    def keeps_local_edits(self) -> bool:
        """Whether a change form of a read-only event's row still saves what is the copy's
        own (the event's directors); its other fields are read-only then."""
        return False

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        said = self._refused(request, object_id)
        if said:
            self.message_user(request, said, messages.ERROR)
            return HttpResponseRedirect(request.path.rsplit("/delete/", 1)[0] + "/change/")
        return super().delete_view(request, object_id, extra_context)

    # -- a new row of a read-only event: refused by its form, naming the field -------------

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[Any]]:
        form = super().get_form(request, obj, change, **kwargs)
        path = self.event_path
        if not path:
            return form
        first, _sep, rest = path.partition("__")

        def clean(self_form: forms.ModelForm[Any]) -> dict[str, Any]:
            cleaned: dict[str, Any] = forms.ModelForm.clean(self_form) or {}
            parent = cleaned.get(first)
            event = parent if not rest else _walk(parent, rest)
            said = refusal_of(event if isinstance(event, Event) else None)
            if said:
                self_form.add_error(first if first in self_form.fields else None, said)
            return cleaned

        guarded: type[forms.ModelForm[Any]] = type(form.__name__, (form,), {"clean": clean})
        return guarded

    # -- the list's "delete selected": refused when a row is a read-only event's -----------

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if "delete_selected" not in actions:
            return actions
        entry: Any = actions["delete_selected"]
        action, name, description = entry
        guard = self

        def delete_selected(
            modeladmin: admin.ModelAdmin[Any], request: HttpRequest, queryset: QuerySet[Any]
        ) -> Any:
            said = guard.refusal_in(queryset)
            if said:
                guard.message_user(request, said, messages.ERROR)
                return None
            return action(modeladmin, request, queryset)

        actions["delete_selected"] = (delete_selected, name, description)
        return actions

    def refusal_in(self, queryset: QuerySet[Any]) -> str:
        """The refusal of the first read-only event among the rows of ``queryset``."""
        key = f"{self.event_path}__pk" if self.event_path else "pk"
        events = Event.objects.filter(
            pk__in=queryset.values(key), mirror_state__in=outbox.READ_ONLY
        )
        event = events.first()
        return refusal_of(event)


class ReadOnlyWithEvent(admin.options.InlineModelAdmin[Any, Any]):
    """An inline of the event's own rows from its file (its stages): read-only on an
    event this machine does not write."""

    def _locked(self, obj: Any) -> bool:
        return isinstance(obj, Event) and bool(refusal_of(obj))

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._locked(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._locked(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return not self._locked(obj) and super().has_delete_permission(request, obj)
