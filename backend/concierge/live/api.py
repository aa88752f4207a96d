"""The live events' ticket endpoint (the stream itself is the async view in `sse.py`)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ninja import Router, Schema
from pydantic import Field

from concierge.accounts.auth import request_auth_token
from concierge.common.schemas import ErrorOut
from concierge.live.sse import stream_ticket_issue

router = Router(tags=["events"])


class StreamTicketOut(Schema):
    ticket: str = Field(description="Opens GET /api/v1/events?ticket=... for a short while.")
    expires_in: int = Field(description="Seconds the ticket can still open a stream.")
    url: str = Field(description="The stream's address with the ticket, relative to the site.")


@router.post("/events/ticket", response={200: StreamTicketOut, 401: ErrorOut})
def events_ticket(request: HttpRequest):
    """A short-lived ticket for the live event stream (Server-Sent Events).

    EventSource cannot send the Authorization header, so the SPA asks for a ticket here and
    opens `GET /api/v1/events?ticket=<ticket>`. When the stream drops, ask for a new ticket
    before reconnecting (a ticket opens streams for `expires_in` seconds only).
    """
    ticket = stream_ticket_issue(auth_token=request_auth_token(request))
    return StreamTicketOut(
        ticket=ticket,
        expires_in=int(settings.EVENTS_TICKET_TTL_SECONDS),
        url=f"/api/v1/events?ticket={ticket}",
    )
