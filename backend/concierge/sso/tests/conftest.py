"""Fixtures of the company sign-in tests: Acme with its email domains and a local OpenID
provider (the SAML tests override both with their own)."""

from __future__ import annotations

import pytest

from concierge.sso.tests.idp_oidc import OidcProvider, Person


@pytest.fixture
def idp():
    """An OpenID provider on a local port; it signs Nia (of Acme) in unless told otherwise."""
    with OidcProvider() as provider:
        provider.person = Person(email="nia@acme.test")
        yield provider


@pytest.fixture
def acme(company):
    """Acme, whose people have addresses at acme.test and acme-corp.test."""
    company.allowed_email_domains = "acme.test\nacme-corp.test"
    company.save()
    return company
