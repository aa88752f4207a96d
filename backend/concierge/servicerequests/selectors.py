"""Request and message reads. Each runs a fixed number of queries whatever the list length."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from concierge.accounts.models import User
from concierge.accounts.selectors import user_is_concierge
from concierge.common.errors import NotFound
from concierge.servicerequests.models import Message, MessageAttachment, ServiceRequest

# The list endpoints by path segment (spec §7): /requests/open, /in_progress, /completed.
LIST_STATUSES = {
    "open": ServiceRequest.Status.OPEN,
    "in_progress": ServiceRequest.Status.IN_PROGRESS,
    "completed": ServiceRequest.Status.CLOSED,
}


def _with_category() -> QuerySet[ServiceRequest]:
    return ServiceRequest.objects.select_related("survey_category")


def request_list_for_user(*, user: User, status: str) -> list[ServiceRequest]:
    """`user`'s requests with this status, newest first (one query)."""
    return list(_with_category().filter(user=user, status=status).order_by("-issued_at", "-id"))


def request_get_for_user(
    *, user: User, request_id: int, allow_concierge: bool = False
) -> ServiceRequest:
    """`user`'s own request, else NotFound (another person's request is a 404 too). With
    `allow_concierge`, a concierge gets any request (the desk works every request)."""
    requests = _with_category().filter(pk=request_id)
    if not (allow_concierge and user_is_concierge(user=user)):
        requests = requests.filter(user=user)
    service_request = requests.first()
    if service_request is None:
        raise NotFound()
    return service_request


def request_thread_for_user(*, user: User, request_id: int) -> ServiceRequest:
    """`user`'s request with its messages (oldest first) and their attachments: three queries."""
    service_request = (
        _with_category()
        .prefetch_related(_messages_prefetch())
        .filter(pk=request_id, user=user)
        .first()
    )
    if service_request is None:
        raise NotFound()
    return service_request


def request_thread_refresh(*, service_request: ServiceRequest) -> ServiceRequest:
    """The same request reloaded with its thread (after a write)."""
    return _with_category().prefetch_related(_messages_prefetch()).get(pk=service_request.pk)


def _messages_prefetch() -> Prefetch:
    return Prefetch(
        "messages",
        queryset=Message.objects.order_by("external_created_at", "id").prefetch_related(
            Prefetch(
                "attachment_links",
                queryset=MessageAttachment.objects.select_related("upload").order_by(
                    "position", "id"
                ),
            )
        ),
    )


def message_attachments(*, message: Message) -> list[MessageAttachment]:
    """The prefetched attachment links of a message, in order."""
    return list(message.attachment_links.all())
