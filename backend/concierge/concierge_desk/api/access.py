"""Who may use the desk's API, and what its screens share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.auth import TokenAuth, request_auth_token
from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.common.errors import PermissionDenied
from concierge.common.schemas import ErrorOut
from concierge.concierge_desk.schemas import (
    PersonRef,
)

if TYPE_CHECKING:
    from concierge.accounts.models import AuthToken, User

CONCIERGES_ONLY = "This area is for concierges only."
ERRORS = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut}


class ConciergeAuth(TokenAuth):
    """The API's bearer auth (with its MFA gate), then: concierges only (403 otherwise)."""

    def authenticate(self, request: HttpRequest, token: str) -> AuthToken | None:
        auth_token = super().authenticate(request, token)
        if auth_token is not None and not user_is_concierge(user=auth_token.user):
            raise PermissionDenied(CONCIERGES_ONLY)
        return auth_token


def desk_router() -> Router:
    """A router of the desk's screens: concierges only."""
    return Router(tags=["concierge desk"], auth=ConciergeAuth())


def concierge_of(request: HttpRequest) -> User:
    """The signed-in concierge."""
    return request_auth_token(request).user


def person_ref(user: User | None) -> PersonRef | None:
    return PersonRef(id=user.pk, full_name=user.full_name) if user is not None else None
