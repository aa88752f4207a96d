"""Files people upload: message attachments and survey answers (spec §3 Upload, §5 File upload)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Upload(models.Model):
    """One file, addressed by a server-generated storage key.

    The row is created when a presigned URL is handed out (status pending) and marked uploaded
    once the bytes are in storage and have passed the checks: at most 25 MB and, for a message
    attachment (an upload with a request), really an image or a PDF.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        UPLOADED = "uploaded", "Uploaded"

    key = models.CharField(max_length=300, unique=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="uploads"
    )
    request = models.ForeignKey(
        "servicerequests.ServiceRequest",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="uploads",
        help_text="Set for message attachments: the request the file is meant for.",
    )
    filename = models.CharField(max_length=255, help_text="The name the person chose.")
    content_type = models.CharField(max_length=100, blank=True)
    size = models.PositiveBigIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    uploaded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "created_at"])]

    def __str__(self) -> str:
        return self.key
