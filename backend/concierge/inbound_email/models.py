from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class InboundEmail(models.Model):
    """One email received for reply by email, whatever became of it: taken into a thread,
    refused (with a short note to the sender) or dropped (auto-replies, bounces). Never the
    body: who sent it, to which request, and why it was refused."""

    class Outcome(models.TextChoices):
        ACCEPTED = "accepted", "Accepted: written into the thread"
        REFUSED = "refused", "Refused: a note was sent back"
        DROPPED = "dropped", "Dropped silently"
        REJECTED = "rejected", "Rejected while sent: the sending server tells the sender"

    class Path(models.TextChoices):
        WEBHOOK = "webhook", "Provider webhook"
        SMTP = "smtp", "SMTP receiver"

    email_message_id = models.CharField(
        max_length=998, blank=True, help_text="The email's Message-ID header."
    )
    path = models.CharField(max_length=10, choices=Path.choices)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    reason = models.CharField(max_length=40, blank=True)
    sender = models.CharField(
        max_length=320, blank=True, help_text="The From address (empty once the person is erased)."
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="inbound_emails",
    )
    request = models.ForeignKey(
        "servicerequests.ServiceRequest",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="inbound_emails",
    )
    thread_message = models.ForeignKey(
        "servicerequests.Message",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    size = models.PositiveIntegerField(default=0)
    received_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-received_at", "-id"]
        constraints = [
            # Replays: one accepted email per Message-ID (a second delivery is refused).
            models.UniqueConstraint(
                fields=["email_message_id"],
                condition=models.Q(outcome="accepted") & ~models.Q(email_message_id=""),
                name="inbound_email_accepted_once",
            )
        ]
        indexes = [models.Index(fields=["user", "received_at"])]

    def __str__(self) -> str:
        return f"{self.outcome} {self.reason} {self.received_at:%Y-%m-%d %H:%M}"
