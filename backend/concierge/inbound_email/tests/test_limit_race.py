"""Email QA: the reply-by-email limit counts only the emails taken into threads, and emails of
one employee arriving at the same moment cannot both take its last place (nor both be refused
for it)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from concierge.inbound_email import services
from concierge.inbound_email.models import InboundEmail
from concierge.inbound_email.tests.conftest import reply_email
from concierge.servicerequests.models import Message

ROUNDS = 4
WEBHOOK = InboundEmail.Path.WEBHOOK
SENDERS = 4


def _receive_all_at_once(raws: list[bytes], monkeypatch) -> list[str]:
    """Each email in its own thread; all have passed the limit's first look (before their
    files are stored) before any goes on to be accepted."""
    barrier = threading.Barrier(len(raws))
    store = services._attachment_store

    def store_together(**kwargs):
        barrier.wait(timeout=10)
        return store(**kwargs)

    outcomes: list[str] = []

    def receive(raw: bytes) -> None:
        try:
            result = services.inbound_email_receive(raw, path=WEBHOOK)
            outcomes.append(result.reason or result.outcome)
        finally:
            connections.close_all()

    with monkeypatch.context() as patched:
        patched.setattr(services, "_attachment_store", store_together)
        threads = [threading.Thread(target=receive, args=(raw,)) for raw in raws]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the advisory lock is PostgreSQL's; SQLite serialises"
)
def test_emails_at_once_on_postgresql_take_only_the_places_left(
    user, reply_to, settings, monkeypatch
):
    """Email QA: with one place left under the limit, four emails of the employee's arriving
    at once: exactly one is taken into the thread, the others are refused as rate limited;
    every round, so nothing is counted twice or lost."""
    settings.RATE_LIMITS = {"inbound_email": (2, 3600)}
    service_request, address = reply_to
    for _ in range(ROUNDS):
        InboundEmail.objects.all().delete()
        first = reply_email(to=address, sender=user.email)
        assert services.inbound_email_receive(first, path=WEBHOOK).outcome == "accepted"
        raws = [reply_email(to=address, sender=user.email) for _ in range(SENDERS)]

        outcomes = _receive_all_at_once(raws, monkeypatch)

        assert sorted(outcomes) == ["accepted"] + ["rate_limited"] * (SENDERS - 1), outcomes
        assert InboundEmail.objects.filter(outcome="accepted").count() == 2
    assert Message.objects.filter(request=service_request).count() == ROUNDS * 2
