"""Request endpoints: spec §7 'Requests and surveys' (the request rows)."""

from __future__ import annotations

from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from ninja import Query, Router

from concierge.accounts.auth import request_auth_token
from concierge.audit.selectors import request_openings
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut
from concierge.service_levels.selectors import expect_reply_by, request_clock
from concierge.servicerequests import cached_reads, selectors, services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.servicerequests.schemas import (
    MessageCreateIn,
    RequestDetailOut,
    RequestListOut,
    SeenByListOut,
    SeenByOut,
    ThreadPageOut,
    ThreadPageQuery,
    UnreadCountOut,
    idempotency_key_header,
    json_datetime,
    thread_page_data,
)
from concierge.servicerequests.selectors import RequestListRow, ThreadPage

router = Router(tags=["requests"])
ERRORS = {401: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def _absolute(request: HttpRequest, path: str | None) -> str | None:
    return request.build_absolute_uri(path) if path else None


def request_list_item_data(request: HttpRequest, row: RequestListRow) -> dict[str, Any]:
    """RequestListItemOut's fields as plain JSON values: the lists are the most read endpoint,
    so their output skips per-attribute schema validation (its shape is RequestListItemOut,
    which the OpenAPI document declares and the tests check)."""
    return {
        "id": row.id,
        "external_id": row.external_id,
        "name": row.name,
        "status": row.status,
        "issued_at": row.issued_at,
        "created_at": row.created_at,
        "survey_category_id": row.category_id,
        "survey_category_name": row.category_name,
        "survey_category_image_url": _absolute(
            request,
            selectors.category_image_path(row.category_image) if row.category_image else None,
        ),
        "survey_category_icon": row.category_icon,
        "last_message_at": row.last_message_at,
        "unread": row.unread,
    }


def request_data(
    request: HttpRequest, service_request: ServiceRequest, page: ThreadPage
) -> dict[str, Any]:
    """RequestOut's fields as plain JSON values (as `request_list_item_data`, for the thread)."""
    category = service_request.survey_category
    return {
        "id": service_request.pk,
        "external_id": str(service_request.external_id),
        "name": service_request.name,
        "status": service_request.status,
        "issued_at": json_datetime(service_request.issued_at),
        "details": service_request.details,
        "created_at": json_datetime(service_request.created_at),
        "survey_category_id": category.pk if category is not None else None,
        "survey_category_name": category.name if category is not None else None,
        "survey_category_image_url": _absolute(
            request, category.image.url if category is not None and category.image else None
        ),
        "survey_category_icon": category.icon if category is not None else None,
        "last_message_at": json_datetime(service_request.last_message_at),
        # Read after its replies were marked seen, or sent by the employee, which sees them.
        "unread": False,
        "expect_reply_by": json_datetime(expect_reply_by(request_clock(service_request))),
        **thread_page_data(page),
    }


def json_response(body: dict[str, Any], status: int = 200) -> HttpResponse:
    return _json_body(orjson.dumps(body), status)


def _json_body(body: bytes, status: int = 200) -> HttpResponse:
    return HttpResponse(body, status=status, content_type="application/json")


def _list(request: HttpRequest, segment: str) -> HttpResponse:
    user = request_auth_token(request).user

    def load() -> bytes:
        requests = selectors.request_list_for_user(
            user=user, status=selectors.LIST_STATUSES[segment]
        )
        return orjson.dumps({"requests": [request_list_item_data(request, r) for r in requests]})

    return _json_body(
        cached_reads.employee_read(request, user=user, name=f"list:{segment}", load=load)
    )


@router.get("/requests/open", response={200: RequestListOut, 401: ErrorOut})
def requests_open(request: HttpRequest):
    """The signed-in user's queued requests (status open), newest first."""
    return _list(request, "open")


@router.get("/requests/in_progress", response={200: RequestListOut, 401: ErrorOut})
def requests_in_progress(request: HttpRequest):
    """The signed-in user's requests a concierge is working (status in_progress), newest first."""
    return _list(request, "in_progress")


@router.get("/requests/completed", response={200: RequestListOut, 401: ErrorOut})
def requests_completed(request: HttpRequest):
    """The signed-in user's completed requests (status closed), newest first."""
    return _list(request, "completed")


@router.get("/requests/unread_count", response={200: UnreadCountOut, 401: ErrorOut})
def requests_unread_count(request: HttpRequest):
    """How many of the signed-in user's requests (any status) have a concierge's reply they
    have not opened yet (the lists mark each one `unread`). Opening a request clears it; both
    changes reach the live event stream (message.created, request.seen)."""
    user = request_auth_token(request).user

    def load() -> bytes:
        return orjson.dumps({"count": selectors.request_unread_count_for_user(user=user)})

    return _json_body(cached_reads.employee_read(request, user=user, name="unread", load=load))


def _thread_body(
    request: HttpRequest, service_request: ServiceRequest, page: ThreadPage | None = None
) -> bytes:
    """RequestDetailOut: the request and the newest page of its thread (read now unless given)."""
    if page is None:
        page = selectors.thread_page(request_id=service_request.pk)
    return orjson.dumps({"request": request_data(request, service_request, page)})


@router.get("/requests/{int:request_id}", response={200: RequestDetailOut, **ERRORS})
def request_detail(request: HttpRequest, request_id: int):
    """One of the signed-in user's requests with the newest page of its thread (oldest message
    of the page first; `older_cursor` pages back). Opening it marks the concierge's replies so
    far as seen (no reminder email for them)."""
    user = request_auth_token(request).user

    def load() -> bytes:
        service_request, page = selectors.request_thread_for_user(user=user, request_id=request_id)
        services.request_mark_seen_by_employee(request=service_request)
        return _thread_body(request, service_request, page)

    # A cached thread was read after its replies were marked seen; any new message since
    # would have made it stale, so there is nothing more to mark.
    return _json_body(
        cached_reads.employee_read(request, user=user, name=f"thread:{request_id}", load=load)
    )


@router.get("/requests/{int:request_id}/seen_by", response={200: SeenByListOut, **ERRORS})
def request_seen_by(request: HttpRequest, request_id: int):
    """Who on the concierge side opened this request of mine (its page, thread or
    attachments), from the audit trail: each person once, with their latest opening, newest
    first. Only openings: never notes or other work. The request's owner only (404 otherwise)."""
    service_request = selectors.request_get_for_user(
        user=request_auth_token(request).user, request_id=request_id
    )
    return SeenByListOut(
        seen_by=[
            SeenByOut(name=opening.name, role=opening.role, at=opening.at)
            for opening in request_openings(service_request.pk)
        ]
    )


@router.get("/requests/{int:request_id}/messages", response={200: ThreadPageOut, **ERRORS})
def message_list(request: HttpRequest, request_id: int, query: Query[ThreadPageQuery]):
    """Older messages of one of the signed-in user's requests: the page before `before` (a
    request's or page's `older_cursor`), oldest first."""
    service_request = selectors.request_get_for_user(
        user=request_auth_token(request).user, request_id=request_id
    )
    page = selectors.thread_page(
        request_id=service_request.pk, before=query.before, limit=query.limit
    )
    return json_response(thread_page_data(page))


@router.post(
    "/requests/{int:request_id}/messages",
    response={201: RequestDetailOut, 409: ErrorOut, 429: ErrorOut, **ERRORS},
)
def message_create(
    request: HttpRequest,
    request_id: int,
    payload: MessageCreateIn,
    idempotency_key: str | None = idempotency_key_header("message"),  # noqa: B008
):
    """A message from the signed-in user. To a Completed request it needs `reopen: true`
    (it reopens the request; without it: 409 and nothing is sent). Answers the request with
    the newest page of its thread, as GET does. At most RATE_LIMITS' `message`
    messages per account per window (429 with Retry-After past it)."""
    user = request_auth_token(request).user
    service_request = selectors.request_get_for_user(user=user, request_id=request_id)
    rate_limit(request, "message", client=f"user:{user.pk}")
    services.message_create(
        request=service_request,
        author=user,
        body=payload.message.body,
        source=Message.Source.USER,
        source_name=user.full_name,
        attachment_keys=payload.message.attachment_keys,
        idempotency_key=idempotency_key,
        reopen=payload.reopen,
    )
    # The service leaves `service_request` as the message left it (status, times, clock).
    return _json_body(_thread_body(request, service_request), status=201)
