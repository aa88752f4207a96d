"""Issue 30 'fast for a real day': the hottest writes' SQL is written once from the models'
metadata (`common.sql_rows`); what it writes and reads equals what the ORM writes and reads,
on SQLite and PostgreSQL alike."""

from __future__ import annotations

import pytest
from django.db.models.signals import post_save
from django.utils import timezone

from concierge.common.sql_rows import ModelInsert
from concierge.service_levels import services as reply_clock
from concierge.service_levels.models import RequestClock
from concierge.servicerequests.models import Message

pytestmark = pytest.mark.django_db


def _fields(instance: object) -> dict[str, object]:
    return {
        f.attname: (getattr(instance, f.attname), type(getattr(instance, f.attname)))
        for f in type(instance)._meta.concrete_fields  # type: ignore[attr-defined]
    }


def test_issue_30_model_insert_writes_what_the_orm_writes(user, make_request):
    """A message inserted by `ModelInsert` reads back, field for field and type for type,
    as one the ORM created with the same values, and the instance has its new id."""
    service_request = make_request(user)
    values = {
        "request": service_request,
        "author": user,
        "source": Message.Source.USER,
        "source_name": "Jane Doe",
        "body_html": "Thursday works",
        "external_created_at": timezone.now(),
        "idempotency_key": "key-1",
        "by_email": True,
    }
    inserted = ModelInsert(Message).save(Message(**values))
    assert inserted.pk is not None and inserted._state.adding is False
    created = Message.objects.create(**{**values, "idempotency_key": "key-2"})
    mine = _fields(Message.objects.get(pk=inserted.pk))
    orms = _fields(Message.objects.get(pk=created.pk))
    assert mine.pop("id") != orms.pop("id")
    assert mine.pop("idempotency_key")[0] == "key-1"
    orms.pop("idempotency_key")
    assert mine == orms


def test_issue_30_model_insert_leaves_a_model_with_save_signals_to_the_orm(user, make_request):
    """A model with a save receiver is saved by the ORM, so the receiver still runs."""
    service_request = make_request(user)
    seen: list[int] = []

    def receiver(sender: type, instance: Message, created: bool, **kwargs: object) -> None:
        seen.append(instance.pk)

    post_save.connect(receiver, sender=Message, dispatch_uid="test_model_insert")
    try:
        message = ModelInsert(Message).save(
            Message(request=service_request, author=user, body_html="Hello")
        )
    finally:
        post_save.disconnect(dispatch_uid="test_model_insert", sender=Message)
    assert seen == [message.pk]


def test_issue_30_the_clock_is_read_for_its_move_as_the_orm_reads_it(
    round_the_clock_promise, user, make_request
):
    """The clock a message moves is read by hand-written SQL (with its promise); it equals the
    ORM's clock and promise, field for field."""
    service_request = make_request(user)
    clock = reply_clock.clock_on_message(
        request_id=service_request.pk, from_employee=False, at=timezone.now()
    )
    assert clock is not None and clock.service_level is not None
    stored = RequestClock.objects.select_related("service_level").get(request=service_request)
    assert _fields(clock) == _fields(stored)
    assert _fields(clock.service_level) == _fields(stored.service_level)
    assert clock.first_responded_at is not None and clock.running_since is None
