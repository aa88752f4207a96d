"""Satisfaction ratings (CSAT): the employee's 1–5 rating of a completed request."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone


class Rating(models.Model):
    """One rating per request, recorded once. The concierge who worked the request and the
    employee's company are kept as they were when it was rated, for the averages."""

    class Via(models.TextChoices):
        PAGE = "page", "Request page"
        EMAIL = "email", "Completion email"

    request = models.OneToOneField(
        "servicerequests.ServiceRequest", on_delete=models.CASCADE, related_name="rating"
    )
    score = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    comment = models.TextField(blank=True)
    employee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    concierge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ratings_received",
    )
    company = models.ForeignKey(
        "accounts.Company", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    via = models.CharField(max_length=10, choices=Via.choices)
    comment_key_hash = models.CharField(
        max_length=64,
        blank=True,
        help_text="Lets the person who rated from the email add a comment once (SHA-256).",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["company", "created_at"]),
            models.Index(fields=["concierge", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(score__gte=1, score__lte=5), name="rating_score_1_to_5"
            )
        ]

    def __str__(self) -> str:
        return f"{self.score}/5 for request {self.request_id}"


class RatingInvite(models.Model):
    """The completion email (the invitation to rate) of one completion of a request, recorded
    in the transaction that queues the email: the task deciding to send it, run again after
    its worker stopped, finds it and queues nothing more."""

    request = models.ForeignKey(
        "servicerequests.ServiceRequest", on_delete=models.CASCADE, related_name="+"
    )
    completed_at = models.DateTimeField(help_text="The completion it was sent for.")
    queued_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-queued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["request", "completed_at"], name="one_rating_invite_per_completion"
            )
        ]

    def __str__(self) -> str:
        return (
            f"Completion email for request {self.request_id} ({self.completed_at:%Y-%m-%d %H:%M})"
        )
