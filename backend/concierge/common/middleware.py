from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class SecurityHeadersMiddleware:
    """Content-Security-Policy and friends on every response (HSTS comes from SecurityMiddleware)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/api/v1/docs"):
            response.headers.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=()"
        )
        response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        return response


class ApiCompressionMiddleware(GZipMiddleware):
    """gzip for the API's answers; the web app's own files come precompressed (whitenoise and
    the index view).

    BREACH needs a secret in a compressed answer to a request an attacker's page can make the
    browser send with its credentials: the API's credentials are a header the app sets itself,
    never sent by the browser on its own, and Django pads each gzip answer at random besides.
    The live stream stays plain, so each event leaves the server as it happens.
    """

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        streaming_events = response.get("Content-Type", "").startswith("text/event-stream")
        if not request.path.startswith("/api/") or streaming_events:
            return response
        return super().process_response(request, response)
