"""The company admin's changes to their company's sign-in (the Django admin edits the same)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.utils import timezone

from concierge.accounts.services.mfa.totp import secret_encrypt
from concierge.audit import actions as audit_actions
from concierge.audit.middleware import request_actor
from concierge.audit.services import audit_record
from concierge.common.errors import ValidationFailed
from concierge.sso.models import IdentityProvider
from concierge.sso.selectors import provider_of_company

if TYPE_CHECKING:
    from concierge.accounts.models import Company, User


@dataclass(frozen=True)
class SsoChanges:
    kind: str
    enabled: bool
    oidc_issuer: str
    oidc_client_id: str
    oidc_client_secret: str | None  # None or "": keep the stored one
    saml_metadata_xml: str
    saml_metadata_url: str
    email_attribute: str
    first_name_attribute: str
    last_name_attribute: str
    employee_id_attribute: str
    create_accounts: bool
    sso_required: bool
    break_glass_email: str


def client_secret_set(provider: IdentityProvider, secret: str) -> None:
    """Stores the OIDC client secret encrypted (as accounts keeps authenticator secrets)."""
    provider.oidc_client_secret_encrypted = secret_encrypt(secret) if secret else ""


def _url(field: str, value: str) -> str:
    value = value.strip()
    if value:
        try:
            URLValidator(schemes=["https", "http"])(value)
        except ValidationError:
            raise ValidationFailed.for_field(field, "Please enter a full web address.") from None
    return value


def _break_glass(company: Company, email: str) -> User | None:
    if not email.strip():
        return None
    member = company.members.filter(email__iexact=email.strip()).first()
    if member is None:
        raise ValidationFailed.for_field(
            "break_glass_email", f"{email.strip()} is not a member of {company.name}."
        )
    return member


def sso_settings_update(*, company: Company, changes: SsoChanges) -> IdentityProvider:
    """Creates or changes the company's identity provider after checking what sign-in needs."""
    if changes.kind not in IdentityProvider.Kind.values:
        raise ValidationFailed.for_field("kind", "Please choose OpenID Connect or SAML 2.0.")
    provider = provider_of_company(company=company) or IdentityProvider(company=company)
    provider.kind = changes.kind
    provider.enabled = changes.enabled
    provider.oidc_issuer = _url("oidc_issuer", changes.oidc_issuer)
    provider.oidc_client_id = changes.oidc_client_id.strip()[:255]
    if changes.oidc_client_secret:
        client_secret_set(provider, changes.oidc_client_secret.strip())
    provider.saml_metadata_xml = changes.saml_metadata_xml.strip()
    provider.saml_metadata_url = _url("saml_metadata_url", changes.saml_metadata_url)
    for name in ("email", "first_name", "last_name", "employee_id"):
        value = getattr(changes, f"{name}_attribute").strip()[:255]
        if not value and name == "email":
            raise ValidationFailed.for_field("email_attribute", "Please name the email attribute.")
        setattr(provider, f"{name}_attribute", value)
    provider.create_accounts = changes.create_accounts
    provider.sso_required = changes.sso_required
    provider.break_glass_user = _break_glass(company, changes.break_glass_email)
    _complete_check(provider)
    provider.updated_at = timezone.now()
    provider.save()
    audit_record(
        action=audit_actions.SSO_SETTINGS_CHANGED,
        actor=request_actor(),
        actor_role="company admin",
        target_type="identity_provider",
        target_id=provider.pk,
        company_id=company.pk,
        details={
            "kind": provider.kind,
            "enabled": provider.enabled,
            "sso_required": provider.sso_required,
            "create_accounts": provider.create_accounts,
        },
    )
    return provider


def _complete_check(provider: IdentityProvider) -> None:
    if provider.kind == IdentityProvider.Kind.OIDC:
        missing = [
            field
            for field, value in (
                ("oidc_issuer", provider.oidc_issuer),
                ("oidc_client_id", provider.oidc_client_id),
                ("oidc_client_secret", provider.oidc_client_secret_encrypted),
            )
            if not value
        ]
    else:
        both = provider.saml_metadata_xml or provider.saml_metadata_url
        missing = [] if both else ["saml_metadata_xml"]
    if missing:
        raise ValidationFailed(
            "Please fill in what this kind of sign-in needs.",
            errors={field: ["This is needed."] for field in missing},
        )
    if provider.saml_metadata_xml and "EntityDescriptor" not in provider.saml_metadata_xml:
        raise ValidationFailed.for_field(
            "saml_metadata_xml", "This is not SAML metadata (an EntityDescriptor)."
        )
