"""The concierge desk's own data: internal notes on requests."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class InternalNote(models.Model):
    """A concierge's note on a request. Staff only: no employee endpoint or employee event
    stream ever carries one (the employee API lives in another app and never reads this)."""

    request = models.ForeignKey(
        "servicerequests.ServiceRequest", on_delete=models.CASCADE, related_name="internal_notes"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="internal_notes",
    )
    body = models.TextField(help_text="Plain text.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["request", "created_at"])]

    def __str__(self) -> str:
        return f"Note on {self.request_id} by {self.author_id}"
