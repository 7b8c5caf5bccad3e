"""Series (issue 32): a season, a circuit or a Grand Prix made of ordered stages, each an
Arbiter event (its final ranking gives places) or imported scores (a CSV of player, score
[, WOF id]). The rule of the total lives in rules/series.py; the reads and writes in
tournaments/services/series.py; docs/series.md tells the director's side."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from django.conf import settings as conf
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from rules import series as rules
from tournaments.models_audit import AuditFields

if TYPE_CHECKING:
    from accounts.models import User


class Series(models.Model):
    class Kind(models.TextChoices):
        SEASON = "season", _("Season")
        CIRCUIT = "circuit", _("Circuit")
        GRAND_PRIX = "grand_prix", _("Grand Prix")

    class Value(models.TextChoices):
        SCORE = rules.Value.SCORE.value, _("Imported scores as they are")
        PLACE_POINTS = rules.Value.PLACE_POINTS.value, _("Points by place")

    class Ties(models.TextChoices):
        SHARED = rules.Ties.SHARED.value, _("Equal totals share the rank")
        COUNTBACK = rules.Ties.COUNTBACK.value, _("Countback (best values first)")

    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.SEASON)
    description = models.TextField(blank=True, max_length=2000)
    value = models.CharField(max_length=20, choices=Value.choices, default=Value.SCORE)
    # None: every stage counts (the sum); N: each player's N best stages ("six best of eight")
    best = models.PositiveSmallIntegerField(null=True, blank=True)
    # points of place 1, 2, ... (numbers as text, exact: "12.5"); a place past the end: 0
    points = models.JSONField(default=list, blank=True)
    ties = models.CharField(max_length=20, choices=Ties.choices, default=Ties.SHARED)
    public = models.BooleanField(default=False)
    # the events this series qualifies players for (the GP feeds the WPF playoffs)
    feeds = models.ManyToManyField("tournaments.Event", blank=True, related_name="fed_by_series")
    directors: models.ManyToManyField[User, SeriesDirector] = models.ManyToManyField(
        conf.AUTH_USER_MODEL, through="SeriesDirector", related_name="directed_series"
    )
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_series",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=Q(best__isnull=True) | Q(best__gte=1), name="series_best_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:series", args=[self.slug])

    def rule(self) -> rules.SeriesRule:
        return rules.SeriesRule(
            value=rules.Value(self.value),
            best=self.best,
            points=tuple(Fraction(str(p)) for p in self.points or ()),
            ties=rules.Ties(self.ties),
        )


class SeriesDirector(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE)
    user = models.ForeignKey(conf.AUTH_USER_MODEL, on_delete=models.CASCADE)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["series", "user"], name="unique_series_director")
        ]

    def __str__(self) -> str:
        return f"{self.user} directs {self.series}"


class SeriesStage(models.Model):
    class Kind(models.TextChoices):
        EVENT = "event", _("Arbiter event")
        SCORES = "scores", _("Imported scores")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # An event deleted (or replaced by a restore) takes its stage with it: the series then
    # has one stage fewer, never a stage that points nowhere.
    event = models.ForeignKey(
        "tournaments.Event",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="series_stages",
    )
    imported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["series", "order", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "event"],
                condition=Q(event__isnull=False),
                name="unique_event_per_series",
            ),
            models.CheckConstraint(
                condition=Q(kind="event", event__isnull=False)
                | Q(kind="scores", event__isnull=True),
                name="series_stage_kind_matches_event",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class SeriesScore(models.Model):
    """One row of an imported stage: the player as the file names them, and the score."""

    stage = models.ForeignKey(SeriesStage, on_delete=models.CASCADE, related_name="scores")
    row = models.PositiveIntegerField(help_text=_("The line of the file, from 1."))
    name = models.CharField(max_length=150)
    wof_id = models.CharField(max_length=40, blank=True)
    score = models.DecimalField(max_digits=14, decimal_places=4)

    class Meta:
        ordering = ["stage", "row"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "row"], name="unique_series_score_row")
        ]

    def __str__(self) -> str:
        return f"{self.name}: {self.score}"


class SeriesMerge(models.Model):
    """A director's word that two spellings are one player (name-only entries)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="merges")
    name = models.CharField(max_length=150)
    same_as = models.CharField(max_length=150)
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series", "name"]
        constraints = [
            models.UniqueConstraint(fields=["series", "name"], name="unique_series_merge_name")
        ]

    def __str__(self) -> str:
        return f"{self.name} = {self.same_as}"


class SeriesAuditEntry(AuditFields):
    """A change a director made to a series (its rule, stages, imported scores, merges, the
    events it qualifies players for): the series' own audit log, the same shape as an
    event's AuditEntry and worded by the same tournaments/audit_words.py. A series spans
    events, so its log cannot be one event's (docs/series.md, "Audit")."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="audit_entries")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "series audit entries"
        indexes = [models.Index(fields=["series", "action"])]
