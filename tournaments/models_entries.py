"""Entries before entrants (issue 32): an event's ordered line of candidates for its places,
filled by a public entry form (registration) or by a ranked list (qualification), and the
settings that govern it. tournaments/services/places.py is their only writer.

One machine serves both: an entry waits in order, is OFFERED a place with a deadline (or
takes a free one at once when it asked for it through the form), and a decline, withdrawal,
refusal or missed deadline offers the freed place to the next in order. Entries become
entrants only when the director says ("Make entrants").
"""

from __future__ import annotations

import secrets

from django.conf import settings as conf
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


def new_entry_token() -> str:
    return secrets.token_urlsafe(18)


class Registration(models.Model):
    """How an event fills its places: its settings, one row per event (made on first use)."""

    class Source(models.TextChoices):
        FORM = "form", _("Public entry form")
        RANKED_LIST = "ranked_list", _("A ranked list (CSV)")
        SERIES = "series", _("A series' standings")

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="registration"
    )
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.FORM)
    # The public form takes entries only while open and before closes_at.
    open = models.BooleanField(default=False)
    # Places: entries beyond it wait in order. None: no limit.
    capacity = models.PositiveIntegerField(null=True, blank=True)
    closes_at = models.DateTimeField(null=True, blank=True)
    # How long someone offered a place has to confirm it.
    confirm_hours = models.PositiveIntegerField(default=48)
    # Eligibility: a minimum rating in the imported rating list, and/or a federation the
    # list says the player belongs to ("FRA GBR"); either makes the list a requirement.
    min_rating = models.IntegerField(null=True, blank=True)
    federations = models.CharField(max_length=200, blank=True)
    # Where a qualified list came from, said in each place's reason ("GP 2026").
    source_label = models.CharField(max_length=120, blank=True)
    series_key = models.CharField(max_length=120, blank=True)

    def __str__(self) -> str:
        return f"Registration of {self.event}"

    @property
    def federation_list(self) -> list[str]:
        return [f.upper() for f in self.federations.replace(",", " ").split() if f]

    @property
    def needs_rating_list(self) -> bool:
        return self.min_rating is not None or bool(self.federation_list)


class RatingListRow(models.Model):
    """One player of the rating list an event's eligibility reads (a WOF file or a CSV)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="rating_list"
    )
    external_id = models.CharField(max_length=40, blank=True)
    name = models.CharField(max_length=150)
    # The name folded (case, accents, spacing, order of words) for matching a typed name.
    name_key = models.CharField(max_length=150, db_index=True)
    rating = models.IntegerField(null=True, blank=True)
    federation = models.CharField(max_length=3, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    class Status(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("E-mail not confirmed yet")
        ACCEPTED = "accepted", _("Has a place")
        OFFERED = "offered", _("Offered a place")
        WAITING = "waiting", _("Waiting list")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Did not confirm in time")
        WITHDRAWN = "withdrawn", _("Withdrew")
        REFUSED = "refused", _("Refused by the director")

    class Source(models.TextChoices):
        FORM = "form", _("Entry form")
        QUALIFIED = "qualified", _("Qualified")

    # Statuses in the line (holding a place or waiting for one): one per person per event.
    IN_LINE = ("unconfirmed", "accepted", "offered", "waiting")
    HOLDING = ("accepted", "offered")

    event = models.ForeignKey("tournaments.Event", on_delete=models.CASCADE, related_name="entries")
    # The place in the line: the order of entry (of the confirmed e-mail) or the rank in a
    # qualification list. None until the entry joins the line.
    order = models.PositiveIntegerField(null=True, blank=True)
    source = models.CharField(max_length=20, choices=Source.choices, default=Source.FORM)
    name = models.CharField(max_length=150)
    # Empty: a qualified player whose address nobody knows (no mail; the director acts).
    email = models.EmailField(max_length=254, blank=True)
    user = models.ForeignKey(
        conf.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="registrations",
    )
    external_id = models.CharField(max_length=40, blank=True)
    rating = models.IntegerField(null=True, blank=True)
    federation = models.CharField(max_length=3, blank=True)
    # The qualifying score (a series total, a ranked list's score), when the source gave
    # one: a WPF playoffs event seeds its entrants by it (docs/registration.md).
    score = models.FloatField(null=True, blank=True)
    # Why this entry has its place in the line: "3rd in GP 2026 (total 4,210)".
    reason = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.UNCONFIRMED)
    # The secret of the entrant's own links (confirm, decline, withdraw): no sign-in needed.
    token = models.CharField(max_length=40, unique=True, default=new_entry_token)
    created_at = models.DateTimeField()
    joined_at = models.DateTimeField(null=True, blank=True)
    offered_at = models.DateTimeField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    entrant = models.OneToOneField(
        "tournaments.Entrant",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entry",
    )

    class Meta:
        ordering = ["order", "created_at", "id"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["event", "order"],
                condition=Q(order__isnull=False),
                name="one_entry_per_place",
            ),
            models.UniqueConstraint(
                fields=["event", "email"],
                condition=Q(status__in=["unconfirmed", "accepted", "offered", "waiting"])
                & ~Q(email=""),
                name="one_entry_in_line_per_email",
            ),
            models.CheckConstraint(
                condition=~Q(status="offered") | Q(offer_expires_at__isnull=False),
                name="an_offer_has_a_deadline",
            ),
        ]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"
