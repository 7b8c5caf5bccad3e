"""The database of events. Only tournaments/services writes to it; rules/ never sees it.

The engine contract (rules/contract.py) is the shape these rows are mapped to and from in
tournaments/services/state.py.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from django.conf import settings as conf
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules import registry
from rules.engine_base import SettingsMixin
from tournaments.fields import JSONTextField
from tournaments.models_audit import AuditFields
from tournaments.signals import events_written

if TYPE_CHECKING:
    from accounts.models import User
    from rules.contract import Engine


def new_seed() -> str:
    return secrets.token_hex(16)


def new_claim_code() -> str:
    return secrets.token_urlsafe(9)


class EventQuerySet(models.QuerySet["Event"]):
    """Every bulk write to events tells the public page cache (its stamps name the events'
    versions), as Event.save and delete do: a signal the view side listens to
    (tournaments.apps), so models import no view."""

    def update(self, **kwargs: Any) -> int:
        events_written.send(sender=Event)
        return super().update(**kwargs)

    def delete(self) -> tuple[int, dict[str, int]]:
        events_written.send(sender=Event)
        return super().delete()


class Event(models.Model):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    format = models.CharField(max_length=40, help_text=_("The rule set (engine key)."))
    settings = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    public = models.BooleanField(default=False)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    venue = models.CharField(max_length=200, blank=True)
    # Draws typed in by the director from an outside draw instead of made by Arbiter.
    external_draws = models.BooleanField(default=False)
    # Double entry of results (docs/double-entry.md): a result typed on the results screen
    # is saved only when a second person's entry agrees. A director-side option, not the
    # engine's: event.settings are the format's rules.
    double_entry = models.BooleanField(default=False)
    # The seed every application-made draw of this event derives from (rules/draws.py).
    random_seed = models.CharField(max_length=64, default=new_seed)
    # Raised by every result change; standings are current when both versions match.
    results_version = models.PositiveIntegerField(default=0)
    standings_version = models.PositiveIntegerField(default=0)
    # The results version of the last change that was not one match's result (a round
    # published, a draw, a withdrawal, an import): the incremental standings refresh
    # (services/standings.py) goes the whole way when it is newer than what it kept.
    shape_version = models.PositiveIntegerField(default=0)
    # The standings version whose outlook (contention) is published: the standings are
    # published first, the outlook when it is ready.
    outlook_version = models.PositiveIntegerField(default=0)
    # Venue mode (docs/venue.md): "" a plain event; "venue" written here and pushed to a
    # public copy; "copy" the public copy, read-only; "writer" the public copy after a
    # takeover; "fenced" a venue that is no longer the writer. On the event row so that a
    # page knows without a query whether it may write and when the copy was updated.
    mirror_state = models.CharField(max_length=10, blank=True, default="")
    mirrored_at = models.DateTimeField(null=True, blank=True)
    directors: models.ManyToManyField[User, EventDirector] = models.ManyToManyField(
        conf.AUTH_USER_MODEL, through="EventDirector", related_name="directed_events"
    )
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_events",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True)
                | Q(starts_on__isnull=True)
                | Q(ends_on__gte=models.F("starts_on")),
                name="event_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event", args=[self.slug])

    @property
    def engine(self) -> Engine:
        return registry.get(self.format)

    def resolved_settings(self) -> dict[str, Any]:
        """The settings with the engine's defaults filled in."""
        engine = self.engine
        if isinstance(engine, SettingsMixin):
            return engine.resolved(self.settings)
        return dict(self.settings)

    @property
    def format_name(self) -> str:
        try:
            return gettext(self.engine.name)  # marked in rules/, said in the page's language
        except registry.UnknownFormat:
            return self.format

    @property
    def standings_current(self) -> bool:
        return self.standings_version >= self.results_version


class EventDirector(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE)
    user = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.CASCADE)
    added_at = models.DateTimeField(auto_now_add=True)
    # No e-mail about this event (disputes) to this director: the mails' unsubscribe link.
    emails_off = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="one_director_row_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} directs {self.event}"


class Team(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=120)
    country = models.CharField(max_length=3, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="unique_team_name_per_event"),
        ]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    class Gender(models.TextChoices):
        UNSPECIFIED = "", _("Not given")
        FEMALE = "F", _("Female")
        MALE = "M", _("Male")
        OTHER = "X", _("Other")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    # Registration number within the event: the entrant's id in engine state, draws,
    # reasons and event files, so that records stay valid across export and import.
    number = models.PositiveIntegerField()
    # The name the pages show ("Hélène Dupré"); the family and given names are kept apart
    # for files that carry them in their own places (a WOF file's NAME and Firstname). Empty
    # parts: not said (an entrant typed before they existed); the WOF export then guesses.
    name = models.CharField(max_length=150)
    family_name = models.CharField(_("family name"), max_length=150, blank=True)
    given_name = models.CharField(_("given name"), max_length=150, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    seed = models.PositiveIntegerField(null=True, blank=True)
    country = models.CharField(max_length=3, blank=True)
    gender = models.CharField(max_length=1, choices=Gender.choices, blank=True, default="")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="members"
    )
    external_id = models.CharField(
        max_length=40, blank=True, help_text=_("An id in another system, e.g. the WOF id.")
    )
    # Format flags and data (Othello 'group_a', GokoDom 'colour', contest 'reference' ...):
    # each engine documents the keys it reads.
    flags = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_after_round = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        conf.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
    )
    claim_code = models.CharField(max_length=24, default=new_claim_code, unique=True)
    # The player turned e-mail about this event off (their page, or a mail's link).
    emails_off = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_entrant_number"),
            models.UniqueConstraint(
                fields=["event", "seed"],
                condition=Q(seed__isnull=False),
                name="unique_seed_per_event",
            ),
            models.UniqueConstraint(
                fields=["event", "external_id"],
                condition=~Q(external_id=""),
                name="unique_external_id_per_event",
            ),
            models.CheckConstraint(
                condition=Q(status="active", withdrawn_after_round__isnull=True)
                | Q(status="withdrawn", withdrawn_after_round__isnull=False),
                name="withdrawal_has_round",
            ),
        ]
        indexes = [models.Index(fields=["event", "name"])]

    def __str__(self) -> str:
        return self.name


class EntrantChange(models.Model):
    """A statement that changed what the standings read of an event's entrants (their
    number, name, rating, seed, country, gender, team and its name, flags, status,
    withdrawal), written by the database's own triggers (migration 0026, PostgreSQL), so
    that no writer can forget it. Their count is the entrants' part of the standings'
    shape digest (services/standings_kept.py): one indexed count rather than a hash of
    every entrant (11 to 27 ms at 10,000 entrants, on every saved result). Rows only ever
    arrive: a change committed late still raises the count. No foreign key: the rows of
    an entrant deleted with its event are removed with the event by a trigger too."""

    id = models.BigAutoField(primary_key=True)
    event_id = models.BigIntegerField(db_index=True)

    def __str__(self) -> str:
        return f"entrants of event {self.event_id} changed"


class CheckIn(models.Model):
    """Whether an entrant plays a round still to be drafted (issue 21: check-in).

    An entrant without a row is present. When round ``round_number`` is drafted, the
    absent ones reach the engine (EventState.absent), which leaves them out of that round
    as the format says and records them in the round; the rows stay as the record of who
    said so. Deleting the draft brings them back into force for the next draft."""

    class Source(models.TextChoices):
        DIRECTOR = "director", _("Marked by a director")
        PLAYER = "player", _("Said by the player")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="check_ins")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="check_ins")
    round_number = models.PositiveIntegerField()
    present = models.BooleanField(default=True)
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.DIRECTOR)
    changed_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    changed_at = models.DateTimeField()

    class Meta:
        ordering = ["event", "round_number", "entrant"]
        constraints = [
            models.UniqueConstraint(
                fields=["entrant", "round_number"], name="one_check_in_per_entrant_and_round"
            ),
            models.CheckConstraint(
                condition=Q(round_number__gte=1), name="check_in_round_positive"
            ),
        ]
        indexes = [models.Index(fields=["event", "round_number"])]

    def __str__(self) -> str:
        state = "present" if self.present else "absent"
        return f"{self.entrant} {state} for round {self.round_number}"


class Stage(models.Model):
    """A part of an event with its own system: 'Swiss', 'Round 1 groups', 'Knockout'."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveIntegerField()
    key = models.SlugField(max_length=40)
    name = models.CharField(max_length=120)

    class Meta:
        ordering = ["order"]
        constraints = [
            models.UniqueConstraint(fields=["event", "order"], name="unique_stage_order"),
            models.UniqueConstraint(fields=["event", "key"], name="unique_stage_key"),
        ]

    def __str__(self) -> str:
        return self.name


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        COMPLETED = "completed", _("Completed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    stage = models.ForeignKey(
        Stage, null=True, blank=True, on_delete=models.SET_NULL, related_name="rounds"
    )
    number = models.PositiveIntegerField()
    label = models.CharField(max_length=80)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    starts_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    # The engine's round-level reasons and data (system, draw numbers, boards).
    reasons = models.JSONField(default=list, blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.label}"


class Group(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="groups")
    key = models.CharField(max_length=20)
    label = models.CharField(max_length=80)
    order = models.PositiveIntegerField(default=0)
    entrants: models.ManyToManyField[Entrant, GroupMember] = models.ManyToManyField(
        Entrant, through="GroupMember", related_name="groups"
    )

    class Meta:
        ordering = ["round", "order"]
        constraints = [
            models.UniqueConstraint(fields=["round", "key"], name="unique_group_key_per_round"),
        ]

    def __str__(self) -> str:
        return self.label


class GroupMember(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="memberships")
    seed = models.PositiveIntegerField()

    class Meta:
        ordering = ["group", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["group", "seed"], name="unique_group_seed"),
            models.UniqueConstraint(fields=["group", "entrant"], name="unique_group_entrant"),
        ]

    def __str__(self) -> str:
        return f"{self.group}: {self.seed}. {self.entrant}"


class Match(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    group = models.ForeignKey(
        Group, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    code = models.CharField(max_length=40)
    bracket = models.CharField(max_length=40, blank=True)
    table = models.PositiveIntegerField(null=True, blank=True)
    order = models.PositiveIntegerField(default=0)
    # Raised by every result change: a save names the version it read (optimistic locking).
    version = models.PositiveIntegerField(default=0)
    # The event's results version of this match's last result change (result_changes.py):
    # the incremental standings refresh reloads only the matches changed since its state.
    results_version = models.PositiveIntegerField(default=0, db_index=True)
    # The engine's score of the games: {"points": [...], "winner": seat, "summary": "33-31"}.
    result = models.JSONField(null=True, blank=True)
    reasons = models.JSONField(default=list, blank=True)
    details = models.JSONField(default=dict, blank=True)
    # A director changed the engine's proposal for this match (pairing, seat, colour).
    overridden = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "order", "code"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["round", "code"], name="unique_match_code_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round.label} {self.code}"

    @property
    def is_bye(self) -> bool:
        return len(self.participants.all()) == 1


class MatchParticipant(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="participants")
    seat = models.PositiveSmallIntegerField(help_text=_("Seat order within the match, from 0."))
    # Null for a virtual player (a bye, a filler).
    entrant = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="participations"
    )
    role = models.CharField(max_length=20, blank=True, help_text=_("A/B, black/white, X/O ..."))
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="unique_seat_per_match"),
            models.UniqueConstraint(
                fields=["match", "entrant"],
                condition=Q(entrant__isnull=False),
                name="entrant_once_per_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match.code} seat {self.seat}: {self.entrant or 'virtual'}"


class Game(models.Model):
    class Ending(models.TextChoices):
        NORMAL = "normal", _("Normal")
        RESIGNATION = "resignation", _("Resignation")
        TIME_DEFAULT = "time_default", _("Time default")
        FORFEIT = "forfeit", _("Forfeit")
        DEFAULT = "default", _("Default")
        BYE = "bye", _("Bye")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    # One score per seat (discs, game points, seconds), in seat order; null when unknown.
    scores = models.JSONField(default=list)
    first_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Seat of the participant who moved first.")
    )
    ending = models.CharField(max_length=20, choices=Ending.choices, default=Ending.NORMAL)
    # Penalties, submissions, solve times, board, colours chosen ...
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_game_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.match.code} game {self.number}"


class ResultChange(models.Model):
    """The audit trail of results: one row per version of a match's result."""

    class Source(models.TextChoices):
        WEB = "web", _("Entered in the browser")
        IMPORT = "import", _("Imported")
        API = "api", _("Posted by a program")
        ADMIN = "admin", _("Django admin")
        SYSTEM = "system", _("Applied by a rule")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="result_changes")
    version = models.PositiveIntegerField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    changed_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    changed_at = models.DateTimeField()
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.WEB)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            # Two saves that both read version n can never both write version n + 1.
            models.UniqueConstraint(fields=["match", "version"], name="one_result_per_version"),
            models.CheckConstraint(condition=Q(version__gte=1), name="result_version_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.match} v{self.version}"


class AuditEntry(AuditFields):
    """Everything else that changed an event, with a namespaced action ("round.published")."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="audit_entries")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["event", "action"])]


class RandomDraw(models.Model):
    class Method(models.TextChoices):
        SEEDED = "seeded", _("Drawn by Arbiter from the event's seed")
        EXTERNAL = "external", _("Typed in from an outside draw")
        RECORD = "record", _("Taken from an imported record")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="draws")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="draws"
    )
    key = models.CharField(max_length=120)
    purpose = models.CharField(max_length=200, blank=True)
    method = models.CharField(max_length=20, choices=Method.choices, default=Method.SEEDED)
    value = models.JSONField()
    details = models.JSONField(default=dict, blank=True)
    drawn_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    drawn_at = models.DateTimeField()

    class Meta:
        ordering = ["event", "drawn_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "key"], name="unique_draw_key_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.key}"


class StandingsSnapshot(models.Model):
    """Standings as computed from one results version; the newest published one is public."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="snapshots")
    results_version = models.PositiveIntegerField()
    after_round = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField()
    published = models.BooleanField(default=False)
    final = models.BooleanField(default=False)
    # Per table: key, title, columns, decided (the reasons), notes; rows are StandingsRow.
    # Stored as json, not jsonb: written whole on every saved result (tournaments/fields.py).
    tables = JSONTextField(default=list)
    pending = models.JSONField(default=list, blank=True)
    # Who can still win / reach the next stage (rules.contention), stored with the standings
    # so public pages read it without another query: stage_key, stage_name, method, notes.
    contention = models.JSONField(default=dict, blank=True)
    # True from the standings' publication until their outlook (contention) is attached.
    outlook_pending = models.BooleanField(default=False)
    # The snapshot whose rows this one shares until its outlook is attached: only the rows
    # that differ from it are stored here (services/standings_rows.py). Not a foreign
    # key: the pruning keeps it while it is shared, and a reader never follows it alone.
    rows_from = models.BigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["event", "-results_version"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "results_version"], name="one_snapshot_per_results_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} standings v{self.results_version}"


class StandingsRow(models.Model):
    # A snapshot is thousands of rows written at once (10,000 at the WOC): the database's
    # own foreign key checks were a check per row at the commit, more than the rows' writing
    # (docs/performance.md, "Storing a 10,000-row snapshot"). The rows are written by
    # standings_store alone, with the snapshot of the same transaction and the event's
    # entrants, and removed with them by Django's CASCADE. Three indexes, not five: the
    # snapshot's and the entrant's are the unique constraints' first columns.
    snapshot = models.ForeignKey(
        StandingsSnapshot,
        on_delete=models.CASCADE,
        related_name="rows",
        db_constraint=False,
        db_index=False,
    )
    table_key = models.CharField(max_length=60, default="overall")
    position = models.PositiveIntegerField(help_text=_("Order within the table, from 1."))
    # its index is entrant_once_per_table's, which starts with it
    entrant = models.ForeignKey(
        Entrant,
        on_delete=models.CASCADE,
        related_name="standings_rows",
        db_constraint=False,
        db_index=False,
    )
    rank = models.PositiveIntegerField()
    points = models.FloatField(null=True, blank=True)
    values = models.JSONField(default=dict)
    status = models.CharField(max_length=20, blank=True)
    details = models.JSONField(default=dict, blank=True)
    # The entrant's contention verdicts: {"win": {...}, "stage": {...} or None}.
    contention = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["snapshot", "table_key", "position"]
        constraints = [
            # entrant first: the index serves an entrant's rows (their page, a deletion)
            models.UniqueConstraint(
                fields=["entrant", "snapshot", "table_key"], name="entrant_once_per_table"
            ),
            models.UniqueConstraint(
                fields=["snapshot", "table_key", "position"], name="unique_position_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entrant}"


def report_path(report: Report, filename: str) -> str:
    return f"reports/{report.event_id}/{report.pk or 'new'}-{filename}"


class Report(models.Model):
    """A printable or exportable file built by a task (tournaments/services/reports.py)."""

    class Kind(models.TextChoices):
        PAIRINGS_BY_TABLE = "pairings_table", _("Pairings sheet, by table")
        PAIRINGS_BY_NAME = "pairings_name", _("Pairings sheet, alphabetical")
        RESULT_SLIPS = "result_slips", _("Result slips")
        STANDINGS_PDF = "standings_pdf", _("Standings (PDF)")
        CROSSTABLE_PDF = "crosstable_pdf", _("Crosstable (PDF)")
        ENTRANTS_CSV = "entrants_csv", _("Entrants (CSV)")
        RESULTS_CSV = "results_csv", _("Results (CSV)")
        STANDINGS_CSV = "standings_csv", _("Standings (CSV)")
        INVITATIONS = "invitations", _("Invitation slips, every entrant")
        INVITATIONS_UNCLAIMED = "invitations_open", _("Invitation slips, entries not claimed")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting")
        RUNNING = "running", _("Building")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    # The round of a pairings sheet or result slips; null for the whole event.
    round_number = models.PositiveIntegerField(null=True, blank=True)
    # The event's results version the report was asked for: one build per version.
    results_version = models.PositiveIntegerField(default=0)
    # What a kind needs beyond the event: invitation slips keep the site address the
    # director used (the links are absolute) and a fingerprint of the codes they print.
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text=_("Percent built."))
    message = models.CharField(max_length=300, blank=True)
    file = models.FileField(upload_to=report_path, blank=True)
    requested_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    requested_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        indexes = [models.Index(fields=["event", "kind", "results_version"])]

    def __str__(self) -> str:
        return f"{self.event}: {self.get_kind_display()}"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)


class RefereeToken(models.Model):
    """A bot contest's referee program posts games with this token (issue 9).

    Only a SHA-256 hash is stored: the token itself is shown once, when it is made.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="referee_tokens")
    token_hash = models.CharField(max_length=64, unique=True)
    # The token's last characters, so the director can tell tokens apart.
    hint = models.CharField(max_length=8)
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at"]

    def __str__(self) -> str:
        return f"{self.event}: referee token …{self.hint}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class ApiToken(models.Model):
    """A director's key to an event's API operations that need more than the public
    reads (issue 30 step 7: the whole-event export; later a mirror's push). Belongs to one
    event and the director who made it, holds named scopes, and stores only a peppered
    hash of its secret (tournaments/services/api_tokens.py): shown once, when made."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="api_tokens")
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    name = models.CharField(max_length=80)
    # The secret's first characters ("arb_Xy12ab"): tells tokens apart, proves nothing.
    prefix = models.CharField(max_length=16)
    token_hash = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.event}: API token {self.prefix}… ({self.name})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class RefereeGame(models.Model):
    """One game a referee program posted, by its game id: a retried post finds it here and
    counts nothing twice, even after the director edited the match by hand."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="referee_games")
    game_id = models.CharField(max_length=100)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="referee_games")
    game_number = models.PositiveSmallIntegerField()
    payload = models.JSONField(default=dict)
    received_at = models.DateTimeField()

    class Meta:
        ordering = ["event", "received_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "game_id"], name="referee_game_id_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: game {self.game_id}"


class ImportJob(models.Model):
    """A confirmed import waiting for, or done by, the worker (issue 20: a large file is
    saved by a task with progress, never in the request). The checked file is kept only
    until the job ends."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Imported")
        FAILED = "failed", _("Refused")

    user = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.CASCADE)
    kind = models.CharField(max_length=10)
    filename = models.CharField(max_length=255, blank=True)
    slug = models.SlugField(max_length=80)
    name = models.CharField(max_length=200, blank=True)
    labels = models.JSONField(null=True, blank=True)  # a WOF file's confirmed labels
    # a WOF file's contradicting lines as the director resolved them: {"12": "drop"}
    resolutions = models.JSONField(null=True, blank=True)
    text = models.TextField(blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text=_("Percent done."))
    problems = models.JSONField(default=list, blank=True)  # the refusal, sentence by sentence
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"import of {self.slug} ({self.get_status_display()})"


class ResultEntry(models.Model):
    """One person's entry of a match's result under double entry (docs/double-entry.md).

    Kept until a second person's entry made against the same match version agrees (then the
    result is saved through services.results.record and the entries go) or disagrees (both
    stay, marked, until the head director settles the match). An entry made against an
    older version of the match is void."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for a second entry")
        DISAGREED = "disagreed", _("Disagrees with the other entry")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="entries")
    version = models.PositiveIntegerField(help_text=_("The match version it was entered at."))
    games = models.JSONField(default=list)
    match_details = models.JSONField(default=dict, blank=True)
    summary = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    entered_by = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.CASCADE)
    entered_at = models.DateTimeField()

    class Meta:
        ordering = ["match", "entered_at", "id"]
        verbose_name_plural = "result entries"
        constraints = [
            models.UniqueConstraint(
                fields=["match", "version", "entered_by"], name="one_entry_per_person_per_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} v{self.version}: {self.entered_by}"


class Notification(models.Model):
    """One e-mail to one person (tournaments/services/notifications.py): written with the
    action that causes it, sent after the commit by a task, marked sent under its row lock,
    so a retried or duplicated task never mails twice."""

    class Kind(models.TextChoices):
        PAIRING = "pairing", _("Pairing published")
        DISPUTE = "dispute", _("Result disputed")
        SETTLED = "settled", _("Dispute settled")
        ENTRY = "entry", _("Entry and invitation")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Not sent (turned off, or no address)")
        FAILED = "failed", _("Failed")

    # What was sent to whom, e.g. "pairing:<round>:<entrant>": one mail per key, ever.
    key = models.CharField(max_length=120, unique=True)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # An entry's mails (registration, invitations) may go to an address with no account.
    user = models.ForeignKey(conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE)
    email = models.EmailField(max_length=254, blank=True)
    entrant = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.CASCADE)
    entry = models.ForeignKey(
        "tournaments.Entry", null=True, blank=True, on_delete=models.CASCADE, related_name="mails"
    )
    # A round paired again is deleted with its pairings: its unsent mails go with it.
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE)
    details = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.user} ({self.get_status_display()})"


class RatingSubmission(models.Model):
    """A WOF rating file sent to the rating officer (issue 30, step 6): the copy as sent,
    to whom, by whom, and when (tournaments/services/rating_report.py). One row per
    sending; the newest is the event's."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rating_submissions")
    recipient = models.EmailField()
    filename = models.CharField(max_length=120)
    text = models.TextField(help_text=_("The file exactly as it was sent."))
    # The header fields the director typed (Country, Sender): the next file starts from them.
    header = models.JSONField(default=dict, blank=True)
    results_version = models.PositiveIntegerField()
    sent_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    confirmed_at = models.DateTimeField()
    # Set by the mail task once the mail server took it; empty while it waits (or retries).
    mailed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-confirmed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.event}: {self.filename} to {self.recipient}"


# Entries, series, venue mode and webhooks live in their own modules (kept apart to keep this file's
# merges small).
from tournaments.models_entries import Entry as Entry  # noqa: E402
from tournaments.models_entries import RatingListRow as RatingListRow  # noqa: E402
from tournaments.models_entries import Registration as Registration  # noqa: E402
from tournaments.models_series import Series as Series  # noqa: E402
from tournaments.models_series import SeriesAuditEntry as SeriesAuditEntry  # noqa: E402
from tournaments.models_series import SeriesDirector as SeriesDirector  # noqa: E402
from tournaments.models_series import SeriesMerge as SeriesMerge  # noqa: E402
from tournaments.models_series import SeriesScore as SeriesScore  # noqa: E402
from tournaments.models_series import SeriesStage as SeriesStage  # noqa: E402
from tournaments.models_venue import MirrorChange as MirrorChange  # noqa: E402
from tournaments.models_venue import MirrorLink as MirrorLink  # noqa: E402
from tournaments.models_webhooks import WebhookDelivery as WebhookDelivery  # noqa: E402
from tournaments.models_webhooks import WebhookEndpoint as WebhookEndpoint  # noqa: E402
