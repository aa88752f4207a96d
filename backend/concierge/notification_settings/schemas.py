"""Notification settings API shapes."""

from __future__ import annotations

from datetime import datetime

from ninja import Field, Schema


class PreferencesOut(Schema):
    reply_email: bool
    reply_push: bool
    completion_email: bool
    completion_push: bool
    show_previews: bool
    # Concierges only (always false for everyone else): push for the desk.
    desk_new_request_push: bool
    desk_reply_push: bool
    is_concierge: bool


class PreferencesIn(Schema):
    """Only the settings to change."""

    reply_email: bool | None = None
    reply_push: bool | None = None
    completion_email: bool | None = None
    completion_push: bool | None = None
    show_previews: bool | None = None
    desk_new_request_push: bool | None = None
    desk_reply_push: bool | None = None


class PushKeyOut(Schema):
    """The server's VAPID public key (base64url), or available=false when push is off."""

    available: bool
    public_key: str | None = None


class PushKeysIn(Schema):
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)


class PushSubscriptionIn(Schema):
    """A browser's PushSubscription, as its toJSON() gives it."""

    endpoint: str = Field(max_length=1000)
    keys: PushKeysIn


class PushSubscriptionOut(Schema):
    id: int
    device_label: str
    created_at: datetime
    last_used_at: datetime | None
    current: bool = Field(description="This browser's subscription (the endpoint given).")


class PushSubscriptionListOut(Schema):
    push_subscriptions: list[PushSubscriptionOut]


class UnsubscribeOut(Schema):
    kind: str
    unsubscribed: bool = True
