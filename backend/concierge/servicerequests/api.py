"""Request endpoints: spec §7 'Requests and surveys' (the request rows)."""

from __future__ import annotations

from typing import Any

import orjson
from django.http import HttpRequest, HttpResponse
from ninja import Router

from concierge.accounts.auth import request_auth_token
from concierge.common.schemas import ErrorOut
from concierge.servicerequests import selectors, services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.servicerequests.schemas import (
    MessageCreateIn,
    RequestDetailOut,
    RequestListOut,
    idempotency_key_header,
    json_datetime,
    message_data,
)

router = Router(tags=["requests"])
ERRORS = {401: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def request_data(
    request: HttpRequest, service_request: ServiceRequest, *, with_messages: bool
) -> dict[str, Any]:
    """RequestOut's fields as plain JSON values: the lists and the thread are the most read
    endpoints, so their output skips per-attribute schema validation (its shape is RequestOut,
    which the OpenAPI document declares and the tests check)."""
    category = service_request.survey_category
    image = category.image if category is not None else None
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
        "survey_category_image_url": request.build_absolute_uri(image.url) if image else None,
        "survey_category_icon": category.icon if category is not None else None,
        "last_message_at": json_datetime(service_request.last_message_at),
        "messages": (
            [message_data(m) for m in service_request.messages.all()] if with_messages else []
        ),
    }


def json_response(body: dict[str, Any], status: int = 200) -> HttpResponse:
    return HttpResponse(orjson.dumps(body), status=status, content_type="application/json")


def _list(request: HttpRequest, segment: str) -> HttpResponse:
    requests = selectors.request_list_for_user(
        user=request_auth_token(request).user, status=selectors.LIST_STATUSES[segment]
    )
    return json_response(
        {"requests": [request_data(request, r, with_messages=False) for r in requests]}
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


@router.get("/requests/{int:request_id}", response={200: RequestDetailOut, **ERRORS})
def request_detail(request: HttpRequest, request_id: int):
    """One of the signed-in user's requests with its thread, oldest message first. Opening it
    marks the concierge's replies so far as seen (no reminder email for them)."""
    service_request = selectors.request_thread_for_user(
        user=request_auth_token(request).user, request_id=request_id
    )
    services.request_mark_seen_by_employee(request=service_request)
    return json_response({"request": request_data(request, service_request, with_messages=True)})


@router.post("/requests/{int:request_id}/messages", response={201: RequestDetailOut, **ERRORS})
def message_create(
    request: HttpRequest,
    request_id: int,
    payload: MessageCreateIn,
    idempotency_key: str | None = idempotency_key_header("message"),  # noqa: B008
):
    """A message from the signed-in user; a closed request is reopened by it."""
    user = request_auth_token(request).user
    service_request = selectors.request_get_for_user(user=user, request_id=request_id)
    services.message_create(
        request=service_request,
        author=user,
        body=payload.message.body,
        source=Message.Source.USER,
        source_name=user.full_name,
        attachment_keys=payload.message.attachment_keys,
        idempotency_key=idempotency_key,
    )
    service_request = selectors.request_thread_refresh(service_request=service_request)
    return json_response(
        {"request": request_data(request, service_request, with_messages=True)}, status=201
    )
