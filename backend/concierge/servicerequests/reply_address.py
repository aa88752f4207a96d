"""Reply by email: the Reply-To address of a notification email about a request, and the headers
that keep a request's emails in one conversation in mail clients.

The address is `reply+<token>@<REPLY_DOMAIN>`. The token names the request and the employee
and when it was issued, signed with django.core.signing (its own salt). It is kept short and in
lower case only (digits, base 36 and base 32), because an address's local part may have at most
64 characters and some mail servers change its case on the way:
`<request id>.<employee id>.<issued, base 36 seconds>.<signature>`.
"""

from __future__ import annotations

import base64
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core import signing
from django.core.mail import make_msgid
from django.utils.crypto import salted_hmac
from django.utils.http import base36_to_int, int_to_base36

if TYPE_CHECKING:
    from concierge.servicerequests.models import ServiceRequest

TOKEN_SALT = "concierge.servicerequests.reply-by-email"
ROOT_SALT = "concierge.servicerequests.reply-by-email.thread"
LOCAL_PART_PREFIX = "reply+"
SIGNATURE_BYTES = 16  # 128 bits; 26 characters of base 32
_TOKEN_SHAPE = re.compile(r"^(\d{1,12})\.(\d{1,12})\.([0-9a-z]{1,10})\.([a-z2-7]{26})$")


class ReplyTokenInvalid(Exception):
    """A reply address whose token is malformed, tampered with or expired."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class ReplyToken:
    request_id: int
    user_id: int
    issued_at: int
    """Seconds since the epoch."""


class _ReplySigner(signing.Signer):
    """django.core.signing's Signer, its signature truncated to 128 bits and written in lower-case
    base 32 (an email address's local part is short and may lose its case)."""

    def signature(self, value: str | bytes, key: str | bytes | None = None) -> str:
        digest = salted_hmac(
            f"{TOKEN_SALT}signer", value, key or self.key, algorithm="sha256"
        ).digest()[:SIGNATURE_BYTES]
        return base64.b32encode(digest).decode().rstrip("=").lower()


def _signer() -> _ReplySigner:
    return _ReplySigner(salt=TOKEN_SALT, sep=".")


def reply_enabled() -> bool:
    return bool(settings.REPLY_DOMAIN)


def reply_token(*, request: ServiceRequest, now: float | None = None) -> str:
    issued = int(time.time() if now is None else now)
    return _signer().sign(f"{request.pk}.{request.user_id}.{int_to_base36(issued)}")


def reply_token_read(token: str, *, now: float | None = None) -> ReplyToken:
    """The request, employee and issue time a token names; ReplyTokenInvalid when it is not one
    of ours ('malformed'), was changed ('tampered') or is older than REPLY_TOKEN_MAX_AGE_DAYS
    ('expired')."""
    token = token.strip().lower()
    match = _TOKEN_SHAPE.match(token)
    if match is None:
        raise ReplyTokenInvalid("malformed")
    try:
        _signer().unsign(token)
    except signing.BadSignature:
        raise ReplyTokenInvalid("tampered") from None
    request_id, user_id, issued36, _ = match.groups()
    issued = base36_to_int(issued36)
    age = (time.time() if now is None else now) - issued
    if age > settings.REPLY_TOKEN_MAX_AGE_DAYS * 24 * 3600:
        raise ReplyTokenInvalid("expired")
    return ReplyToken(request_id=int(request_id), user_id=int(user_id), issued_at=issued)


def reply_address(*, request: ServiceRequest) -> str:
    """`reply+<token>@<REPLY_DOMAIN>`; empty while reply by email is off."""
    if not reply_enabled():
        return ""
    return f"{LOCAL_PART_PREFIX}{reply_token(request=request)}@{settings.REPLY_DOMAIN}"


def reply_token_from_address(address: str) -> str | None:
    """The token of a `reply+<token>@<REPLY_DOMAIN>` address (any case), or None for any other
    address."""
    if not reply_enabled():
        return None
    local, at, domain = address.strip().strip("<>").rpartition("@")
    if not at or domain.lower() != settings.REPLY_DOMAIN:
        return None
    if not local.lower().startswith(LOCAL_PART_PREFIX):
        return None
    return local[len(LOCAL_PART_PREFIX) :]


def _message_id_domain() -> str:
    from urllib.parse import urlsplit

    return settings.REPLY_DOMAIN or urlsplit(settings.PUBLIC_URL).hostname or "localhost"


def thread_root_id(*, request_id: int) -> str:
    """The one Message-ID a request's emails all answer (In-Reply-To, References), so mail
    clients show them as one conversation; stable, and not guessable across installations."""
    tag = salted_hmac(ROOT_SALT, str(request_id), algorithm="sha256").hexdigest()[:16]
    return f"<request-{request_id}.{tag}@{_message_id_domain()}>"


def request_email_headers(*, request: ServiceRequest) -> tuple[dict[str, str], str]:
    """The threading headers (a new Message-ID; In-Reply-To and References naming the request's
    root) and the Reply-To address (empty while reply by email is off) of a notification email
    about `request`."""
    root = thread_root_id(request_id=request.pk)
    headers = {
        "Message-ID": make_msgid(domain=_message_id_domain()),
        "In-Reply-To": root,
        "References": root,
    }
    return headers, reply_address(request=request)
