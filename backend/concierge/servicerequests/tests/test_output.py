"""API speed 'Serialisation': the request lists and the thread are built from plain values
(no schema getter per attribute) with the shapes the OpenAPI document declares, in a fixed
number of queries whatever their length."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q

from concierge.common.errors import NotFound
from concierge.servicerequests import services
from concierge.servicerequests.models import ServiceRequest
from concierge.servicerequests.schemas import (
    MessageOut,
    RequestDetailOut,
    RequestListItemOut,
    RequestListOut,
)
from concierge.surveys.models import SurveyCategory
from concierge.uploads.tests.samples import pdf_bytes, upload_via_api

pytestmark = pytest.mark.django_db

# Authentication (1) + the list (1).
LIST_QUERIES = 2
# Authentication (1) + request with its category and clock and, on PostgreSQL, the newest
# messages with their attachments (1; elsewhere 1 more) + recording the unseen reply as seen (1).
THREAD_QUERIES = {"postgresql": 3, "sqlite": 4}
# An employee's message while the request waits on the concierge: authentication (1), their
# request with its category and clock (1), in a savepoint (2: the test's own transaction) the
# request's row locked (1), the message (1), the request's times (1), the clock locked (1),
# then the thread's newest page (1). The clock runs already, so nothing more is written.
MESSAGE_QUERIES = 9
# Reopening a Completed request also restarts its clock: the promise's holidays and the clock.
REOPENING_QUERIES = MESSAGE_QUERIES + 2
API_DATETIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$")


@pytest.fixture
def thread(signed_in_api, user, make_request):
    category = SurveyCategory.objects.create(name="Home", icon="home")
    service_request = make_request(user, name="Find a plumber", survey_category_id=category.pk)
    for index in range(3):
        key = upload_via_api(signed_in_api, f"scan-{index}.pdf", pdf_bytes(), service_request.pk)
        services.message_create(
            request=service_request, author=user, body=f"msg {index}", attachment_keys=[key]
        )
        services.message_create(request=service_request, author=None, body=f"reply {index}")
    return service_request


def _datetimes(body: dict) -> list[str]:
    found = []
    for key, value in body.items():
        if key.endswith("_at") and value is not None:
            found.append(value)
    return found


def test_list_has_the_declared_shape_and_a_fixed_query_count(
    signed_in_api, user, make_request, thread, django_assert_num_queries
):
    """API speed 3: GET /requests/open validates as RequestListOut, field for field (what the
    list shows: no details, no thread), in 2 queries whatever the number of rows."""
    for index in range(10):
        make_request(user, name=f"Errand {index}")
    with django_assert_num_queries(LIST_QUERIES):
        response = signed_in_api.get("requests/open")
    body = response.json()
    assert response["Content-Type"] == "application/json"
    assert len(body["requests"]) == 11
    RequestListOut.model_validate(body)
    for row in body["requests"]:
        assert set(row) == set(RequestListItemOut.model_fields)
        assert "details" not in row
        assert all(API_DATETIME.match(value) for value in _datetimes(row))
    planned = next(r for r in body["requests"] if r["id"] == thread.pk)
    assert planned["survey_category_name"] == "Home"
    assert planned["external_id"] == str(thread.external_id)
    # The thread's replies came after the employee's last message: not seen yet.
    assert [r["id"] for r in body["requests"] if r["unread"]] == [thread.pk]


def test_thread_has_the_declared_shape_and_a_fixed_query_count(
    signed_in_api, thread, django_assert_num_queries
):
    """API speed 3: GET /requests/{id} validates as RequestDetailOut in 3 queries (4 on
    SQLite), with attachments; datetimes are written as everywhere else in the API (ms, 'Z')."""
    with django_assert_num_queries(THREAD_QUERIES[connection.vendor]):
        response = signed_in_api.get(f"requests/{thread.pk}")
    body = response.json()
    RequestDetailOut.model_validate(body)
    messages = body["request"]["messages"]
    assert len(messages) == 6
    for message in messages:
        assert set(message) == set(MessageOut.model_fields)
        assert API_DATETIME.match(message["external_created_at"])
    with_files = [m for m in messages if m["attachments"]]
    assert len(with_files) == 3
    assert with_files[0]["attachment_keys"] == [with_files[0]["attachments"][0]["key"]]
    assert with_files[0]["attachments"][0]["filename"] == "scan-0.pdf"
    stored = thread.messages.order_by("external_created_at", "id").first()
    assert messages[0]["external_created_at"] == DjangoJSONEncoder().default(
        stored.external_created_at
    )


def test_reply_answer_has_the_thread_shape(signed_in_api, thread):
    """The 201 answer of a new message is the same thread shape (RequestDetailOut)."""
    response = signed_in_api.post(f"requests/{thread.pk}/messages", {"message": {"body": "Hi"}})
    assert response.status_code == 201
    body = response.json()
    RequestDetailOut.model_validate(body)
    assert body["request"]["messages"][-1]["body_html"] == "Hi"


@pytest.mark.parametrize("microsecond", [0, 500, 123_999, 999_999])
def test_list_times_are_written_as_the_api_writes_them(
    signed_in_api, user, make_request, microsecond
):
    """The list's times, written by the database, are the API's JSON encoder's text to the
    character: milliseconds cut (not rounded), none when they are zero, 'Z'."""
    issued_at = datetime(2026, 3, 4, 5, 6, 7, microsecond, tzinfo=UTC)
    service_request = make_request(user, name="Timed")
    ServiceRequest.objects.filter(pk=service_request.pk).update(
        issued_at=issued_at, created_at=issued_at, last_message_at=None
    )
    row = signed_in_api.get("requests/open").json()["requests"][0]
    expected = DjangoJSONEncoder().default(issued_at)
    assert (row["issued_at"], row["created_at"], row["last_message_at"]) == (
        expected,
        expected,
        None,
    )
    assert row["external_id"] == str(service_request.external_id)


def test_one_request_reads_as_the_orm_does(
    user, other_user, make_request, django_assert_num_queries
):
    """Issue 30: the request's SQL is written by hand; the request, its category and its
    clock equal the ORM's field for field (one query), and no clock reads as none."""
    from concierge.service_levels.models import RequestClock
    from concierge.servicerequests.selectors import request_get_for_user

    category = SurveyCategory.objects.create(name="Home", icon="home")
    service_request = make_request(user, name="Find a plumber", survey_category_id=category.pk)
    RequestClock.objects.create(
        request=service_request,
        first_response_due_at=datetime(2026, 3, 4, 5, 6, 7, 123_456, tzinfo=UTC),
        resolution_minutes=60,
    )
    with django_assert_num_queries(1):
        read = request_get_for_user(user=user, request_id=service_request.pk)
        clock, read_category = read.reply_clock, read.survey_category
    stored = ServiceRequest.objects.select_related("survey_category", "reply_clock").get(
        pk=service_request.pk
    )
    pairs = ((read, stored), (read_category, stored.survey_category), (clock, stored.reply_clock))
    for mine, orms in pairs:
        for field in type(mine)._meta.concrete_fields:
            value, expected = getattr(mine, field.attname), getattr(orms, field.attname)
            assert (value, type(value)) == (expected, type(expected)), field.name
    bare = make_request(user, name="No clock")
    with django_assert_num_queries(1):
        read = request_get_for_user(user=user, request_id=bare.pk)
        assert read.survey_category is None
        with pytest.raises(RequestClock.DoesNotExist):
            read.reply_clock  # noqa: B018 (the cached absence)
    with pytest.raises(NotFound):
        request_get_for_user(user=other_user, request_id=bare.pk)
    with pytest.raises(NotFound):
        request_get_for_user(user=user, request_id=2**63)


def test_list_rows_read_as_the_orm_does(user, other_user, concierge, make_request):
    """The list's SQL is written by hand; each row equals the ORM's reading of the request,
    field for field and type for type, its `unread` mark included (a concierge's reply newer
    than the employee's last look at the thread, asked here of the messages the other way
    round), in every status, with and without a category, a picture or messages."""
    from concierge.servicerequests.models import Message
    from concierge.servicerequests.selectors import LIST_STATUSES, request_list_for_user

    encoder = DjangoJSONEncoder()
    home = SurveyCategory.objects.create(name="Home", icon="home", image="categories/home.png")
    plain = SurveyCategory.objects.create(name="Errands", icon="wildcard")
    cases = {
        "no message": [],
        "the employee's messages only": ["employee", "employee"],
        "a reply never opened": ["reply"],
        "replies, then opened": ["reply", "reply", "open"],
        "a reply, then the employee wrote": ["reply", "employee"],
        "opened, then a reply": ["open", "reply"],
    }
    for status in ("open", "in_progress", "closed"):
        for index, (name, steps) in enumerate(cases.items()):
            category = (home, plain, None)[index % 3]
            errand = make_request(
                user,
                name=f"{name} ({status})",
                survey_category_id=category.pk if category else None,
            )
            for step in steps:
                if step == "reply":
                    services.concierge_reply_create(request=errand, author=concierge, body="On it")
                elif step == "employee":
                    services.message_create(request=errand, author=user, body="Thanks")
                else:
                    errand.refresh_from_db()
                    services.request_mark_seen_by_employee(request=errand)
            ServiceRequest.objects.filter(pk=errand.pk).update(status=status)
    theirs = make_request(other_user, name="Someone else's")
    services.concierge_reply_create(request=theirs, author=concierge, body="Not yours")

    unseen_reply = (
        Message.objects.filter(request=OuterRef("pk"))
        .exclude(source=Message.Source.USER)
        .filter(
            Q(request__seen_by_employee_at__isnull=True)
            | Q(external_created_at__gt=F("request__seen_by_employee_at"))
        )
    )
    marked = []
    for status in LIST_STATUSES.values():
        rows = request_list_for_user(user=user, status=status)
        expected = (
            ServiceRequest.objects.filter(user=user, status=status)
            .select_related("survey_category")
            .annotate(unread=Exists(unseen_reply))
            .order_by("-issued_at", "-id")
        )
        assert len(rows) == len(cases)
        for row, orm in zip(rows, expected, strict=True):
            category = orm.survey_category
            wanted = {
                "id": orm.pk,
                "external_id": str(orm.external_id),
                "name": orm.name,
                "status": orm.status,
                "issued_at": encoder.default(orm.issued_at),
                "created_at": encoder.default(orm.created_at),
                "category_id": category.pk if category else None,
                "category_name": category.name if category else None,
                "category_image": category.image.name if category else None,
                "category_icon": category.icon if category else None,
                "last_message_at": (
                    encoder.default(orm.last_message_at) if orm.last_message_at else None
                ),
                "unread": orm.unread,
            }
            assert row._asdict() == wanted, orm.name
            assert [type(v) for v in row] == [type(v) for v in wanted.values()], orm.name
            if row.unread:
                marked.append(orm.name)
    assert sorted(marked) == sorted(
        f"{name} ({status})"
        for name in ("a reply never opened", "opened, then a reply")
        for status in ("open", "in_progress", "closed")
    )


@pytest.mark.parametrize(
    ("completed", "queries"),
    [(False, MESSAGE_QUERIES), (True, REOPENING_QUERIES)],
    ids=["in-queue", "reopened"],
)
def test_issue_30_a_message_answers_the_thread_as_it_then_reads_in_a_fixed_query_count(
    signed_in_api,
    user,
    round_the_clock_promise,
    make_request,
    django_assert_num_queries,
    completed,
    queries,
):
    """Issue 30 'fast for a real day' (and spec §9's send): an employee's message answers the
    request with its thread as GET then shows it, status, times and the promised reply time
    included (also when the message reopens a Completed request), in MESSAGE_QUERIES queries:
    the answer is built from the message's own writes, not read again."""
    service_request = make_request(user)
    if completed:
        services.request_status_change(request=service_request, action="complete")
    url = f"requests/{service_request.pk}/messages"
    body = {"message": {"body": "Thursday works"}, "reopen": completed}
    with django_assert_num_queries(queries):
        response = signed_in_api.post(url, body)
    assert response.status_code == 201, response.content
    answered = response.json()["request"]
    shown = signed_in_api.get(f"requests/{service_request.pk}").json()["request"]
    assert answered == shown
    assert answered["status"] == "open"
    assert answered["expect_reply_by"] is not None
    assert answered["messages"][-1]["body_html"] == "Thursday works"


def test_issue_30_the_thread_read_in_one_query_is_the_two_reads_it_replaces(
    signed_in_api, user, make_request, thread, other_user
):
    """Issue 30: on PostgreSQL the thread's request and its newest page come in one query; it
    reads what `request_get_for_user` and `thread_page` read apart (attachments in their order,
    times as the API writes them, the cursor past 50 messages), and another person's request is
    a 404 either way."""
    from concierge.servicerequests import selectors
    from concierge.servicerequests.models import MessageAttachment
    from concierge.servicerequests.tests.threads import seed_long_thread
    from concierge.uploads.models import Upload

    second = upload_via_api(signed_in_api, "second.pdf", pdf_bytes(), thread.pk)
    first = upload_via_api(signed_in_api, "first.pdf", pdf_bytes(), thread.pk)
    message = services.message_create(
        request=thread, author=user, body="two files <b>&</b> ü", attachment_keys=[first]
    )
    # A concierge's message may carry several: the second one made first, listed second.
    message.attachment_links.update(position=1)
    MessageAttachment.objects.create(
        message=message, upload=Upload.objects.get(key=second), position=0
    )
    long_request = make_request(user, name="Long")
    seed_long_thread(long_request, employee=user, count=55)

    for service_request in (thread, long_request):
        read, page = selectors.request_thread_for_user(user=user, request_id=service_request.pk)
        apart = selectors.request_get_for_user(user=user, request_id=service_request.pk)
        assert page == selectors.thread_page(request_id=service_request.pk)
        assert {
            f.attname: getattr(read, f.attname) for f in ServiceRequest._meta.concrete_fields
        } == {f.attname: getattr(apart, f.attname) for f in ServiceRequest._meta.concrete_fields}
        assert read.survey_category == apart.survey_category
        assert getattr(read, "reply_clock", None) == getattr(apart, "reply_clock", None)
    assert [a.filename for a in page.messages[-1].attachments] == []
    files = selectors.request_thread_for_user(user=user, request_id=thread.pk)[1].messages[-1]
    assert [a.filename for a in files.attachments] == ["second.pdf", "first.pdf"]
    assert page.older_cursor is not None and len(page.messages) == 50

    with pytest.raises(NotFound):
        selectors.request_thread_for_user(user=other_user, request_id=thread.pk)
