"""Background task that sends one web push notification to one device."""

from __future__ import annotations

import logging

from django.utils import timezone
from django_tasks import task

from concierge.notification_settings import services
from concierge.notification_settings.models import PushSubscription, signed_in_devices
from concierge.notification_settings.push import PushGone, PushRefused, push_send
from concierge.notification_settings.selectors import preference_for

logger = logging.getLogger(__name__)


@task()
def push_deliver(
    *, subscription_id: int, kind: str, request_id: int, message_id: int | None = None
) -> str:
    """Send the push about a request to one device, checking when it runs that the device
    still exists, its person still wants this push and may see the request, and the event
    still stands. A device the push service no longer knows (404/410) is removed; a refusal
    is logged; anything that may pass (429, 5xx, network) raises, so the task is tried again."""
    subscription = (
        PushSubscription.objects.select_related("user").filter(pk=subscription_id).first()
    )
    if subscription is None:
        return "device removed"
    if not PushSubscription.objects.filter(signed_in_devices(), pk=subscription.pk).exists():
        return "signed out"
    user = subscription.user
    preference = preference_for(user=user)
    if not getattr(preference, services.PUSH_KINDS[kind]):
        return "turned off"
    subject = services.push_subject(kind=kind, request_id=request_id, message_id=message_id)
    if subject is None or not subject.current:
        return "no longer current"
    if not services.push_recipient_allowed(kind=kind, user=user, subject=subject):
        return "not allowed"
    payload = services.push_payload(
        kind=kind, request_id=request_id, subject=subject, show_previews=preference.show_previews
    )
    try:
        push_send(
            endpoint=subscription.endpoint,
            p256dh=subscription.p256dh,
            auth=subscription.auth,
            payload=payload,
        )
    except PushGone:
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        logger.info("Push subscription %s is gone; removed", subscription.pk)
        return "gone"
    except PushRefused as exc:
        logger.warning("Push to subscription %s refused: %s", subscription.pk, exc)
        return "refused"
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used_at=timezone.now())
    return "sent"
