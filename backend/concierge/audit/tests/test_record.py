"""Issue 27, the audit trail: writing an event (the chain, the caller's transaction, no
secrets, never failing the caller)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test import RequestFactory

from concierge.audit import actions
from concierge.audit.models import AuditEvent
from concierge.audit.services import (
    audit_record,
    audit_record_for_request,
    audit_record_opening,
    audit_write_failures,
    chain_hash,
)

pytestmark = pytest.mark.django_db


def test_each_entry_chains_to_the_one_before(user):
    """issue 27 audit trail: each entry's hash is SHA-256 over its fields and the previous hash."""
    audit_record(action=actions.SIGN_IN_SUCCEEDED, actor=user, client_ip="192.0.2.1")
    audit_record(action=actions.PASSWORD_CHANGED, actor=user, details={"via": "account page"})
    first, second = AuditEvent.objects.order_by("id")
    assert first.previous_hash == ""
    assert second.previous_hash == first.hash
    assert first.hash == chain_hash(first) and second.hash == chain_hash(second)
    assert (second.actor_id, second.actor_role, second.details) == (
        user.pk,
        "member",
        {"via": "account page"},
    )


def test_secrets_and_message_text_never_kept(user):
    """issue 27 audit trail: details never hold a password, token, code or message text."""
    audit_record(
        action=actions.SIGN_IN_FAILED,
        actor=user,
        details={
            "password": "hunter2",
            "otp_code": "123456",
            "token": "t",
            "body": "private",
            "reason": "wrong password",
        },
    )
    assert AuditEvent.objects.get().details == {"reason": "wrong password"}


def test_an_event_of_work_rolled_back_does_not_stay(user):
    """issue 27 audit trail: the event is written in the caller's transaction."""
    with pytest.raises(RuntimeError), transaction.atomic():
        audit_record(action=actions.ROLE_CHANGED, actor=user)
        raise RuntimeError("the caller's work fails")
    assert not AuditEvent.objects.exists()


def test_a_failed_write_never_fails_the_caller(user, monkeypatch):
    """issue 27 audit trail: writing an event never fails the user's request; it is counted."""
    before = audit_write_failures.labels(action=actions.REPLY_SENT)._value.get()

    def broken_save(self, *args, **kwargs):
        raise RuntimeError("database trouble")

    monkeypatch.setattr(AuditEvent, "save", broken_save)
    with transaction.atomic():
        audit_record(action=actions.REPLY_SENT, actor=user)
        user.first_name = "Still"
        user.save()  # the caller's transaction is still usable
    user.refresh_from_db()
    assert user.first_name == "Still"
    assert audit_write_failures.labels(action=actions.REPLY_SENT)._value.get() == before + 1


def test_the_request_gives_actor_role_and_address(user):
    """issue 27 audit trail: who (id, role) and from where (client address)."""
    request = RequestFactory().get("/", REMOTE_ADDR="198.51.100.7")
    request.user = user
    audit_record_for_request(
        request, action=actions.REPORT_VIEWED, company_id=5, actor_role="company admin"
    )
    event = AuditEvent.objects.get()
    assert (event.actor_id, event.actor_role, event.client_ip, event.company_id) == (
        user.pk,
        "company admin",
        "198.51.100.7",
        5,
    )


def test_an_opening_is_written_once_per_window_not_per_poll(concierge):
    """issue 27 audit trail: one event per opening, not per poll."""
    request = RequestFactory().get("/")
    request.user = concierge
    opened = {"action": actions.THREAD_OPENED, "actor_role": "concierge"}
    by_attachment = {"action": actions.ATTACHMENT_OPENED, "actor_role": "concierge"}
    polls = [opened] * 3 + [
        {**by_attachment, "details": {"attachment_id": 1}},
        {**by_attachment, "details": {"attachment_id": 2}},
        {**by_attachment, "details": {"attachment_id": 2}},
    ]
    for poll in polls:
        audit_record_opening(request, target_type="request", target_id=7, **poll)
    openings = AuditEvent.objects.filter(action__in=actions.OPENINGS).order_by("id")
    assert list(openings.values_list("action", flat=True)) == [
        actions.THREAD_OPENED,
        actions.ATTACHMENT_OPENED,
        actions.ATTACHMENT_OPENED,
    ]


@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_keep_one_chain(user):
    """issue 27 audit trail: writers from several connections take turns on the chain."""
    import threading

    from django.db import connections

    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            for _ in range(5):
                audit_record(action=actions.SIGN_IN_SUCCEEDED, details={"n": n})
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    events = list(AuditEvent.objects.order_by("id"))
    assert len(events) == 20
    previous = ""
    for event in events:
        assert event.previous_hash == previous
        assert event.hash == chain_hash(event)
        previous = event.hash
    assert connection.vendor in ("postgresql", "sqlite")
