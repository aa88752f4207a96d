"""The request being answered, for events written by services and signal receivers that are
not handed it (sign-in, password changes, role changes, ...): `audit_record` takes the client
address from it, and `request_actor()` the person signed in."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse

from concierge.common.ratelimit import client_ip

current_client_ip: ContextVar[str] = ContextVar("audit_client_ip", default="")
current_request: ContextVar[HttpRequest | None] = ContextVar("audit_request", default=None)


@dataclass(frozen=True)
class Acting:
    """In whose name the events of a block are written: the role the actor acts in (a company
    admin on the members page) and the channel the change came through ('scim', 'roster')."""

    role: str = ""
    via: str = ""


_AS_THEMSELVES = Acting()  # frozen: safe to share as the default
current_acting: ContextVar[Acting] = ContextVar("audit_acting", default=_AS_THEMSELVES)


@contextmanager
def acting_as(*, role: str = "", via: str = "") -> Iterator[None]:
    """Events written inside (by any service the block calls) name this role, unless they name
    one themselves, and the channel in their details."""
    outer = current_acting.get()
    token = current_acting.set(Acting(role=role or outer.role, via=via or outer.via))
    try:
        yield
    finally:
        current_acting.reset(token)


def request_user(request: HttpRequest | None) -> Any:
    """The signed-in account of a request: Ninja's auth puts it in request.auth (a user or a
    session token with `.user`), Django's views in request.user."""
    if request is None:
        return None
    for candidate in (getattr(request, "auth", None), getattr(request, "user", None)):
        candidate = getattr(candidate, "user", candidate)
        if getattr(candidate, "is_authenticated", False) and getattr(candidate, "pk", None):
            return candidate
    return None


def request_user_agent() -> str:
    """The browser's User-Agent on the request being answered, '' outside one."""
    request = current_request.get()
    return str(request.headers.get("User-Agent", "")) if request is not None else ""


def request_actor() -> Any:
    """The account signed in on the request being answered, if any."""
    return request_user(current_request.get())


class AuditContextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        address = current_client_ip.set(client_ip(request))
        answering = current_request.set(request)
        try:
            return self.get_response(request)
        finally:
            current_request.reset(answering)
            current_client_ip.reset(address)
