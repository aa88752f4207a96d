"""Error reporting to Sentry (spec §8): server errors only, without request bodies, cookies,
headers, query strings, local variables or breadcrumbs, so no password, token or message
text leaves the process. Off unless SENTRY_DSN is set."""

from __future__ import annotations

from typing import Any

from concierge.common.logs import current_request_id

KEPT_HEADERS = {"user-agent", "content-type", "content-length"}


def _scrub(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    request = event.get("request")
    if request:
        headers = request.get("headers") or {}
        event["request"] = {
            "method": request.get("method"),
            # The path only: tokens travel in query strings (unlock links, downloads).
            "url": (request.get("url") or "").split("?", 1)[0],
            "headers": {k: v for k, v in headers.items() if k.lower() in KEPT_HEADERS},
        }
    event.pop("breadcrumbs", None)
    event.pop("user", None)
    request_id = current_request_id()
    if request_id:  # the same id as the request's log lines and its X-Request-ID
        event.setdefault("tags", {})["request_id"] = request_id
    return event


def error_reporting_init(*, dsn: str, environment: str, traces_sample_rate: float) -> None:
    if not dsn:
        return
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration()],
        send_default_pii=False,
        max_request_body_size="never",
        include_local_variables=False,
        max_breadcrumbs=0,
        traces_sample_rate=traces_sample_rate,
        before_send=_scrub,  # type: ignore[arg-type]
        before_send_transaction=_scrub,  # type: ignore[arg-type]
    )
