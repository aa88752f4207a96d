from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Field, Schema


class DiscoverOut(Schema):
    available: bool
    company_name: str | None = None
    company_slug: str | None = None
    start_url: str | None = None


class ExchangeIn(Schema):
    code: str = Field(max_length=200)


class TestResultOut(Schema):
    email: str
    first_name: str
    last_name: str
    employee_id: str
    mfa_done: bool


class ExchangeOut(Schema):
    """A password sign-in's answer (the token in the Authorization header, and `mfa-token` when
    the company's provider did MFA); or the company admin's test sign-in's result."""

    success: bool = True
    expires_at: datetime | None = None
    mfa_required: bool = False
    mfa_requires_verification: bool = False
    test_result: TestResultOut | None = None


class SsoSettingsIn(Schema):
    kind: Literal["oidc", "saml"]
    enabled: bool = True
    oidc_issuer: str = Field("", max_length=200)
    oidc_client_id: str = Field("", max_length=255)
    oidc_client_secret: str | None = Field(None, max_length=2000)
    saml_metadata_xml: str = Field("", max_length=200_000)
    saml_metadata_url: str = Field("", max_length=200)
    email_attribute: str = Field("email", max_length=255)
    first_name_attribute: str = Field("given_name", max_length=255)
    last_name_attribute: str = Field("family_name", max_length=255)
    employee_id_attribute: str = Field("", max_length=255)
    create_accounts: bool = False
    sso_required: bool = False
    break_glass_email: str = Field("", max_length=254)


class SsoSettingsOut(Schema):
    configured: bool
    kind: Literal["oidc", "saml"] | None
    enabled: bool
    oidc_issuer: str
    oidc_client_id: str
    oidc_client_secret_set: bool
    oidc_redirect_uri: str
    saml_metadata_xml: str
    saml_metadata_url: str
    saml_sp_entity_id: str
    saml_sp_metadata_url: str
    saml_acs_url: str
    email_attribute: str
    first_name_attribute: str
    last_name_attribute: str
    employee_id_attribute: str
    create_accounts: bool
    sso_required: bool
    break_glass_email: str


class TestStartOut(Schema):
    url: str
