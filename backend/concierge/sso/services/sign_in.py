"""A company sign-in from start to finish: the browser sent to the provider, its answer turned
into the person (attribute mapping, the company's domains), their account found or made just
in time, and a single-use code that the web app exchanges for the session."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from concierge.accounts.services.external_sign_in import (
    ExternalIdentity,
    ExternalSession,
    external_person_join,
    external_session_start,
)
from concierge.sso.models import IdentityProvider, SignInAttempt
from concierge.sso.services import oidc, saml
from concierge.sso.services.errors import SignInRefused
from concierge.sso.services.records import (
    attempt_create,
    attempt_take,
    handoff_create,
    handoff_take,
)

NO_EMAIL = (
    "Your company's sign-in did not tell us your email address. Please contact your employer."
)
OTHER_DOMAIN = (
    "{email} is not an address of {company} ({domains}). Please sign in with your work account."
)
PROVIDER_ERROR = "Your company's sign-in was cancelled or refused. Please try again."
WRONG_PROVIDER = "This answer came from another company's sign-in. Please start again."


def sign_in_start(*, provider: IdentityProvider, purpose: str, browser: str = "") -> str:
    """The address that sends the browser to the company's provider. An OIDC sign-in is bound
    to `browser` (a secret in the starting browser's cookie); a SAML answer comes back as a
    cross-site POST, which carries no such cookie, so it is bound by its request id only."""
    if provider.kind == IdentityProvider.Kind.OIDC:
        state, attempt = attempt_create(provider=provider, purpose=purpose, browser=browser)
        return oidc.authorization_url(provider=provider, attempt=attempt, state=state)
    state, attempt = attempt_create(provider=provider, purpose=purpose)
    request_id, location = saml.authn_request(provider=provider, relay_state=state)
    attempt.saml_request_id = request_id
    attempt.save(update_fields=["saml_request_id"])
    return location


@dataclass(frozen=True)
class Finished:
    """The handoff code for the web app; `test` for the company admin's test sign-in."""

    code: str
    test: bool


@contextmanager
def _for(purpose: str) -> Iterator[None]:
    """Marks a refusal as ending a test sign-in (shown on the admin's page, not sign-in's)."""
    try:
        yield
    except SignInRefused as exc:
        exc.test = purpose == SignInAttempt.Purpose.TEST
        raise


def oidc_finish(*, state: str, code: str, error: str = "", browser: str = "") -> Finished:
    """The provider came back with `code` (or `error`): the handoff code for the web app."""
    attempt = attempt_take(state=state, browser=browser)
    with _for(attempt.purpose):
        return _oidc_finish(attempt, code, error)


def _oidc_finish(attempt: SignInAttempt, code: str, error: str) -> Finished:
    if error or not code:
        raise SignInRefused(PROVIDER_ERROR)
    if attempt.provider.kind != IdentityProvider.Kind.OIDC:
        raise SignInRefused(WRONG_PROVIDER)
    found = oidc.identity_from_code(attempt=attempt, code=code)
    values = {k: _first(v) for k, v in found.claims.items()}
    if found.claims.get("email_verified") is False:
        values.pop("email", None)  # the provider itself does not vouch for the address
    return _complete(attempt.provider, attempt.purpose, values, found.mfa_done)


def saml_finish(*, provider: IdentityProvider, saml_response: str, relay_state: str) -> Finished:
    """The provider posted its answer: the handoff code for the web app. Without a RelayState
    naming a sign-in started here, the sign-in was started at the provider (IdP-initiated)."""
    attempt: SignInAttempt | None = None
    if relay_state and len(relay_state) == 43:  # one of our states (token_urlsafe(32))
        attempt = attempt_take(state=relay_state)
        if attempt.provider_id != provider.pk:
            raise SignInRefused(WRONG_PROVIDER)
    purpose = attempt.purpose if attempt else SignInAttempt.Purpose.SIGN_IN
    with _for(purpose):
        found = saml.identity_from_response(
            provider=provider,
            saml_response=saml_response,
            request_id=attempt.saml_request_id if attempt else None,
        )
        values = {k: _first(v) for k, v in found.attributes.items()}
        if "@" in found.name_id:
            values.setdefault("__name_id__", found.name_id)
        return _complete(provider, purpose, values, found.mfa_done)


def _first(value: Any) -> str:
    if isinstance(value, list):
        value = value[0] if value else ""
    return value.strip() if isinstance(value, str) else ""


def _identity(provider: IdentityProvider, values: dict[str, str]) -> ExternalIdentity:
    """The person as the company's attribute mapping reads the provider's answer."""
    email = (values.get(provider.email_attribute) or values.get("__name_id__", "")).lower()
    try:
        validate_email(email)
    except ValidationError:
        raise SignInRefused(NO_EMAIL) from None
    company = provider.company
    domains = company.email_domains
    if domains and email.rpartition("@")[2] not in domains:
        listed = ", ".join(f"@{d}" for d in domains)
        raise SignInRefused(OTHER_DOMAIN.format(email=email, company=company.name, domains=listed))
    return ExternalIdentity(
        email=email,
        first_name=values.get(provider.first_name_attribute, "")[:150],
        last_name=values.get(provider.last_name_attribute, "")[:150],
        employee_id=values.get(provider.employee_id_attribute, "")[:100]
        if provider.employee_id_attribute
        else "",
    )


def _complete(
    provider: IdentityProvider, purpose: str, values: dict[str, str], mfa_done: bool
) -> Finished:
    identity = _identity(provider, values)
    if purpose == SignInAttempt.Purpose.TEST:
        result = {**identity.__dict__, "mfa_done": mfa_done}
        return Finished(handoff_create(user=None, test_result=result), test=True)
    user, _ = external_person_join(
        company=provider.company, identity=identity, create_accounts=provider.create_accounts
    )
    return Finished(handoff_create(user=user, mfa_done=mfa_done), test=False)


@dataclass(frozen=True)
class Exchanged:
    session: ExternalSession | None
    test_result: dict[str, Any] | None


def handoff_exchange(*, code: str) -> Exchanged:
    """The web app's code, used once: a new session, or a test sign-in's result."""
    handoff = handoff_take(code=code)
    if handoff.user is None:
        return Exchanged(session=None, test_result=handoff.test_result or {})
    session = external_session_start(user=handoff.user, mfa_done=handoff.mfa_done)
    return Exchanged(session=session, test_result=None)
