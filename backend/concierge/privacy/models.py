"""The employee's data (issue 27): 'Download my data' exports, retention windows, and which
requests had their content erased."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone


class DataExport(models.Model):
    """One 'Download my data': built by a background task into a zip in storage, downloaded
    once through an emailed link (only its SHA-256 is kept) by the signed-in owner."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be built"
        RUNNING = "running", "Being built"
        READY = "ready", "Ready (link emailed)"
        DOWNLOADED = "downloaded", "Downloaded"
        FAILED = "failed", "Failed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="data_exports"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    file_key = models.CharField(max_length=300, blank=True)
    size = models.PositiveBigIntegerField(null=True, blank=True)
    token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    downloaded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status__in=["pending", "running"]),
                name="one_data_export_running_per_user",
            )
        ]

    def __str__(self) -> str:
        return f"Data export {self.pk} ({self.get_status_display()})"


class RetentionPolicy(models.Model):
    """A company's retention window: its employees' completed requests lose their content
    (messages, attachments, answers, details) this many days after completion."""

    company = models.OneToOneField(
        "accounts.Company", on_delete=models.CASCADE, related_name="retention_policy"
    )
    erase_completed_after_days = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(36500)],
        help_text="Days after a request is completed before its messages, attachments and "
        "answers are erased. Empty: never (the default).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "retention window"
        verbose_name_plural = "retention windows"

    def __str__(self) -> str:
        days = self.erase_completed_after_days
        return f"{self.company}: {f'{days} days' if days else 'off'}"


class ErasedRequest(models.Model):
    """A request whose content was erased (by a retention window or an account's erasure):
    the daily job skips it and the request page says so."""

    class Reason(models.TextChoices):
        RETENTION = "retention", "Retention window"
        ACCOUNT = "account", "Account erased"

    request = models.OneToOneField(
        "servicerequests.ServiceRequest", on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(max_length=10, choices=Reason.choices)
    erased_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Request {self.request_id} erased ({self.reason})"
