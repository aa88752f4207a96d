"""Every request gets a request id, a log line and its place in the metrics.

The request id is the incoming `X-Request-ID` when it is sane (the load balancer's, nginx's
`$request_id`), else a new one; it goes back as `X-Request-ID` on every answer and is in every
log line written while the request is answered (concierge.common.logs). Each answer is one
line of `concierge.request` (method, route, path without query string or tokens, status,
duration, user) and counts in `concierge_http_requests_total` and
`concierge_http_request_duration_seconds` by route: the URL pattern, never the raw path, so
the number of series stays bounded.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable

from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from concierge.common.logs import (
    REQUEST_ID_HEADER,
    LogContext,
    log_context_begin,
    log_context_end,
    request_id_from_header,
    request_id_new,
    safe_path,
)
from concierge.common.metrics import http_request_observe

access_logger = logging.getLogger("concierge.request")

UNMATCHED_ROUTE = "<unmatched>"  # no URL pattern: a 404, or an answer given by a middleware
STATIC_ROUTE = "<static>"  # the web app's files and Django's static files (whitenoise)
# Load balancers ask every few seconds: their lines only at DEBUG.
QUIET_ROUTES = frozenset({"api/v1/health", "api/v1/health/ready"})


def route_label(request: HttpRequest, response: HttpResponseBase) -> str:
    match = getattr(request, "resolver_match", None)
    if match is not None and match.route:
        return str(match.route)
    if type(response).__name__ == "WhiteNoiseFileResponse":
        return STATIC_ROUTE
    return UNMATCHED_ROUTE


class RequestObservabilityMiddleware:
    """The request id, the request's log line and its metrics."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        request_id = request_id_from_header(request.headers.get(REQUEST_ID_HEADER))
        context = LogContext(
            request_id=request_id or request_id_new(), request=weakref.ref(request)
        )
        request.log_context = context  # type: ignore[attr-defined]
        token = log_context_begin(context)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            seconds = time.perf_counter() - started
            response[REQUEST_ID_HEADER] = context.request_id
            route = route_label(request, response)
            http_request_observe(
                method=request.method or "",
                route=route,
                status=response.status_code,
                seconds=seconds,
            )
            _access_line(request, response, route, seconds)
        except BaseException:
            log_context_end(token)
            raise
        # A stream served by the ASGI server (the live events) is written after this returns,
        # in this request's own task: its lines keep the request's context. Everywhere else
        # the thread goes on to other requests.
        if not (response.streaming and isinstance(request, ASGIRequest)):
            log_context_end(token)
        return response


def _access_line(
    request: HttpRequest,
    response: HttpResponseBase,
    route: str,
    seconds: float,
) -> None:
    level = logging.DEBUG if route in QUIET_ROUTES else logging.INFO
    if not access_logger.isEnabledFor(level):
        return
    method = request.method or ""
    path = safe_path(request.path)
    status = response.status_code
    duration_ms = round(seconds * 1000, 1)
    access_logger.log(
        level,
        "%s %s %s %.1f ms",
        method,
        path,
        status,
        duration_ms,
        extra={
            "method": method,
            "route": route,
            "path": path,
            "status": status,
            "duration_ms": duration_ms,
        },
    )
