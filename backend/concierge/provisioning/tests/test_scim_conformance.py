"""Issue 26 SCIM: a conformance run of scim2-tester (RFC 7643/7644 checks: discovery,
create, read with attributes, list, replace, PATCH add/replace/remove of every published
attribute, delete, unknown URLs) against the live server over real HTTP, with a company's
token. Every check must succeed (or be skipped for a feature we declare unsupported).

One adaptation: our userName is the person's email address (it links the record to their
account), so the tester's random userNames (UUIDs) are made addresses; it makes no other
value and judges every answer itself."""

from __future__ import annotations

import uuid
from collections import Counter

import httpx
import pytest
import scim2_tester
import scim2_tester.checkers.patch_add
import scim2_tester.checkers.patch_replace
import scim2_tester.filling
from scim2_client.client import BaseSyncSCIMClient
from scim2_tester import Status, check_server

from concierge.accounts.models import EmployeeRecord
from concierge.provisioning.services.tokens import scim_token_rotate

pytestmark = pytest.mark.django_db(transaction=True)

PASSING = {Status.SUCCESS, Status.COMPLIANT, Status.ACCEPTABLE, Status.SKIPPED}


class HttpxScimClient(BaseSyncSCIMClient):
    """scim2-client over httpx (its own engine wants httpx2, which we do not install)."""

    def __init__(self, client: httpx.Client) -> None:
        super().__init__()
        self.client = client

    def _stays_under_base_url(self, endpoint: str) -> bool:
        url = self.client.build_request("GET", endpoint).url
        base = self.client.base_url
        return url.host == base.host and url.port == base.port and url.path.startswith(base.path)

    def _parse_json(self, response):  # type: ignore[no-untyped-def]
        return response.json()

    def request(self, method: str, url: str, **kwargs):  # type: ignore[no-untyped-def]
        return self.client.request(method, url, **kwargs)


@pytest.fixture
def email_user_names(monkeypatch):
    original = scim2_tester.filling.generate_random_value

    def generate(context, path, *args, **kwargs):  # type: ignore[no-untyped-def]
        value = original(context, path, *args, **kwargs)
        if str(path).lower().endswith("username") and isinstance(value, str):
            return f"{uuid.uuid4().hex}@conformance.example"
        return value

    for module in (
        scim2_tester.filling,
        scim2_tester.checkers.patch_add,
        scim2_tester.checkers.patch_replace,
    ):
        monkeypatch.setattr(module, "generate_random_value", generate)


def test_scim2_tester_conformance_run_passes(live_server, company_factory, email_user_names):
    """Issue 26 SCIM: scim2-tester's conformance checks all pass against /scim/v2."""
    company = company_factory(slug="conformance", name="Conformance Inc")
    raw, _ = scim_token_rotate(company=company, created_by=None)
    http = httpx.Client(
        base_url=f"{live_server.url}/scim/v2",
        headers={"Authorization": f"Bearer {raw}"},
        timeout=30,
    )
    results = check_server(HttpxScimClient(http))
    counts = Counter(r.status.name for r in results)
    print(f"scim2-tester {scim2_tester.__name__}: {len(results)} checks, {dict(counts)}")
    failed = [r for r in results if r.status not in PASSING]
    assert not failed, "\n".join(f"{r.title}: {r.reason}" for r in failed)
    assert counts["SUCCESS"] >= 30
    assert EmployeeRecord.objects.filter(company=company).exists()
