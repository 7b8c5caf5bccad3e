"""Django admin for every model: list displays, filters, search and inlines.

Admin edits go around the services: no lock, no audit row, no results version raised. So
what carries a rule is read-only here and the director's screens change it through the
services: results (services.results), a round's status (services.rounds: publish, close),
an entrant's status (a withdrawal: services.events), an event's format and settings. The
admin edits the rest (names, dates, venue, links).
"""

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from rules import registry
from tournaments import models
from tournaments.admin_mirror import MirroredEventAdmin, ReadOnlyWithEvent


class FormatFilter(admin.SimpleListFilter):
    title = "format"
    parameter_name = "format"

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, str]]:
        return [(key, key) for key in registry.formats()]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[models.Event]
    ) -> QuerySet[models.Event]:
        return queryset.filter(format=self.value()) if self.value() else queryset


class DirectorInline(admin.TabularInline[models.EventDirector, models.Event]):
    model = models.EventDirector
    extra = 0
    autocomplete_fields = ["user"]


class StageInline(ReadOnlyWithEvent, admin.TabularInline[models.Stage, models.Event]):
    model = models.Stage
    extra = 0


@admin.register(models.Event)
class EventAdmin(MirroredEventAdmin):
    list_display = (
        "name",
        "slug",
        "format",
        "status",
        "public",
        "starts_on",
        "results_version",
        "standings_version",
    )
    list_filter = (FormatFilter, "status", "public")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "starts_on"
    inlines = [DirectorInline, StageInline]
    readonly_fields = ("results_version", "standings_version", "created_at", "updated_at")

    def get_readonly_fields(
        self, request: HttpRequest, obj: models.Event | None = None
    ) -> tuple[str, ...]:
        fields = tuple(super().get_readonly_fields(request, obj))
        if self.refusal(obj):  # the venue's: only its directors (the inline) change here
            return tuple(f.name for f in models.Event._meta.fields)
        # A new event has no rounds yet: its format and settings are chosen here. Once it
        # exists they decide its pairings and standings, and change through the services.
        return fields if obj is None else (*fields, "format", "settings")

    event_path = ""  # the row is the event

    def get_prepopulated_fields(
        self, request: HttpRequest, obj: models.Event | None = None
    ) -> dict[str, Sequence[str]]:
        if self.refusal(obj):
            return {}  # the slug is read-only there
        return dict(super().get_prepopulated_fields(request, obj))

    def keeps_local_edits(self) -> bool:
        return True  # its directors are the copy's own

    def save_model(self, request: HttpRequest, obj: models.Event, form: Any, change: bool) -> None:
        if change and self.refusal(obj):
            return  # nothing of the event's own is saved (its fields were read-only)
        super().save_model(request, obj, form, change)


@admin.register(models.Team)
class TeamAdmin(MirroredEventAdmin):
    event_path = "event"
    list_display = ("name", "country", "event")
    list_filter = ("event",)
    search_fields = ("name", "country")
    list_select_related = ("event",)


@admin.register(models.Entrant)
class EntrantAdmin(MirroredEventAdmin):
    event_path = "event"
    list_display = ("number", "name", "event", "seed", "rating", "country", "gender", "status")
    list_filter = ("status", "gender", "event")
    search_fields = ("name", "family_name", "given_name", "country", "external_id", "event__name")
    list_select_related = ("event", "team")
    autocomplete_fields = ["user"]
    raw_id_fields = ("team",)
    # a withdrawal is services.events.withdraw (or the format's own), with its audit row
    readonly_fields = ("status", "withdrawn_after_round")


class MatchInline(admin.TabularInline[models.Match, models.Round]):
    model = models.Match
    extra = 0
    fields = ("code", "table", "bracket", "version", "overridden")
    readonly_fields = ("version",)
    show_change_link = True


class GroupInline(admin.TabularInline[models.Group, models.Round]):
    model = models.Group
    extra = 0
    show_change_link = True


@admin.register(models.Round)
class RoundAdmin(MirroredEventAdmin):
    event_path = "event"
    list_display = ("label", "number", "event", "status", "deadline", "published_at")
    list_filter = ("status", "event")
    search_fields = ("label", "event__name")
    list_select_related = ("event",)
    inlines = [GroupInline, MatchInline]
    # publishing and closing a round are services.rounds, with their audit rows
    readonly_fields = ("status",)


class GroupMemberInline(admin.TabularInline[models.GroupMember, models.Group]):
    model = models.GroupMember
    extra = 0
    raw_id_fields = ("entrant",)


@admin.register(models.Group)
class GroupAdmin(MirroredEventAdmin):
    event_path = "round__event"
    list_display = ("label", "key", "round")
    search_fields = ("label", "key")
    list_select_related = ("round__event",)
    inlines = [GroupMemberInline]


class ParticipantInline(admin.TabularInline[models.MatchParticipant, models.Match]):
    model = models.MatchParticipant
    extra = 0
    raw_id_fields = ("entrant",)


class GameInline(admin.TabularInline[models.Game, models.Match]):
    model = models.Game
    extra = 0
    readonly_fields = ("number", "scores", "first_seat", "ending", "details")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ResultChangeInline(admin.TabularInline[models.ResultChange, models.Match]):
    model = models.ResultChange
    extra = 0
    readonly_fields = ("version", "changed_by", "changed_at", "source", "reason", "after")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.Match)
class MatchAdmin(MirroredEventAdmin):
    event_path = "round__event"
    list_display = ("code", "round", "table", "bracket", "version", "overridden")
    list_filter = ("overridden", "round__event")
    search_fields = ("code", "round__event__name", "participants__entrant__name")
    list_select_related = ("round__event",)
    readonly_fields = ("version", "result")
    inlines = [ParticipantInline, GameInline, ResultChangeInline]


@admin.register(models.Game)
class GameAdmin(MirroredEventAdmin):
    event_path = "match__round__event"
    list_display = ("match", "number", "scores", "ending")
    list_filter = ("ending",)
    search_fields = ("match__code",)
    list_select_related = ("match__round__event",)
    readonly_fields = ("match", "number", "scores", "first_seat", "ending", "details")


@admin.register(models.ResultChange)
class ResultChangeAdmin(admin.ModelAdmin[models.ResultChange]):
    list_display = ("match", "version", "changed_by", "changed_at", "source")
    list_filter = ("source",)
    search_fields = ("match__code", "reason", "changed_by__username")
    list_select_related = ("match__round__event", "changed_by")
    date_hierarchy = "changed_at"

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the audit trail is append-only

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin[models.AuditEntry]):
    list_display = ("at", "event", "action", "subject", "actor")
    list_filter = ("action", "event")
    search_fields = ("action", "subject", "reason", "actor__username")
    list_select_related = ("event", "actor")
    date_hierarchy = "at"

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.RandomDraw)
class RandomDrawAdmin(MirroredEventAdmin):
    event_path = "event"
    list_display = ("key", "event", "method", "purpose", "drawn_at", "drawn_by")
    list_filter = ("method", "event")
    search_fields = ("key", "purpose")
    list_select_related = ("event", "drawn_by")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a draw is never redone


class StandingsRowInline(admin.TabularInline[models.StandingsRow, models.StandingsSnapshot]):
    model = models.StandingsRow
    extra = 0
    fields = ("table_key", "position", "rank", "entrant", "points", "values", "status")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin[models.StandingsSnapshot]):
    list_display = ("event", "results_version", "after_round", "computed_at", "published", "final")
    list_filter = ("published", "final", "event")
    list_select_related = ("event",)
    readonly_fields = ("tables", "pending")
    inlines = [StandingsRowInline]


@admin.register(models.Report)
class ReportAdmin(admin.ModelAdmin[models.Report]):
    list_display = ("event", "kind", "round_number", "results_version", "status", "requested_at")
    list_filter = ("kind", "status")
    list_select_related = ("event",)
    readonly_fields = ("progress", "message", "finished_at")


@admin.register(models.RefereeToken)
class RefereeTokenAdmin(admin.ModelAdmin[models.RefereeToken]):
    """Only the token's hash is stored; the token itself was shown once to the director."""

    list_display = ("event", "hint", "created_by", "created_at", "revoked_at", "last_used_at")
    list_filter = ("event",)
    list_select_related = ("event", "created_by")
    readonly_fields = ("token_hash", "hint", "created_at", "last_used_at")


@admin.register(models.RefereeGame)
class RefereeGameAdmin(admin.ModelAdmin[models.RefereeGame]):
    list_display = ("game_id", "event", "match", "game_number", "received_at")
    list_filter = ("event",)
    search_fields = ("game_id",)
    list_select_related = ("event", "match__round")
    readonly_fields = ("event", "game_id", "match", "game_number", "payload", "received_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # posted by the referee program, never typed


@admin.register(models.ImportJob)
class ImportJobAdmin(admin.ModelAdmin[models.ImportJob]):
    """Confirmed imports and what became of them; the worker writes them, nobody types one."""

    list_display = ("slug", "kind", "user", "status", "progress", "created_at", "finished_at")
    list_filter = ("status", "kind")
    search_fields = ("slug", "name", "user__username")
    list_select_related = ("user", "event")
    readonly_fields = [f.name for f in models.ImportJob._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(models.ResultEntry)
class ResultEntryAdmin(admin.ModelAdmin[models.ResultEntry]):
    """Entries waiting under double entry (docs/double-entry.md); the services write them."""

    list_display = ("match", "version", "entered_by", "status", "summary", "entered_at")
    list_filter = ("status",)
    search_fields = ("match__code", "entered_by__username", "match__round__event__name")
    list_select_related = ("match__round__event", "entered_by")
    readonly_fields = [f.name for f in models.ResultEntry._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(models.Notification)
class NotificationAdmin(admin.ModelAdmin[models.Notification]):
    """What was mailed to whom, and what could not be (the error is kept)."""

    list_display = ("kind", "user", "event", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("key", "user__username", "user__email", "event__name")
    list_select_related = ("user", "event")
    readonly_fields = [f.name for f in models.Notification._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


# --- series (docs/series.md) ---------------------------------------------------------------
# The rule (value, best, points, ties) is checked by the services: read-only here, changed
# on the director's series screen; names, description and visibility are the admin's.


class SeriesDirectorInline(admin.TabularInline[models.SeriesDirector, models.Series]):
    model = models.SeriesDirector
    extra = 0
    autocomplete_fields = ["user"]


class SeriesStageInline(admin.TabularInline[models.SeriesStage, models.Series]):
    model = models.SeriesStage
    extra = 0
    fields = ["order", "name", "kind", "event", "imported_at"]
    readonly_fields = ["kind", "event", "imported_at"]
    show_change_link = True


@admin.register(models.Series)
class SeriesAdmin(admin.ModelAdmin[models.Series]):
    list_display = ["name", "slug", "kind", "value", "best", "ties", "public"]
    list_filter = ["kind", "public"]
    search_fields = ["name", "slug"]
    readonly_fields = ["value", "best", "points", "ties", "created_at", "updated_at"]
    filter_horizontal = ["feeds"]
    inlines = [SeriesDirectorInline, SeriesStageInline]


class SeriesScoreInline(admin.TabularInline[models.SeriesScore, models.SeriesStage]):
    model = models.SeriesScore
    extra = 0
    readonly_fields = ["row", "name", "wof_id", "score"]
    can_delete = False


@admin.register(models.SeriesStage)
class SeriesStageAdmin(admin.ModelAdmin[models.SeriesStage]):
    list_display = ["name", "series", "order", "kind", "event"]
    list_filter = ["kind"]
    search_fields = ["name", "series__name"]
    readonly_fields = ["kind", "event", "imported_at"]
    inlines = [SeriesScoreInline]


@admin.register(models.SeriesMerge)
class SeriesMergeAdmin(admin.ModelAdmin[models.SeriesMerge]):
    list_display = ["name", "same_as", "series", "created_by", "created_at"]
    search_fields = ["name", "same_as", "series__name"]


# --- entries (docs/registration.md) --------------------------------------------------------
# The line is the places machine's (tournaments/services/places.py): read-only here, acted
# on from the director's Entries screen, where every change is locked and audited.


@admin.register(models.Entry)
class EntryAdmin(admin.ModelAdmin[models.Entry]):
    list_display = ("name", "event", "order", "status", "source", "created_at")
    list_filter = ("status", "source")
    search_fields = ("name", "email", "event__name")
    list_select_related = ("event",)
    readonly_fields = [f.name for f in models.Entry._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
