"""Which company sign-in applies: by a company's slug, by an email's domain, and whether a
company's "SSO required" refuses a person's sign-in by password or passkey."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from concierge.accounts.selectors.companies import company_by_sign_up_slug
from concierge.sso.models import IdentityProvider

if TYPE_CHECKING:
    from concierge.accounts.models import Company, User

SSO_REQUIRED = (
    '{company} signs you in through its own sign-in. Please choose "Continue with your '
    "company's sign-in\"."
)
_SLUG = re.compile(r"[-a-z0-9_]{1,50}")
_DOMAIN = re.compile(r"[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?")


def provider_by_slug(*, slug: str) -> IdentityProvider | None:
    """The enabled identity provider of the company with this slug (any letter case)."""
    slug = slug.strip().lower()
    if not _SLUG.fullmatch(slug):
        return None
    return (
        IdentityProvider.objects.select_related("company")
        .filter(company__slug=slug, enabled=True)
        .first()
    )


def provider_for_metadata(*, slug: str) -> IdentityProvider | None:
    """The provider whose service-provider metadata the company's slug names: its settings,
    enabled or not, or blank ones while it has none yet (the metadata comes first: the company
    imports it at its provider before it can give us the provider's own). None: no company."""
    company = company_by_sign_up_slug(slug=slug)
    if company is None:
        return None
    return provider_of_company(company=company) or IdentityProvider(company=company)


def provider_of_company(*, company: Company) -> IdentityProvider | None:
    """The company's identity provider, enabled or not (its admin's settings)."""
    return (
        IdentityProvider.objects.select_related("company", "break_glass_user")
        .filter(company=company)
        .first()
    )


def provider_by_email(*, email: str) -> IdentityProvider | None:
    """The enabled identity provider of the company whose own domains include the email's."""
    domain = email.strip().lower().rpartition("@")[2]
    if not _DOMAIN.fullmatch(domain):
        return None
    candidates = IdentityProvider.objects.select_related("company").filter(
        enabled=True, company__allowed_email_domains__icontains=domain
    )
    return next((p for p in candidates if domain in p.company.email_domains), None)


def sso_required_refusal(user: User) -> str | None:
    """accounts' check of a sign-in by password or passkey: refused for a member of a company
    whose sign-in is required, unless this account is that company's break-glass account."""
    provider = (
        IdentityProvider.objects.select_related("company")
        .filter(company__members=user, enabled=True, sso_required=True)
        .exclude(break_glass_user=user)
        .first()
    )
    return SSO_REQUIRED.format(company=provider.company.name) if provider else None
