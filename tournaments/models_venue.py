"""Venue mode (issue 31, docs/venue.md): an event run on a machine at the venue and
mirrored to a public Arbiter. Kept apart from models.py to keep its merges small."""

from __future__ import annotations

import secrets

from django.db import models

from tournaments import sealing


def new_writer_id() -> str:
    return "w_" + secrets.token_hex(12)


class MirrorLink(models.Model):
    """An event's side of a mirror: on the venue, where it pushes and what was acknowledged;
    on the public copy, what it received. ``Event.mirror_state`` says which side (and
    whether this machine may write); the row holds the rest."""

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="mirror_link"
    )
    # the venue: the public event's address and the token it sends (the venue must send it,
    # so it keeps it sealed: tournaments/sealing.py; read it with .token, set it with
    # .set_token; never shown whole on a screen)
    public_url = models.URLField(max_length=300, blank=True)
    sealed_token = models.CharField(max_length=400, blank=True)
    # this machine's writer id (venue), or the writer the copy accepts pushes from
    writer = models.CharField(max_length=40, default=new_writer_id)
    epoch = models.PositiveIntegerField(default=1)
    # the event's last change: counted by the writer, the last applied on the copy
    version = models.PositiveIntegerField(default=0)
    # the venue: the last version the public copy acknowledged
    acked_version = models.PositiveIntegerField(default=0)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)
    retry_at = models.DateTimeField(null=True, blank=True)
    # a pusher's claim on the link (two pushers never send the same link at once)
    pushing_until = models.DateTimeField(null=True, blank=True)
    # why this machine no longer writes the event (fenced): the copy's words
    refused = models.CharField(max_length=400, blank=True)
    # the copy: when the writer last changed (a takeover, a pull) and how
    epoch_reason = models.CharField(max_length=20, blank=True)
    epoch_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.event_id}: mirror link (epoch {self.epoch}, version {self.version})"

    @property
    def token(self) -> str:
        """The mirror token in clear, to send; ValueError when it cannot be opened (sealed
        under a SECRET_KEY this machine no longer has: enter it again)."""
        return sealing.unseal(self.sealed_token) if self.sealed_token else ""

    def set_token(self, token: str) -> None:
        self.sealed_token = sealing.seal(token) if token else ""

    @property
    def token_hint(self) -> str:
        """The token's first 12 characters (arb_ and 8 more), as the public copy's API
        tokens screen lists it; "" when it cannot be opened."""
        try:
            return self.token[:12]
        except ValueError:
            return ""

    @property
    def waiting(self) -> int:
        return max(0, self.version - self.acked_version)


class MirrorChange(models.Model):
    """One change of a mirrored event, written in the transaction of the change (the
    outbox); on the public copy, the changes received (its log of the venue's changes)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="mirror_changes"
    )
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=60)
    at = models.DateTimeField()
    # the parts of the event file the change touched, besides its header (space-separated:
    # "r7", "entrants draws", "" for the header alone), or "*" for the whole file
    # (eventfile/parts.py): a push carries only the parts its changes touched
    parts = models.CharField(max_length=200, blank=True, default="*")

    class Meta:
        ordering = ["event", "version"]
        constraints = [
            models.UniqueConstraint(fields=["event", "version"], name="mirror_change_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} v{self.version}: {self.kind}"
