"""Hardening 4: two concierges claiming one request at the same moment: exactly one wins."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from concierge.common.errors import ApiError
from concierge.servicerequests import services
from concierge.servicerequests.models import ServiceRequest

ROUNDS = 6
CLAIMERS = 4


def _claim_all_at_once(service_request: ServiceRequest, concierges: list) -> list[str]:
    barrier = threading.Barrier(len(concierges))
    outcomes: list[str] = []

    def claim(concierge) -> None:
        try:
            barrier.wait()
            services.request_claim(
                request=ServiceRequest.objects.get(pk=service_request.pk), concierge=concierge
            )
            outcomes.append("won")
        except ApiError as exc:
            outcomes.append(f"refused {exc.status_code}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=claim, args=(c,)) for c in concierges]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks are PostgreSQL's; SQLite serialises writes"
)
def test_hardening_4_concierges_claiming_at_once_on_postgresql_one_wins(user, user_factory):
    """Hardening 4: two concierges claim at once on PostgreSQL, one wins (the others 409)"""
    concierges = [
        user_factory(email=f"claimer{i}@example.com", first_name=f"C{i}", groups=["Concierges"])
        for i in range(CLAIMERS)
    ]
    for _ in range(ROUNDS):
        service_request = services.request_create(user=user, name="Find a dog walker")
        outcomes = _claim_all_at_once(service_request, concierges)

        assert sorted(outcomes) == ["refused 409"] * (CLAIMERS - 1) + ["won"], outcomes
        service_request.refresh_from_db()
        assert service_request.assignee_id in {c.pk for c in concierges}
