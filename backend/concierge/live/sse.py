"""The live event stream: Server-Sent Events over ASGI at GET /api/v1/events.

Protocol (see also `concierge.live.events`):

1. Authenticate. Browsers' EventSource cannot send an Authorization header, so the client
   first asks `POST /api/v1/events/ticket` (normal bearer + MFA auth) for a ticket: a signed
   reference to its session, valid `EVENTS_TICKET_TTL_SECONDS` (60 s) for opening streams.
   Then `GET /api/v1/events?ticket=<ticket>`. Non-browser clients may instead send
   `Authorization: Bearer <token>` (and `mfa-token` when their session needs it). A raw
   bearer token is never accepted in the URL, where it would end up in access logs.
   A missing, expired or forged credential answers 401 JSON before any stream starts.
2. The stream (`text/event-stream`) starts with `retry: 3000` and a `: connected` comment;
   by then the subscription is live, so anything committed afterwards is delivered.
3. Each event is `id: <n>` + `data: {"type": ..., "request_id": ..., ...}`. No `event:`
   field, so `EventSource.onmessage` sees them all. Types: request.created,
   request.updated (status/assignee), request.seen (the employee opened the thread),
   message.created, and for concierges also note.created and presence.updated; `resync`
   asks the client to refetch everything.
4. A `: ping` comment every `EVENTS_HEARTBEAT_SECONDS` (15 s) keeps proxies from closing an
   idle stream. About once a minute the session is checked again: signed out, expired or a
   changed role ends the stream. When a user's sessions are signed out (a password reset or
   change, the employer deactivating them) their streams check at once and end within a
   moment (`concierge.live.sessions`). The stream also ends when the client disconnects
   (Django cancels it). When the server ends it, because it fell too far behind, after
   `EVENTS_MAX_STREAM_SECONDS`, or because the process is stopping (`drain`: SIGTERM), its
   last lines are `retry: <ms>` and `: reconnect`; the client then reconnects with a fresh
   ticket. Last-Event-ID is not replayed: after a reconnect the client refetches what it
   shows, which covers whatever happened while it was away.

A held stream holds no database connection. Django runs a request's synchronous code in a
thread of its own that lives as long as the response, and a connection opened there would stay
checked out of the pool (`DB_POOL_MAX`) until the stream ends: a handful of streams would
starve every other request of the process. So each database read of a stream (at open and at
the periodic re-check, one query each) hands its connection back as soon as it is done.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signing
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from prometheus_client import Gauge

from concierge.accounts.auth import token_auth
from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.accounts.selectors.sessions import auth_token_get_active_by_id
from concierge.common.errors import ApiError, error_body
from concierge.common.logs import log_context_user
from concierge.live.broker import broker_get
from concierge.live.drain import drain_on_stop_signals, draining, reconnect_block
from concierge.live.events import SESSIONS_REVOKED, Event, event_visible_to

if TYPE_CHECKING:
    from concierge.accounts.models import AuthToken

logger = logging.getLogger(__name__)
# Summed over the live processes of a node in multiprocess mode (common.metrics).
streams_open = Gauge(
    "concierge_event_streams_open",
    "Live event streams open on this node.",
    multiprocess_mode="livesum",
)

P = ParamSpec("P")
R = TypeVar("R")

TICKET_SALT = "concierge.events.ticket"
SIGN_IN_REQUIRED = "Please sign in to continue."
TICKET_INVALID = "This event stream ticket is invalid or has expired. Please request a new one."
RETRY_MILLISECONDS = 3000
RECHECK_SESSION_SECONDS = 60.0
OPENING = f"retry: {RETRY_MILLISECONDS}\n: connected\n\n"
PING = ": ping\n\n"


@dataclass(frozen=True)
class Viewer:
    token_id: int
    user_id: int
    is_concierge: bool


def stream_ticket_issue(*, auth_token: AuthToken) -> str:
    return signing.TimestampSigner(salt=TICKET_SALT).sign(f"{auth_token.pk}:{auth_token.user_id}")


def _viewer(auth_token: AuthToken) -> Viewer:
    return Viewer(
        token_id=auth_token.pk,
        user_id=auth_token.user_id,
        is_concierge=user_is_concierge(user=auth_token.user),
    )


def stream_viewer_for_ticket(*, ticket: str) -> Viewer:
    try:
        raw = signing.TimestampSigner(salt=TICKET_SALT).unsign(
            ticket, max_age=settings.EVENTS_TICKET_TTL_SECONDS
        )
        token_id, user_id = (int(part) for part in raw.split(":", 1))
    except (signing.BadSignature, ValueError) as exc:
        raise ApiError(TICKET_INVALID, status_code=401) from exc
    viewer = _viewer_now(token_id)
    if viewer is None or viewer.user_id != user_id:
        raise ApiError(TICKET_INVALID, status_code=401)
    return viewer


def stream_viewer_for_request(request: HttpRequest) -> Viewer:
    """Who is asking: by `?ticket=` or by the Authorization header (with the MFA gate)."""
    ticket = request.GET.get("ticket", "")
    if ticket:
        return stream_viewer_for_ticket(ticket=ticket[:500])
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        auth_token = token_auth.authenticate(request, token.strip())  # may raise MFA 401
        if auth_token is not None:
            return _viewer(auth_token)
    raise ApiError(SIGN_IN_REQUIRED, status_code=401)


def _viewer_now(token_id: int) -> Viewer | None:
    """Who the stream's session is now; None once it is signed out or expired."""
    auth_token = auth_token_get_active_by_id(token_id=token_id)
    return None if auth_token is None else _viewer(auth_token)


def _connection_returned(read: Callable[P, R]) -> Callable[P, R]:
    """`read`, then this thread's database connection goes back to the pool (or is closed),
    unless a transaction is still open on it (a test's)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return read(*args, **kwargs)
        finally:
            for connection in connections.all(initialized_only=True):
                if not connection.in_atomic_block:
                    connection.close()

    return run


_viewer_for_request = sync_to_async(_connection_returned(stream_viewer_for_request))
_viewer_recheck = sync_to_async(_connection_returned(_viewer_now))


def _frame(event_id: int, event: Event) -> str:
    return f"id: {event_id}\ndata: {event.payload_json}\n\n"


class _Timing:
    """When a quiet stream pings, re-checks the session, or ends."""

    def __init__(self) -> None:
        self.heartbeat = float(settings.EVENTS_HEARTBEAT_SECONDS)
        self.started = self.last_check = time.monotonic()

    def expired(self) -> bool:
        return time.monotonic() - self.started > settings.EVENTS_MAX_STREAM_SECONDS

    def session_check_due(self) -> bool:
        now = time.monotonic()
        if now - self.last_check < RECHECK_SESSION_SECONDS:
            return False
        self.last_check = now
        return True


async def _still_signed_in(viewer: Viewer) -> bool:
    return await _viewer_recheck(viewer.token_id) == viewer


async def event_stream(viewer: Viewer) -> AsyncIterator[str]:
    """The stream under ASGI: waits on the broker without blocking the event loop."""
    drain_on_stop_signals(asyncio.get_running_loop())
    broker = broker_get()
    subscription = await broker.subscribe()
    timing = _Timing()
    sent = 0
    streams_open.inc()
    try:
        if draining():  # subscribed after the drain closed the others
            yield reconnect_block()
            return
        yield OPENING
        while True:
            try:
                async with asyncio.timeout(timing.heartbeat):
                    event = await subscription.get()
            except TimeoutError:
                if timing.expired():
                    yield reconnect_block()
                    return
                if timing.session_check_due() and await _viewer_recheck(viewer.token_id) != viewer:
                    return
                yield PING
                continue
            if event is None:  # closed: too far behind, or the process is stopping
                yield reconnect_block()
                return
            if event.type == SESSIONS_REVOKED:  # never sent on; ends the stream if it was ours
                if event.owner_id == viewer.user_id and not await _still_signed_in(viewer):
                    return
                continue
            if event_visible_to(event, user_id=viewer.user_id, is_concierge=viewer.is_concierge):
                sent += 1
                yield _frame(sent, event)
    finally:
        streams_open.dec()
        await broker.unsubscribe(subscription)
        logger.info(
            "Event stream closed after %.0f s, %s events sent",
            time.monotonic() - timing.started,
            sent,
            extra={"events_sent": sent},
        )


async def events_view(request: HttpRequest) -> HttpResponseBase:
    """GET /api/v1/events: the signed-in user's live event stream (see the module docstring)."""
    if request.method != "GET":
        return JsonResponse(error_body("Use GET to open the event stream."), status=405)
    try:
        viewer = await _viewer_for_request(request)
    except ApiError as exc:
        return JsonResponse(error_body(exc.message), status=exc.status_code)
    log_context_user(viewer.user_id)
    if not isinstance(request, ASGIRequest):  # a load balancer sent it to the WSGI API server
        return JsonResponse(
            error_body("The event stream is served by the events server."), status=503
        )
    response = StreamingHttpResponse(event_stream(viewer), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"
    return response
