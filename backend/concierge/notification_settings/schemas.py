"""Notification settings API shapes."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Field, Schema
from pydantic import ConfigDict, StrictBool


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

    # A body that is not an object of these settings (a list, a misspelt name) is a 422: every
    # field is optional, so it would otherwise pass as "change nothing";
    # and only true or false is a setting (not 0, 1 or "yes").
    model_config = ConfigDict(extra="forbid")

    reply_email: StrictBool | None = None
    reply_push: StrictBool | None = None
    completion_email: StrictBool | None = None
    completion_push: StrictBool | None = None
    show_previews: StrictBool | None = None
    desk_new_request_push: StrictBool | None = None
    desk_reply_push: StrictBool | None = None


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
    explicit: StrictBool = Field(
        default=False,
        description="The person turned notifications on in this browser just now. Only then is"
        " a device added: the app's own save when it starts updates a device on file, and one"
        " not on file (its person removed it) is a 404.",
    )


class PushSubscriptionOut(Schema):
    id: int
    device_label: str
    created_at: datetime
    last_used_at: datetime | None
    current: bool = Field(description="This browser's (saved in this session).")


class PushSubscriptionListOut(Schema):
    push_subscriptions: list[PushSubscriptionOut]


class UnsubscribeOut(Schema):
    kind: str
    unsubscribed: bool = True


class UnsubscribeStateOut(Schema):
    """What an unsubscribe link turns off, read without changing anything."""

    kind: Literal["reply", "completion"] = Field(
        description="The email the link turns off: reply (about a concierge's replies) or "
        "completion (about completed requests)."
    )
    already_unsubscribed: bool = Field(
        description="True when that email is already off for the link's person (the link was "
        "used before, or the email was turned off in Account Settings): nothing is left to do. "
        "False: it is on, and POSTing to the same URL turns it off."
    )
