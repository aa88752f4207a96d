"""Fixtures of the provisioning tests: a company's SCIM token and a SCIM client speaking
application/scim+json to /scim/v2 through Django's test client (real views, real database)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from concierge.provisioning.services.tokens import scim_token_rotate

SCIM_TYPE = "application/scim+json"


class ScimClient:
    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.token = token

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        query: dict | None = None,
        raw: str | None = None,
    ):
        url = path if path.startswith("/") else f"/scim/v2/{path}"
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        send = getattr(self.client, method.lower())
        if method.upper() == "GET":
            return send(url, data=query or {}, headers=headers)
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        return send(url, data=data, content_type=SCIM_TYPE, headers=headers)

    def get(self, path: str, **kwargs: Any):
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any):
        return self.request("POST", path, body, **kwargs)

    def put(self, path: str, body: Any = None, **kwargs: Any):
        return self.request("PUT", path, body, **kwargs)

    def patch(self, path: str, body: Any = None, **kwargs: Any):
        return self.request("PATCH", path, body, **kwargs)

    def delete(self, path: str, **kwargs: Any):
        return self.request("DELETE", path, **kwargs)


@pytest.fixture
def scim_token(company) -> str:
    raw, _ = scim_token_rotate(company=company, created_by=None)
    return raw


@pytest.fixture
def scim(scim_token) -> ScimClient:
    """The SCIM client of `company` (Acme)."""
    return ScimClient(scim_token)


@pytest.fixture
def globex_scim(globex) -> ScimClient:
    raw, _ = scim_token_rotate(company=globex, created_by=None)
    return ScimClient(raw)


def new_user(scim: ScimClient, email: str, **extra: Any) -> dict:
    body = {"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"], "userName": email, **extra}
    response = scim.post("Users", body)
    assert response.status_code == 201, response.content
    return response.json()
