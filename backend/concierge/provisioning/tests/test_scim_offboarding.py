"""Issue 26 'Provisioning and offboarding' through SCIM: the identity provider's PATCH
active:false (Entra's shape) or DELETE → the person's token is refused (401) → their open
event stream closes, measured, in under 2 s. Through the real SCIM view and the real ASGI events handler
(in-process broker), as the live app's own test does for member_deactivate."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from concierge.live.tests.test_sessions_revoked import _until_the_end, shared_transaction
from concierge.live.tests.test_sse import EVENTS_URL, AsgiConnection, ticket_for
from concierge.provisioning.tests.conftest import new_user

pytestmark = pytest.mark.django_db

CLOSE_WITHIN_SECONDS = 2.0


@pytest.mark.parametrize("offboarding", ["patch", "delete"])
def test_scim_deactivation_refuses_the_token_and_closes_the_stream_within_two_seconds(
    settings, scim, signed_in_api, user, django_capture_on_commit_callbacks, offboarding
):
    """Issue 26 SCIM: PATCH {"op": "Replace", "path": "active", "value": "False"}, or DELETE,
    → 401 → stream closed, in under 2 s (the stream's own re-check is a minute away)."""
    settings.REDIS_URL = ""
    settings.EVENTS_HEARTBEAT_SECONDS = 30
    scim_id = new_user(scim, user.email)["id"]
    ticket = ticket_for(signed_in_api)
    timings: dict[str, float] = {}
    patch = {"Operations": [{"op": "Replace", "path": "active", "value": "False"}]}

    def deactivate() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            if offboarding == "delete":
                assert scim.delete(f"Users/{scim_id}").status_code == 204
                return
            response = scim.patch(f"Users/{scim_id}", patch)
        assert response.status_code == 200 and response.json()["active"] is False

    async def scenario() -> None:
        connection = AsgiConnection(EVENTS_URL, f"ticket={ticket}")
        status, _ = await connection.open()
        assert status == 200
        await connection.read_until(": connected")
        started = time.monotonic()
        await sync_to_async(deactivate)()
        refused = await sync_to_async(signed_in_api.get)("users/current")
        request_started.disconnect(close_old_connections)  # the test client connected them
        request_finished.disconnect(close_old_connections)
        assert refused.status_code == 401
        timings["token_refused"] = time.monotonic() - started
        await asyncio.wait_for(_until_the_end(connection), CLOSE_WITHIN_SECONDS)
        timings["stream_closed"] = time.monotonic() - started
        await asyncio.wait_for(connection.task, 5)

    with shared_transaction():
        async_to_sync(scenario)()
    print(
        f"issue 26 SCIM {offboarding} -> 401 in {timings['token_refused']:.3f} s, "
        f"-> stream closed in {timings['stream_closed']:.3f} s"
    )
    assert timings["stream_closed"] < CLOSE_WITHIN_SECONDS
