from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.http import HttpRequest

from accounts.models import User
from tournaments.models import Entrant, EventDirector


class DirectedEventInline(admin.TabularInline[EventDirector, User]):
    """The events this user directs (a role per event)."""

    model = EventDirector
    extra = 0
    raw_id_fields = ("event",)
    readonly_fields = ("added_at",)
    verbose_name = "directed event"
    verbose_name_plural = "directed events"


class ClaimedEntryInline(admin.TabularInline[Entrant, User]):
    """The entrants this user claimed as their player; open one to unlink it."""

    model = Entrant
    fk_name = "user"
    fields = ("event", "number", "name", "status")
    readonly_fields = ("event", "number", "name", "status")
    extra = 0
    can_delete = False
    show_change_link = True
    verbose_name = "claimed entry"
    verbose_name_plural = "claimed entries"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        ("Arbiter", {"fields": ("display_name", "emails_off")}),
    )
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "last_login")
    search_fields = ("username", "display_name", "email", "first_name", "last_name")
    inlines = (DirectedEventInline, ClaimedEntryInline)
