from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

DRAIN_CHUNK_BYTES = 64 * 1024


class RequestBodyDrainMiddleware:
    """Reads the rest of a request's body before its answer leaves a WSGI server.

    An answer given before the body was read (401, 403, 413, a validation error) leaves the
    rest of the body on the connection. granian then closes it, and a proxy that pools its
    connections to the app (nginx, config/nginx.conf) and had already passed the whole body
    on hands the dead connection to the next client's request: a 502 for someone else. So
    the rest is read and dropped, up to the largest body the product takes
    (`UPLOAD_MAX_BYTES`, nginx's limit too); past that, or when the server cannot tell where
    a chunked body ends, the answer closes the connection instead. ASGI servers read the
    whole body before the app runs: nothing is left to read there.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if "wsgi.input" in request.META and not _rest_of_body_read(request):
            response["Connection"] = "close"
        return response


def _rest_of_body_read(request: HttpRequest) -> bool:
    """Reads what is left of the body; False when it is larger than the product takes, its
    end is unknown or the client went away."""
    limit = int(settings.UPLOAD_MAX_BYTES)
    meta = request.META
    if "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower():
        if not meta.get("wsgi.input_terminated"):
            return False
        read = meta["wsgi.input"].read  # Django reads none of a chunked body
    else:
        try:
            if int(meta.get("CONTENT_LENGTH") or 0) > limit:
                return False
        except ValueError:
            return False
        read = request.read  # stops at the Content-Length
    size = 0
    try:
        while chunk := read(DRAIN_CHUNK_BYTES):
            size += len(chunk)
            if size > limit:
                return False
    except OSError:
        return False
    return True


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
