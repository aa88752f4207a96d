"""An employee's request lists and threads, remembered between requests (common.read_cache):
the most read endpoints answer from the cache until one of the employee's requests changes.

One scope per employee covers all their requests and messages (and read_cache.SHARED the
categories they show). The services bump it where they write with `.update()` or `bulk_create`
(no signal fires); the receivers below bump it for every saved or deleted request, message or
attachment link, whatever saved it (a service, the admin, a cascade). They do nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest

from concierge.common import read_cache
from concierge.servicerequests.models import Message, MessageAttachment, ServiceRequest

# A backstop only: every change bumps the scope at once.
ENTRY_TTL_SECONDS = 600


def requests_scope(user_id: int) -> str:
    return f"rc:v:requests:{user_id}"


def requests_changed(*, user_id: int) -> None:
    """Every cached list and thread of this employee is read from the database again."""
    read_cache.bump([requests_scope(user_id)])


def employee_read(
    request: HttpRequest, *, user_id: int, name: str, load: Callable[[], bytes]
) -> bytes:
    """A response body of one of `user_id`'s reads (`name`: 'list:open', 'thread:42'), cached
    per site address (bodies hold absolute image links). `load` raises for a read that fails
    (a 404), which is never stored."""
    origin = f"{request.scheme}://{request.get_host()}"
    entry = f"rc:requests:{user_id}:{name}:{origin}"
    return read_cache.read_through(  # type: ignore[no-any-return]
        entry, [read_cache.SHARED, requests_scope(user_id)], ENTRY_TTL_SECONDS, load
    )


def _request_changed(sender: type, instance: ServiceRequest, **kwargs: Any) -> None:
    requests_changed(user_id=instance.user_id)


def _message_changed(sender: type, instance: Message, **kwargs: Any) -> None:
    if Message.request.is_cached(instance):  # as the services create messages: no query
        requests_changed(user_id=instance.request.user_id)
    else:
        _owner_changed(ServiceRequest.objects.filter(pk=instance.request_id))


def _attachment_changed(sender: type, instance: MessageAttachment, **kwargs: Any) -> None:
    _owner_changed(ServiceRequest.objects.filter(messages=instance.message_id))


def _owner_changed(requests: Any) -> None:
    # None when a cascade deleted the request first: its own receiver bumped the scope.
    user_id = requests.values_list("user_id", flat=True).first()
    if user_id is not None:
        requests_changed(user_id=user_id)


def connect_receivers() -> None:
    uid = "concierge.servicerequests.cached_reads"
    for signal in (post_save, post_delete):
        signal.connect(_request_changed, sender=ServiceRequest, dispatch_uid=f"{uid}.request")
        signal.connect(_message_changed, sender=Message, dispatch_uid=f"{uid}.message")
        signal.connect(
            _attachment_changed, sender=MessageAttachment, dispatch_uid=f"{uid}.attachment"
        )
