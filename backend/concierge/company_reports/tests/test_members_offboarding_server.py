"""Issue 26 'Provisioning and offboarding', against a real server: the company admin
deactivates a member over HTTP on a uvicorn process that serves the API and the live streams
(the embedded layout, on the test database); the member's token is refused and their open
event stream ends, measured from the deactivation's request, in under 2 s."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from concierge.accounts.models import EmployeeRecord
from concierge.accounts.services.identity import user_sign_in
from concierge.accounts.services.memberships import membership_join
from concierge.company_reports.models import CompanyAdmin
from concierge.live.tests.servers import EventStream, bearer, events_server
from conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

CLOSE_WITHIN_SECONDS = 2.0


def test_admin_deactivation_refuses_the_token_and_ends_the_stream_within_two_seconds(
    user, company, user_factory
):
    """Issue 26: deactivate (company admin, real HTTP) -> 401 -> stream closed, in under 2 s"""
    record = membership_join(user=user, company=company, source=EmployeeRecord.Source.SIGN_UP)
    admin = user_factory(email="hr@example.com", first_name="Harper", companies=[company])
    CompanyAdmin.objects.create(user=admin, company=company)
    employee_token = user_sign_in(email=user.email, password=DEFAULT_PASSWORD).token
    admin_token = user_sign_in(email=admin.email, password=DEFAULT_PASSWORD).token

    async def scenario(base_url: str) -> dict[str, float]:
        async with httpx.AsyncClient(base_url=base_url, timeout=20) as client:
            ticket = await client.post("/api/v1/events/ticket", headers=bearer(employee_token))
            assert ticket.status_code == 200, ticket.text
            stream = await EventStream.open(client, ticket.json()["url"])
            try:
                started = time.monotonic()
                deactivated = await client.post(
                    f"/api/v1/company/{company.pk}/members/{record.pk}/deactivate",
                    headers=bearer(admin_token),
                )
                assert deactivated.status_code == 200, deactivated.text
                assert deactivated.json()["status"] == "deactivated"
                refused = await client.get("/api/v1/users/current", headers=bearer(employee_token))
                assert refused.status_code == 401
                token_refused = time.monotonic() - started
                rest = await stream.rest(timeout=CLOSE_WITHIN_SECONDS)
                stream_closed = time.monotonic() - started
                assert not any(line.startswith("data:") for line in rest), rest
                return {"token_refused": token_refused, "stream_closed": stream_closed}
            finally:
                await stream.close()

    with events_server() as server:
        timings = asyncio.run(scenario(server.api_url))
    print(
        f"issue 26 [real server] deactivation -> 401 in {timings['token_refused']:.3f} s, "
        f"-> stream closed in {timings['stream_closed']:.3f} s"
    )
    assert timings["stream_closed"] < CLOSE_WITHIN_SECONDS
