"""A long thread written straight to the database (the API's write limit would refuse it)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.utils import timezone

from concierge.servicerequests.models import Message, ServiceRequest

if TYPE_CHECKING:
    from concierge.accounts.models import User


def seed_long_thread(service_request: ServiceRequest, *, employee: User, count: int) -> list[int]:
    """`count` messages, alternating employee and concierge, 'Message 1' oldest; every two
    share a timestamp, so the order falls back to the id. Answers the ids, oldest first."""
    start = timezone.now() - timedelta(minutes=count)
    messages = Message.objects.bulk_create(
        Message(
            request=service_request,
            author=employee if n % 2 else None,
            source=Message.Source.USER if n % 2 else Message.Source.LIFE_CONCIERGE,
            source_name=employee.full_name if n % 2 else "Sam from Concierge",
            body_html=f"Message {n}",
            external_created_at=start + timedelta(minutes=n // 2),
        )
        for n in range(1, count + 1)
    )
    ServiceRequest.objects.filter(pk=service_request.pk).update(
        last_message_at=messages[-1].external_created_at
    )
    return list(
        Message.objects.filter(request=service_request)
        .order_by("external_created_at", "id")
        .values_list("id", flat=True)
    )
