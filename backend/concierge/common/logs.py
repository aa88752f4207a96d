"""Logs: one line per record, JSON in production (LOG_FORMAT=json), readable text for
development (LOG_FORMAT=text), from every process (the API and events servers, the task
worker, management commands). See docs/operations/monitoring.md.

Each line carries an ISO-8601 UTC timestamp, the level, the logger and the message, and, while
a request is being answered, its request id and the signed-in user's id. The request's context
lives in a context variable (`LogContext`), so it follows the request into sync and async views
and into the live event stream.

A line never carries a secret: extra fields that are not plain values (a request, headers, a
scope) are dropped, and messages are scrubbed of query-string credentials (stream tickets,
signed links), bearer tokens and `password=`/`token=` pairs. Paths are logged with their
token-like segments replaced (`safe_path`): reset, unlock, rating and upload links carry their
token in the path.
"""

from __future__ import annotations

import logging
import logging.config
import re
import uuid
import weakref
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.utils.functional import SimpleLazyObject, empty
from pythonjsonlogger.json import JsonFormatter as BaseJsonFormatter

REQUEST_ID_HEADER = "X-Request-ID"
# A request id taken from a client or a proxy: bounded, and only characters that are safe
# in a log line and a header (nginx's $request_id is 32 hex digits, a UUID fits too).
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
REDACTED = "[redacted]"


# =========================================================================== context


@dataclass
class LogContext:
    """What every log line written while answering one request carries. Mutable and shared:
    the copies of the context that sync and async code run in all see the same object, so a
    user identified deep in a view is known to the request's last line too."""

    request_id: str
    user_id: int | None = None
    # The HttpRequest (weakly: the request holds its context), for the user it signs in.
    request: weakref.ref[Any] | None = None


_context: ContextVar[LogContext | None] = ContextVar("concierge_log_context", default=None)


def request_id_from_header(value: str | None) -> str | None:
    """The incoming X-Request-ID when it is sane, else None (a new one is made)."""
    if value and _SANE_REQUEST_ID.fullmatch(value):
        return value
    return None


def request_id_new() -> str:
    return uuid.uuid4().hex


def log_context_begin(context: LogContext) -> Token[LogContext | None]:
    return _context.set(context)


def log_context_end(token: Token[LogContext | None]) -> None:
    try:
        _context.reset(token)
    except ValueError:  # set in another context copy: nothing of this request is left here
        _context.set(None)


def log_context_current() -> LogContext | None:
    return _context.get()


def log_context_user(user_id: int) -> None:
    """Tell the current request's log lines who is signed in (the event stream does, whose
    credential is a ticket rather than the API's bearer token)."""
    context = _context.get()
    if context is not None:
        context.user_id = user_id


def current_request_id() -> str | None:
    context = _context.get()
    return context.request_id if context is not None else None


def context_user_id(context: LogContext) -> int | None:
    """The signed-in user's id, when the request has identified one. Never evaluates a lazy
    `request.user` (that would read the session for a log line)."""
    if context.user_id is not None:
        return context.user_id
    request = context.request() if context.request is not None else None
    if request is None:
        return None
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        wrapped = user._wrapped  # type: ignore[attr-defined]
        user = None if wrapped is empty else wrapped
    if user is not None and getattr(user, "is_authenticated", False):
        return user.pk  # type: ignore[no-any-return]
    return None


# =========================================================================== redaction

# Query-string parameters that carry a credential: stream tickets, signed download and upload
# links (S3's X-Amz-*), tokens, codes.
_SECRET_QUERY = re.compile(
    r"([?&](?:ticket|token|access_token|refresh_token|key|signature|sig|code|password|secret"
    r"|X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token)=)[^&\s\"'#]*",
    re.IGNORECASE,
)
_BEARER = re.compile(r"\b(Bearer\s+)[A-Za-z0-9._~+/=:-]+", re.IGNORECASE)
_SECRET_PAIR = re.compile(
    r"""(\b(?:password|passwd|secret|token|ticket|authorization|mfa-token|api[_-]?key)"""
    r"""["']?\s*[:=]\s*["']?)(?!\[redacted\]|Bearer\s)[^\s"',&;)}\]]+""",
    re.IGNORECASE,
)
# A path segment that looks like a token rather than a word, a slug, a number or a file name:
# long, from a token's alphabet, and not all lowercase letters and hyphens, all digits, or a
# name with an extension (the web app's hashed files: `index-C0vBEgu2.js`).
_TOKEN_SEGMENT = re.compile(r"[A-Za-z0-9._~:=+%-]{16,}")
_NOT_A_TOKEN = re.compile(r"[a-z-]+|[0-9]+|[A-Za-z0-9_-]+\.[a-z0-9]{1,5}")


def redact(text: str) -> str:
    """`text` without query-string credentials, bearer tokens and secret pairs."""
    if not text:
        return text
    text = _SECRET_QUERY.sub(rf"\1{REDACTED}", text)
    text = _BEARER.sub(rf"\1{REDACTED}", text)
    return _SECRET_PAIR.sub(rf"\1{REDACTED}", text)


def safe_path(path: str) -> str:
    """A request path fit for a log line: no query string, token-like segments replaced
    (`/reset-password/<token>` → `/reset-password/[redacted]`)."""
    path = path.split("?", 1)[0]
    return "/".join(
        REDACTED
        if _TOKEN_SEGMENT.fullmatch(segment) and not _NOT_A_TOKEN.fullmatch(segment)
        else segment
        for segment in path.split("/")
    )


# =========================================================================== filter


class RequestContextFilter(logging.Filter):
    """Adds `request_id` and `user_id` to every record written while a request is answered,
    and takes the query string and tokens out of the paths other loggers put in theirs
    (Django's "Not Found: /path", an ASGI server's access line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = record.__dict__.get("request")
        # Django logs an error answer ("Service Unavailable: /path") once the middleware has
        # finished with the request: its context then comes with the request.
        context = _context.get() or getattr(request, "log_context", None)
        if isinstance(context, LogContext):
            record.request_id = context.request_id
            record.user_id = context_user_id(context)
        if request is not None and isinstance(record.args, tuple):
            path = getattr(request, "path", None)
            record.args = tuple(
                safe_path(arg) if isinstance(arg, str) and arg == path else arg
                for arg in record.args
            )
        if record.name in ("uvicorn.access", "granian.access"):
            _scrub_access_record(record)
        return True


def _scrub_access_record(record: logging.LogRecord) -> None:
    """uvicorn's access line: (client, method, path with query string, version, status);
    granian's: a dict with `path` and `query_string`."""
    args = record.args
    if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
        record.args = (*args[:2], safe_path(args[2]), *args[3:])
    elif isinstance(args, dict):
        scrubbed = dict(args)
        if isinstance(scrubbed.get("path"), str):
            scrubbed["path"] = safe_path(scrubbed["path"])
        if "query_string" in scrubbed:
            scrubbed["query_string"] = ""
        record.args = scrubbed


# =========================================================================== formatters

# Attributes of every LogRecord (and a few that servers add) that are not fields of a line.
_RECORD_ATTRIBUTES = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",  # uvicorn: the message again, with terminal colours
    "context",  # TextFormatter's
    "request_id",
    "user_id",
}
_SECRET_FIELD = re.compile(
    r"password|passwd|secret|token|ticket|authorization|cookie|session|body|header",
    re.IGNORECASE,
)
_PLAIN = (str, int, float, bool)


class JsonFormatter(BaseJsonFormatter):
    """`{"timestamp", "level", "logger", "message", "request_id", "user_id", ...}` on one line.

    Extra fields (`logger.info(..., extra={"status": 200})`) are kept when they are plain
    values (text, numbers, booleans) and their names do not suggest a secret; anything else
    (a request object, a header mapping, an ASGI scope) is left out."""

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        log_data["timestamp"] = datetime.fromtimestamp(record.created, tz=UTC).isoformat(
            timespec="milliseconds"
        )
        log_data["level"] = record.levelname
        log_data["logger"] = record.name
        log_data["message"] = redact(str(record.__dict__.get("message", "")))
        for key in ("request_id", "user_id"):
            value = record.__dict__.get(key)
            if value is not None:
                log_data[key] = value
        for key in ("exc_info", "stack_info"):  # formatted by format() into message_dict
            value = message_dict.get(key)
            if value:
                log_data[key] = redact("\n".join(value) if isinstance(value, list) else str(value))
        fields = {**record.__dict__, **message_dict}
        for key, value in fields.items():
            if key in _RECORD_ATTRIBUTES or key in log_data or key.startswith("_"):
                continue
            if isinstance(value, _PLAIN) and not _SECRET_FIELD.search(key):
                log_data[key] = redact(value) if isinstance(value, str) else value


class TextFormatter(logging.Formatter):
    """`2025-01-31T09:00:00.123Z INFO concierge.request [req=… user=12] GET /api/v1/… 200`:
    for people reading a terminal (`make run`, `make dev`), scrubbed like the JSON lines."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(context)s %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        moment = datetime.fromtimestamp(record.created, tz=UTC)
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def format(self, record: logging.LogRecord) -> str:
        request_id = record.__dict__.get("request_id")
        user_id = record.__dict__.get("user_id")
        parts = [f"req={request_id}"] if request_id else []
        if user_id is not None:
            parts.append(f"user={user_id}")
        record.context = f" [{' '.join(parts)}]" if parts else ""
        return redact(super().format(record))


# =========================================================================== configuration

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# Loggers that Django's defaults give handlers of their own (plain text, DEBUG only): theirs
# go through the one handler as well.
DJANGO_LOGGERS = ("django", "django.server", "py.warnings")
# The servers' own loggers: their lines go through the same handler (and so the same format
# and scrubbing) as the app's once Django has loaded in the process.
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "_granian", "granian.access")


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """settings.LOGGING: one handler on standard error, JSON or text, with the request's
    context and the scrubbing filter."""
    formatter = (
        {"()": "concierge.common.logs.JsonFormatter"}
        if log_format == "json"
        else {"()": "concierge.common.logs.TextFormatter"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_context": {"()": "concierge.common.logs.RequestContextFilter"}},
        "formatters": {"default": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "filters": ["request_context"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            **{
                name: {"handlers": [], "propagate": True}
                for name in (*SERVER_LOGGERS, *DJANGO_LOGGERS)
            },
            # Every 4xx is already a line of its own (concierge.request); 5xx keep theirs,
            # with the traceback.
            "django.request": {"level": "ERROR"},
        },
    }


ACCESS_LOGGERS = ("uvicorn.access", "granian.access")


def logging_configure(config: dict[str, Any]) -> None:
    """settings.LOGGING_CONFIG: Django's dictConfig, and Python's warnings (a missing static
    folder, a deprecation) logged as `py.warnings` lines instead of written raw. A server that
    was started with its access lines off (--no-access-log: the logger no longer propagates)
    keeps them off: dictConfig would turn them on again, and every request would be logged
    twice (concierge.request is its line)."""
    servers_choice = {
        name: logging.getLogger(name).propagate
        for name in ACCESS_LOGGERS
        if name in logging.root.manager.loggerDict
    }
    logging.config.dictConfig(config)
    for name, propagate in servers_choice.items():
        logging.getLogger(name).propagate = propagate
    logging.captureWarnings(True)
