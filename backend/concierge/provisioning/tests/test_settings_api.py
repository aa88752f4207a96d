"""Issue 26 SCIM settings: the company admin creates, rotates and revokes their company's SCIM
token at /api/v1/company/{id}/scim (shown once, stored hashed); nobody else can."""

from __future__ import annotations

import pytest

from concierge.provisioning.models import ScimToken
from concierge.provisioning.tests.conftest import ScimClient

pytestmark = pytest.mark.django_db


def test_company_admin_creates_rotates_and_revokes_the_token(hr_api, company):
    """Issue 26 SCIM: status, create (token shown once), rotate (old refused), revoke."""
    path = f"company/{company.pk}/scim"
    status = hr_api.get(path).json()
    assert status["has_token"] is False and status["base_url"].endswith("/scim/v2")
    first = hr_api.post(path).json()["token"]
    assert ScimClient(first).get("Users").status_code == 200
    status = hr_api.get(path).json()
    assert status["has_token"] is True and "token" not in status
    assert status["last_used_at"] is not None
    second = hr_api.post(path).json()["token"]
    assert second != first
    assert ScimClient(first).get("Users").status_code == 401
    assert ScimClient(second).get("Users").status_code == 200
    assert hr_api.delete(path).status_code == 204
    assert ScimClient(second).get("Users").status_code == 401
    assert hr_api.get(path).json()["has_token"] is False
    assert not ScimToken.objects.exists()


def test_only_the_company_admin_of_that_company(hr_api, signed_in_api, company, globex):
    """Issue 26 SCIM: an employee gets 403; Acme's admin gets 404 for Globex's settings."""
    assert signed_in_api.get(f"company/{company.pk}/scim").status_code == 403
    assert signed_in_api.post(f"company/{company.pk}/scim").status_code == 403
    assert hr_api.get(f"company/{globex.pk}/scim").status_code == 404
    assert hr_api.post(f"company/{globex.pk}/scim").status_code == 404
    assert hr_api.delete(f"company/{globex.pk}/scim").status_code == 404
    assert not ScimToken.objects.exists()
