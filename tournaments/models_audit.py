"""The fields every audit row has, shared by an event's log and a series' log."""

from __future__ import annotations

from django.conf import settings as conf
from django.db import models


class AuditFields(models.Model):
    """What an audit row says, whatever it belongs to (an event's AuditEntry, a series'
    SeriesAuditEntry): who did what, when, to what, before and after, and why."""

    action = models.CharField(max_length=60)
    actor = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    at = models.DateTimeField()
    subject = models.CharField(max_length=200, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.action} {self.subject}"
