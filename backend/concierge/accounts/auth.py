"""Bearer-token authentication for the API, with the MFA gate of ARCHITECTURE.md §5."""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer

from concierge.accounts.models import AuthToken
from concierge.accounts.selectors.sessions import auth_token_get_active, user_mfa_required
from concierge.common.errors import Unauthorized
from concierge.common.tokens import hashes_equal, token_hash

MFA_AUTHENTICATION_REQUIRED = "MFA authentication required"


class TokenAuth(HttpBearer):
    """`Authorization: Bearer <token>`; plus `mfa-token` when the user's sessions need MFA."""

    def __init__(self, *, allow_pending_mfa: bool = False) -> None:
        super().__init__()
        self.allow_pending_mfa = allow_pending_mfa

    def authenticate(self, request: HttpRequest, token: str) -> AuthToken | None:
        auth_token = auth_token_get_active(raw_token=token)
        if auth_token is None:
            return None
        user = auth_token.user
        if (
            not self.allow_pending_mfa
            and user_mfa_required(user=user)
            and not mfa_verified(request, auth_token)
        ):
            raise Unauthorized(MFA_AUTHENTICATION_REQUIRED)
        request.user = user
        return auth_token


def mfa_verified(request: HttpRequest, auth_token: AuthToken) -> bool:
    """Whether the request carries this session's MFA token (from a successful code check)."""
    presented = request.headers.get("mfa-token", "")
    expected = auth_token.mfa_token_hash
    return bool(presented and expected and hashes_equal(expected, token_hash(presented)))


token_auth = TokenAuth()
token_auth_pending_mfa = TokenAuth(allow_pending_mfa=True)


def request_auth_token(request: HttpRequest) -> AuthToken:
    return request.auth  # type: ignore[attr-defined,no-any-return]
