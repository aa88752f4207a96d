"""Saved replies: each concierge's own and the shared ones, and filled in for a request."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from ninja import Status

from concierge.concierge_desk.api.access import ERRORS, concierge_of, desk_router, person_ref
from concierge.concierge_desk.schemas import (
    FilledReplyListOut,
    FilledReplyOut,
    SavedReplyDetailOut,
    SavedReplyIn,
    SavedReplyListOut,
    SavedReplyOut,
)
from concierge.saved_replies import selectors as saved_reply_selectors
from concierge.saved_replies import services as saved_reply_services
from concierge.servicerequests import selectors as request_selectors

if TYPE_CHECKING:
    pass

router = desk_router()


def _saved_reply_out(reply) -> SavedReplyOut:  # type: ignore[no-untyped-def]
    return SavedReplyOut(
        id=reply.pk,
        title=reply.title,
        body=reply.body,
        updated_by=person_ref(reply.updated_by),
        updated_at=reply.updated_at,
    )


@router.get("/concierge/saved-replies", response={200: SavedReplyListOut, **ERRORS})
def saved_reply_list(request: HttpRequest):
    """The team's shared saved replies, by title."""
    return SavedReplyListOut(
        saved_replies=[_saved_reply_out(r) for r in saved_reply_selectors.saved_reply_list()]
    )


@router.post("/concierge/saved-replies", response={201: SavedReplyDetailOut, **ERRORS})
def saved_reply_create(request: HttpRequest, payload: SavedReplyIn):
    """A new saved reply. Placeholders: {first_name} (the employee's), {request_name},
    {concierge_first_name}; any other is a 422. Titles are unique (ignoring case)."""
    reply = saved_reply_services.saved_reply_create(
        title=payload.title, body=payload.body, author=concierge_of(request)
    )
    return Status(201, SavedReplyDetailOut(saved_reply=_saved_reply_out(reply)))


@router.put(
    "/concierge/saved-replies/{int:reply_id}", response={200: SavedReplyDetailOut, **ERRORS}
)
def saved_reply_update(request: HttpRequest, reply_id: int, payload: SavedReplyIn):
    """Change a saved reply's title and text (the same rules as creating one)."""
    reply = saved_reply_selectors.saved_reply_get(reply_id=reply_id)
    reply = saved_reply_services.saved_reply_update(
        reply=reply, title=payload.title, body=payload.body, author=concierge_of(request)
    )
    return SavedReplyDetailOut(saved_reply=_saved_reply_out(reply))


@router.delete("/concierge/saved-replies/{int:reply_id}", response={204: None, **ERRORS})
def saved_reply_delete(request: HttpRequest, reply_id: int):
    """Delete a saved reply (for the whole team)."""
    reply = saved_reply_selectors.saved_reply_get(reply_id=reply_id)
    saved_reply_services.saved_reply_delete(reply=reply)
    return Status(204, None)


@router.get(
    "/concierge/requests/{int:request_id}/saved-replies",
    response={200: FilledReplyListOut, **ERRORS},
)
def saved_reply_list_for_request(request: HttpRequest, request_id: int):
    """The saved replies filled in for this request: the employee's first name, the
    request's name and my first name in place of their placeholders."""
    service_request = request_selectors.request_get_for_desk(request_id=request_id)
    me = concierge_of(request)
    # Without a first name (some provisioned accounts have none), the name there is: never
    # "Hi !" in a reply.
    values = {
        "first_name": service_request.user.first_name or service_request.user.full_name,
        "request_name": service_request.name,
        "concierge_first_name": me.first_name or me.full_name,
    }
    return FilledReplyListOut(
        saved_replies=[
            FilledReplyOut(
                id=reply.pk,
                title=reply.title,
                text=saved_reply_services.saved_reply_fill(reply.body, **values),
            )
            for reply in saved_reply_selectors.saved_reply_list()
        ]
    )
