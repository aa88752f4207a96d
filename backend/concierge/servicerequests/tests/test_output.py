"""API speed 'Serialisation': the request lists and the thread are built from plain values
(no schema getter per attribute) with the shapes the OpenAPI document declares, in a fixed
number of queries whatever their length."""

from __future__ import annotations

import re

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from concierge.servicerequests import services
from concierge.servicerequests.schemas import (
    MessageOut,
    RequestDetailOut,
    RequestListOut,
    RequestOut,
)
from concierge.surveys.models import SurveyCategory
from concierge.uploads.tests.samples import pdf_bytes, upload_via_api

pytestmark = pytest.mark.django_db

# Authentication (1) + the list (1).
LIST_QUERIES = 2
# Authentication (1) + request (1) + messages (1) + attachments (1) + recording the unseen
# reply as seen (1).
THREAD_QUERIES = 5
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
    """API speed 3: GET /requests/open validates as RequestListOut, field for field, in 2
    queries whatever the number of rows."""
    for index in range(10):
        make_request(user, name=f"Errand {index}")
    with django_assert_num_queries(LIST_QUERIES):
        response = signed_in_api.get("requests/open")
    body = response.json()
    assert response["Content-Type"] == "application/json"
    assert len(body["requests"]) == 11
    RequestListOut.model_validate(body)
    for row in body["requests"]:
        assert set(row) == set(RequestOut.model_fields)
        assert row["messages"] == []
        assert all(API_DATETIME.match(value) for value in _datetimes(row))
    planned = next(r for r in body["requests"] if r["id"] == thread.pk)
    assert planned["survey_category_name"] == "Home"
    assert planned["external_id"] == str(thread.external_id)


def test_thread_has_the_declared_shape_and_a_fixed_query_count(
    signed_in_api, thread, django_assert_num_queries
):
    """API speed 3: GET /requests/{id} validates as RequestDetailOut in 5 queries, with
    attachments; datetimes are written as everywhere else in the API (ms, 'Z')."""
    with django_assert_num_queries(THREAD_QUERIES):
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
