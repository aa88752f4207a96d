"""Driving a company sign-in through the API as a browser would: to the provider, back to our
callback, and the web app's code exchange."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
from django.test import Client

from concierge.accounts.services.mfa.totp import secret_encrypt
from concierge.sso.models import IdentityProvider


def oidc_provider_for(company, idp, **fields) -> IdentityProvider:  # type: ignore[no-untyped-def]
    return IdentityProvider.objects.create(
        company=company,
        kind=IdentityProvider.Kind.OIDC,
        oidc_issuer=idp.issuer,
        oidc_client_id=idp.client_id,
        oidc_client_secret_encrypted=secret_encrypt(idp.client_secret),
        **{"create_accounts": True, "employee_id_attribute": "employee_id", **fields},
    )


def fragment(response, page: str = "/sign-in") -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The web app's page our redirect names, and its fragment's values, named as for a
    sign-in ("code", "error") whether it ends a sign-in ("sso") or a test ("sso-test")."""
    assert response.status_code == 302, response.content
    url = urlsplit(response["Location"])
    assert url.path == page, response["Location"]
    values = {k: v[0] for k, v in parse_qs(url.fragment).items()}
    prefix = "sso-test" if page != "/sign-in" else "sso"
    names = {prefix: "code", f"{prefix}-error": "error"}
    assert set(values) <= set(names), values
    return {names[k]: v for k, v in values.items()}


def oidc_round_trip(client: Client, slug: str) -> tuple[dict[str, str], dict[str, str]]:
    """Start → provider (which signs its `person` in at once) → our callback. Returns the
    callback's query (code, state) and the fragment our callback redirected to."""
    start = client.get(f"/api/v1/sso/{slug}/start")
    assert start.status_code == 302, start.content
    at_provider = httpx.get(start["Location"], follow_redirects=False)
    assert at_provider.status_code == 302, at_provider.text
    back = urlsplit(at_provider.headers["Location"])
    query = {k: v[0] for k, v in parse_qs(back.query).items()}
    return query, fragment(client.get(back.path, query))


def exchange(client: Client, code: str):  # type: ignore[no-untyped-def]
    return client.post("/api/v1/sso/exchange", {"code": code}, content_type="application/json")
