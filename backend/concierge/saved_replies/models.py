"""Saved replies: the concierge team's shared reply texts, with placeholders."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone


class SavedReply(models.Model):
    """A reply text every concierge can insert from the composer. `{first_name}`,
    `{request_name}` and `{concierge_first_name}` are filled in when it is inserted."""

    title = models.CharField(max_length=100)
    body = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = [Lower("title"), "id"]
        verbose_name_plural = "saved replies"
        constraints = [models.UniqueConstraint(Lower("title"), name="saved_reply_title_unique_ci")]

    def __str__(self) -> str:
        return self.title
