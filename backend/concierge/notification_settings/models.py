"""Notification preferences and the devices that receive web push (issue 28)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class NotificationPreference(models.Model):
    """One person's choices, created the first time they change one. No row means the
    defaults: email and push on for replies and completion, no message text in
    notifications, and (for concierges) no push for new requests or employee replies."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    reply_email = models.BooleanField(default=True)
    reply_push = models.BooleanField(default=True)
    completion_email = models.BooleanField(default=True)
    completion_push = models.BooleanField(default=True)
    show_previews = models.BooleanField(
        default=False,
        help_text="Notifications may carry the message text (lock screens are public).",
    )
    desk_new_request_push = models.BooleanField(
        default=False, help_text="Concierges: a push for each new request."
    )
    desk_reply_push = models.BooleanField(
        default=False, help_text="Concierges: a push for each employee reply."
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Notification preferences of user {self.user_id}"


class PushSubscription(models.Model):
    """One browser on one device that accepts web push (its Push API subscription), for as long
    as the session that saved it lasts: a browser signed out (or whose session was revoked or
    ended) gets no notification meant for the person who used it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    session = models.ForeignKey(
        "accounts.AuthToken", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    device_label = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "created_at"])]

    def __str__(self) -> str:
        return self.device_label or f"Push subscription {self.pk}"


def signed_in_devices() -> Q:
    """The subscriptions whose session is still signed in (not revoked, not expired)."""
    return Q(session__revoked_at__isnull=True, session__expires_at__gt=timezone.now())
