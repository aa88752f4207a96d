"""Issue 26 SCIM behind the shipped nginx (config/nginx.conf): /scim/v2/ reaches the app (not
the web app's index), with SCIM's media type and error body."""

from __future__ import annotations

import httpx
import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_scim_reaches_the_app_through_nginx(production_servers: str) -> None:
    """Issue 26 SCIM: GET /scim/v2/ServiceProviderConfig through nginx without a token → the
    app's SCIM 401 (application/scim+json), not the SPA's HTML"""
    response = httpx.get(f"{production_servers}/scim/v2/ServiceProviderConfig", timeout=10)
    assert response.status_code == 401
    assert response.headers["content-type"].startswith("application/scim+json")
    assert response.json()["schemas"] == ["urn:ietf:params:scim:api:messages:2.0:Error"]
    assert response.headers["www-authenticate"].startswith("Bearer")
