"""Issue 26 company sign-in (SSO) in Django admin: an administrator sets a company's identity
provider; the OIDC client secret is stored encrypted and never shown back."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from concierge.accounts.models import User
from concierge.accounts.services.mfa.totp import secret_decrypt
from concierge.sso.models import IdentityProvider

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_() -> Client:
    superuser = User.objects.create_superuser(
        email="root@example.com", password="admin-pass-123", first_name="Root"
    )
    client = Client()
    client.force_login(superuser)
    return client


def _form(company, **fields) -> dict:  # type: ignore[no-untyped-def]
    return {
        "company": company.pk,
        "kind": "oidc",
        "enabled": "on",
        "oidc_issuer": "https://idp.example.com",
        "oidc_client_id": "concierge",
        "oidc_client_secret": "very-secret",
        "oidc_scopes": "openid email profile",
        "saml_metadata_xml": "",
        "saml_metadata_url": "",
        "email_attribute": "email",
        "first_name_attribute": "given_name",
        "last_name_attribute": "family_name",
        "employee_id_attribute": "employee_id",
        "create_accounts": "on",
        **fields,
    }


def test_issue26_sso_admin_sets_a_company_identity_provider(admin_client_, company):
    """Issue 26 SSO (Django admin): the add page saves an OIDC provider with its secret
    encrypted; the change page shows our addresses to register and never the secret; saving
    without a secret keeps it."""
    add = reverse("admin:sso_identityprovider_add")
    assert admin_client_.get(add).status_code == 200
    response = admin_client_.post(add, _form(company))
    assert response.status_code == 302, response.content.decode()[:2000]
    provider = IdentityProvider.objects.get(company=company)
    assert "very-secret" not in provider.oidc_client_secret_encrypted
    assert secret_decrypt(provider.oidc_client_secret_encrypted) == "very-secret"

    change = reverse("admin:sso_identityprovider_change", args=[provider.pk])
    page = admin_client_.get(change).content.decode()
    assert "very-secret" not in page
    assert "/api/v1/sso/oidc/callback" in page and "/api/v1/sso/acme/saml/acs" in page
    response = admin_client_.post(change, _form(company, oidc_client_secret=""))
    assert response.status_code == 302
    provider.refresh_from_db()
    assert secret_decrypt(provider.oidc_client_secret_encrypted) == "very-secret"
    assert admin_client_.get(reverse("admin:sso_identityprovider_changelist")).status_code == 200


def test_issue26_sso_admin_checks_what_the_kind_needs(admin_client_, company, user_factory):
    """Issue 26 SSO (Django admin): OIDC without a secret, SAML without metadata, and a
    break-glass account from outside the company are refused with a message on the field."""
    add = reverse("admin:sso_identityprovider_add")
    response = admin_client_.post(add, _form(company, oidc_client_secret=""))
    assert response.status_code == 200 and "Needed for OpenID Connect." in response.content.decode()
    response = admin_client_.post(add, _form(company, kind="saml"))
    assert "Paste the metadata or give its address." in response.content.decode()
    outsider = user_factory(email="out@else.test")
    response = admin_client_.post(add, _form(company, break_glass_user=outsider.pk))
    assert "The break-glass account must be a member." in response.content.decode()
    assert not IdentityProvider.objects.exists()


def test_issue26_sso_admin_takes_an_address_without_scheme_as_https(admin_client_, company):
    """Issue 26 SSO (Django admin): an issuer or metadata address typed without its scheme is
    stored as https://, never http://."""
    add = reverse("admin:sso_identityprovider_add")
    response = admin_client_.post(
        add, _form(company, oidc_issuer="idp.example.com", saml_metadata_url="idp.example.com/md")
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    provider = IdentityProvider.objects.get(company=company)
    assert provider.oidc_issuer == "https://idp.example.com"
    assert provider.saml_metadata_url == "https://idp.example.com/md"
