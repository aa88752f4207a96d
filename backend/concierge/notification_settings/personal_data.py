"""The notification settings' part of a person's data (issue 28): their choices and their push
devices in 'Download my data', and both deleted by an erasure. Called by `concierge.privacy`
only."""

from __future__ import annotations

from typing import Any

from concierge.notification_settings.models import NotificationPreference, PushSubscription
from concierge.notification_settings.selectors import preference_for
from concierge.notification_settings.services import PREFERENCE_FIELDS


def notification_settings_export(*, user: Any) -> dict[str, Any]:
    """The person's notification choices and the devices that get their push notifications
    (names and dates; a device's push address and keys are the push service's secrets)."""
    preference = preference_for(user=user)
    return {
        "notification_preferences": {f: getattr(preference, f) for f in PREFERENCE_FIELDS},
        "push_devices": [
            {
                "device": s.device_label,
                "added_at": s.created_at.isoformat(),
                "last_used_at": s.last_used_at.isoformat() if s.last_used_at else None,
            }
            for s in PushSubscription.objects.filter(user_id=user.pk)
        ],
    }


def notification_settings_erase(*, user: Any) -> dict[str, int]:
    """Deletes the person's push subscriptions (no notification reaches them again) and their
    stored choices."""
    devices, _ = PushSubscription.objects.filter(user_id=user.pk).delete()
    preferences, _ = NotificationPreference.objects.filter(user_id=user.pk).delete()
    return {"push_devices": devices, "notification_preferences": preferences}
