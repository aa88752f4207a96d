"""Queueing the web push notifications about requests: the recipients in one query, one
task per device, enqueued when the caller's transaction commits."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from concierge.accounts.selectors.concierges import CONCIERGE_GROUP
from concierge.notification_settings.models import PushSubscription, signed_in_devices
from concierge.notification_settings.push import vapid_keys
from concierge.notification_settings.services import EMPLOYEE_KINDS, PUSH_KINDS
from concierge.notification_settings.tasks import push_deliver
from concierge.notifications.background import enqueue_on_commit

DESK_RECIPIENTS_MAX = 200


def _recipient_subscriptions(
    *, kind: str, user_ids: list[int] | None, all_concierges: bool
) -> list[int]:
    """The subscriptions to send a push of `kind` to, in one query: the still signed-in devices
    of the given people (or of every active concierge) who have that push turned on."""
    flag = PUSH_KINDS[kind]
    on = Q(**{f"user__notification_preference__{flag}": True})
    if kind in EMPLOYEE_KINDS:  # on by default: no stored preferences counts as on
        on |= Q(user__notification_preference__isnull=True)
    rows = PushSubscription.objects.filter(on, signed_in_devices(), user__is_active=True)
    if all_concierges:
        rows = rows.filter(
            Q(user__groups__name=CONCIERGE_GROUP) | Q(user__is_superuser=True)
        ).distinct()
    else:
        rows = rows.filter(user_id__in=user_ids or [])
    return list(rows.order_by("pk").values_list("pk", flat=True)[:DESK_RECIPIENTS_MAX])


def push_notify(
    *,
    kind: str,
    request_id: int,
    user_ids: list[int] | None = None,
    all_concierges: bool = False,
    message_id: int | None = None,
    delay_seconds: int = 0,
) -> int:
    """Queue a push of `kind` about a request for every device of the recipients who turned it
    on, once the caller's transaction commits. Returns how many were queued. Never raises for
    push being off or unconfigured (the request goes on)."""
    if kind not in PUSH_KINDS:
        raise ValueError(f"Unknown push kind {kind!r}")
    if vapid_keys() is None:
        return 0
    subscription_ids = _recipient_subscriptions(
        kind=kind, user_ids=user_ids, all_concierges=all_concierges
    )
    task: Any = push_deliver
    if delay_seconds > 0:
        task = task.using(run_after=timezone.now() + timedelta(seconds=delay_seconds))
    for subscription_id in subscription_ids:
        enqueue_on_commit(
            task,
            subscription_id=subscription_id,
            kind=kind,
            request_id=request_id,
            message_id=message_id,
        )
    return len(subscription_ids)
