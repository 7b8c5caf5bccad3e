"""Webhooks (tournaments/services/webhooks.py, docs/api.md "Webhooks"): a director's
endpoint per event and one delivery row per message, written in the transaction of the
change it tells about and sent after the commit."""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings as conf
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_salt() -> str:
    return secrets.token_hex(32)


class WebhookEndpoint(models.Model):
    class Kind(models.TextChoices):
        ROUND_PUBLISHED = "round.published", _("Round published")
        RESULT_SAVED = "result.saved", _("Result saved or corrected")
        STANDINGS_CHANGED = "standings.changed", _("New standings published")
        EVENT_FINISHED = "event.finished", _("Event finished")

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField(max_length=500)
    # the kinds of messages wanted (Kind values); "webhook.test" is always allowed
    kinds = models.JSONField(default=list)
    # The signing secret is never stored: it is derived from this salt and the server's
    # webhook key (services/webhooks.py secret_for; docs/security.md).
    secret_salt = models.CharField(max_length=64, default=new_salt)
    active = models.BooleanField(default=True)
    # why it was turned off ("410 Gone from the receiver", "turned off by ...")
    disabled_reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        conf.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.url} ({self.event})"


class WebhookDelivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Given up")
        CANCELLED = "cancelled", _("Not sent (webhook turned off)")

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    kind = models.CharField(max_length=40)
    # what the message is about ("round.published:12"): one delivery per endpoint and key
    key = models.CharField(max_length=120)
    # sent with every attempt: a receiver applies each key once
    idempotency_key = models.UUIDField(default=uuid.uuid4, unique=True)
    payload = models.JSONField(default=dict)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # retried with a backoff until then (24 h after it was written or sent again by hand)
    retry_until = models.DateTimeField()
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField()
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["endpoint", "key"], name="one_delivery_per_key"),
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.kind} to {self.endpoint.url} ({self.status})"
