"""Notification preference reads used by the notification emails."""

from __future__ import annotations

import pytest
from django.core import signing

from concierge.notification_settings.models import NotificationPreference
from concierge.notification_settings.selectors import (
    email_allowed,
    email_unsubscribe,
    unsubscribe_claims,
    unsubscribe_token,
)

pytestmark = pytest.mark.django_db


def test_email_allowed_by_default_and_follows_the_stored_choice(user):
    """Issue 28 preferences: with no row both emails are allowed; a stored choice turns one off."""
    assert email_allowed(user=user, kind="reply") and email_allowed(user=user, kind="completion")
    NotificationPreference.objects.create(user=user, reply_email=False)
    assert not email_allowed(user=user, kind="reply")
    assert email_allowed(user=user, kind="completion")
    with pytest.raises(ValueError):
        email_allowed(user=user, kind="newsletter")


def test_unsubscribe_headers_are_rfc_8058_one_click(user, settings):
    """Issue 28 one-click unsubscribe: an https URL with a token naming the person and the kind."""
    settings.PUBLIC_URL = "https://concierge.example.com"
    headers, url = email_unsubscribe(user=user, kind="completion")
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    value = headers["List-Unsubscribe"]
    assert value == f"<{url}>"  # the email's visible line shows the same address
    assert value.startswith("<https://concierge.example.com/api/v1/notifications/unsubscribe/")
    token = value.rstrip(">").rsplit("/", 1)[1]
    assert unsubscribe_claims(token) == (user.pk, "completion")


def test_a_tampered_or_foreign_token_gives_no_claims(user):
    """Issue 28 unsubscribe: a changed token, another salt's token or garbage names nobody."""
    token = unsubscribe_token(user=user, kind="reply")
    assert unsubscribe_claims(token[:-2] + ("AA" if not token.endswith("AA") else "BB")) is None
    assert unsubscribe_claims(signing.dumps({"u": user.pk, "k": "reply"})) is None
    assert unsubscribe_claims(signing.dumps({"u": "1", "k": "reply"}, salt="x")) is None
    assert unsubscribe_claims("not-a-token") is None
    assert unsubscribe_claims("x" * 1000) is None


def test_vapid_keys_command_prints_a_working_pair(settings):
    """Issue 28 setup: `manage.py vapid_keys` prints a pair the server accepts as push keys."""
    from io import StringIO

    from django.core.management import call_command

    from concierge.notification_settings.push import vapid_keys

    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    settings.VAPID_PRIVATE_KEY = lines["VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = lines["VAPID_PUBLIC_KEY"]
    keys = vapid_keys()
    assert keys is not None and keys.public_key == lines["VAPID_PUBLIC_KEY"]
