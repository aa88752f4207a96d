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


def test_a_failed_write_never_fails_the_caller(user):
    """issue 27 audit trail: writing an event never fails the user's request; it is counted.
    The event's INSERT fails in the database itself (a query of a missing table in its place),
    which on PostgreSQL aborts the transaction up to the event's savepoint."""
    before = audit_write_failures.labels(action=actions.REPLY_SENT)._value.get()

    def failing_insert(execute, sql, params, many, context):
        if sql.startswith(f"INSERT INTO {connection.ops.quote_name(AuditEvent._meta.db_table)}"):
            return execute("SELECT * FROM no_such_table", None, many, context)
        return execute(sql, params, many, context)

    with transaction.atomic():
        with connection.execute_wrapper(failing_insert):
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


@pytest.mark.django_db(transaction=True)
def test_a_sign_in_and_a_reply_to_the_same_employee_do_not_deadlock_on_the_chain(
    user, make_request
):
    """Issue 30 soak: a concierge's reply (its message names the employee's request and
    account, checked by PostgreSQL at commit) and the employee's sign-in (their account row
    locked, then an audit event) both commit with their audit events. The chain's lock was
    taken before the reply's commit-time checks: the sign-in held the account and waited for
    the chain, the reply held the chain and waited for the account, and PostgreSQL broke the
    deadlock after a second by failing one of them (the soak saw 500s on replies)."""
    import threading
    import time

    from django.db import connections

    from concierge.accounts.services.identity import user_sign_in
    from concierge.servicerequests.models import Message
    from conftest import DEFAULT_PASSWORD

    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time: nothing to deadlock")
    service_request = make_request(user)
    reply_audited = threading.Event()
    errors: list[BaseException] = []

    def reply() -> None:
        try:
            with transaction.atomic():
                Message.objects.create(
                    request=service_request, author=user, source="user", body_html="<p>Hi</p>"
                )
                audit_record(action=actions.REPLY_SENT, details={"n": 1})
                reply_audited.set()
                time.sleep(1)  # the sign-in meanwhile locks the account, then audits
        except BaseException as error:
            errors.append(error)
        finally:
            reply_audited.set()
            connections.close_all()

    def sign_in() -> None:
        try:
            reply_audited.wait(10)
            user_sign_in(email=user.email, password=DEFAULT_PASSWORD)
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=reply), threading.Thread(target=sign_in)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Message.objects.filter(request=service_request, body_html="<p>Hi</p>").count() == 1
    written = set(AuditEvent.objects.values_list("action", flat=True))
    assert {actions.REPLY_SENT, actions.SIGN_IN_SUCCEEDED} <= written


def test_every_deferrable_constraint_is_initially_deferred():
    """Issue 30 soak: the chain's lock checks the caller's pending foreign keys and then sets
    every deferrable constraint back to deferred (`SET CONSTRAINTS ALL DEFERRED`), which is
    how each starts only while none is DEFERRABLE INITIALLY IMMEDIATE."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no SET CONSTRAINTS")
    with connection.cursor() as cursor:
        cursor.execute("SELECT conname FROM pg_constraint WHERE condeferrable AND NOT condeferred")
        assert cursor.fetchall() == []
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_constraint WHERE condeferrable AND condeferred")
        assert cursor.fetchone()[0] > 10  # Django's foreign keys
