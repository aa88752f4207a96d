"""Issue #5 'Request view': the survey's question/answer pairs, the thread with attachments,
internal notes, assignee, and the employee's profile (companies, onboarding, contacts)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.accounts.services.onboarding import onboarding_answers_save
from concierge.concierge_desk import services as desk_services
from concierge.servicerequests import services
from concierge.uploads.tests.samples import png_bytes, upload_via_api

pytestmark = pytest.mark.django_db
# Opening a surveyed request (issue 30's desk request): the same number whatever the length
# of its thread and notes (the session, the request with its employee, companies and clock,
# the thread, the survey's answers, the profile, presence, the notes, the rating).
DESK_REQUEST_QUERIES = 13


def detail(api, request_id):
    response = api.get(f"concierge/requests/{request_id}")
    assert response.status_code == 200, response.content
    return response.json()["request"]


def test_survey_answers_as_question_and_answer_pairs(concierge_api, surveyed_request):
    body = detail(concierge_api, surveyed_request.pk)
    assert body["survey"]["name"] == "Find a dog walker"
    assert body["survey"]["answers"] == [
        {
            "question": "How big is your dog?",
            "answer": "Large (25 lb or more)",  # the option's label, not its value
            "skipped": False,
            "upload_key": None,
        },
        {
            "question": "When do you need walks?",
            "answer": "Weekdays at noon",
            "skipped": False,
            "upload_key": None,
        },
        {
            "question": "Anything else?",
            "answer": "Question Skipped",
            "skipped": True,
            "upload_key": None,
        },
    ]
    assert (body["survey_category_name"], body["survey_category_icon"]) == ("Pet", "pet")


def test_request_without_a_survey_has_none(concierge_api, user, make_request):
    assert detail(concierge_api, make_request(user).pk)["survey"] is None


def test_employee_profile_with_readable_onboarding_answers(
    concierge_api, user, globex, make_request
):
    user.companies.add(globex)
    onboarding_answers_save(
        user=user,
        answers=[
            {"answer_id": 132, "value": True},
            {"answer_id": 134, "value": False},
            {"answer_id": 122, "value": True},
            {"answer_id": 104, "value": "5551234567"},
            {"answer_id": 165, "value": "ada@home.example"},
            {"answer_id": 148, "value": "1 Analytical Way"},
            {"answer_id": 150, "value": "London"},
            {"answer_id": 151, "value": "LDN"},
            {"answer_id": 311, "value": "N1 1AA"},
            {"answer_id": 313, "value": "UK"},
        ],
    )
    employee = detail(concierge_api, make_request(user).pk)["employee"]
    assert employee["full_name"] == "Ada Lovelace"
    assert employee["email"] == "ada@example.com"
    assert [c["name"] for c in employee["companies"]] == ["Acme Corp", "Globex"]
    assert employee["phone"] == "(555) 123-4567"
    assert employee["preferred_email"] == "ada@home.example"
    assert employee["address"] == "1 Analytical Way, London, LDN, N1 1AA, UK"
    assert employee["request_count"] == 1
    assert [(a["answer_id"], a["label"], a["value"]) for a in employee["onboarding"]] == [
        (132, "Owns a home", "Yes"),
        (134, "Has a car", "No"),
        (122, "Has a pet", "Yes"),
        (104, "Phone", "(555) 123-4567"),
        (165, "Preferred email", "ada@home.example"),
        (148, "Address line 1", "1 Analytical Way"),
        (150, "City", "London"),
        (151, "State", "LDN"),
        (311, "Postal code", "N1 1AA"),
        (313, "Country", "UK"),
    ]


def test_thread_with_attachments_notes_and_assignee(
    signed_in_api, concierge_api, concierge, user, make_request
):
    service_request = make_request(user)
    key = upload_via_api(signed_in_api, "rex.png", png_bytes(), request_id=service_request.pk)
    services.message_create(
        request=service_request, author=user, body="Here is Rex", attachment_keys=[key]
    )
    services.concierge_reply_create(request=service_request, author=concierge, body="Cute!")
    desk_services.note_create(request=service_request, author=concierge, body="Allergic to cats")

    body = detail(concierge_api, service_request.pk)
    assert [(m["source"], m["source_name"], m["body_html"]) for m in body["messages"]] == [
        ("user", "Ada Lovelace", "Here is Rex"),
        ("life_concierge", "Casey from Concierge", "Cute!"),
    ]
    assert body["messages"][0]["attachments"] == [
        {"key": key, "filename": "rex.png", "content_type": "image/png", "size": len(png_bytes())}
    ]
    assert [(n["body"], n["author"]["full_name"]) for n in body["notes"]] == [
        ("Allergic to cats", "Casey Jones")
    ]
    assert body["assignee"] == {"id": concierge.pk, "full_name": "Casey Jones"}
    assert body["status"] == "in_progress"
    assert body["waiting_on"] == "employee"
    assert body["viewers"] == []  # nobody else has it open


def test_detail_query_count_does_not_grow_with_the_thread(
    concierge_api, concierge, user, make_request, surveyed_request
):
    def count():
        with CaptureQueriesContext(connection) as queries:
            detail(concierge_api, surveyed_request.pk)
        return len(queries)

    services.message_create(request=surveyed_request, author=user, body="One")
    desk_services.note_create(request=surveyed_request, author=concierge, body="Note")
    detail(concierge_api, surveyed_request.pk)  # the first opening writes its audit events
    few = count()
    for n in range(8):
        services.message_create(request=surveyed_request, author=user, body=f"More {n}")
        desk_services.note_create(request=surveyed_request, author=concierge, body=f"Note {n}")
    assert count() == few == DESK_REQUEST_QUERIES


def test_concierges_list_for_the_assign_menu(concierge_api, concierge, other_concierge, user):
    response = concierge_api.get("concierge/concierges")
    assert response.status_code == 200
    assert response.json()["concierges"] == [
        {"id": concierge.pk, "full_name": "Casey Jones", "email": "casey@example.com"},
        {"id": other_concierge.pk, "full_name": "Dana Reyes", "email": "dana@example.com"},
    ]


def test_thread_shows_which_message_reopened_the_request(concierge_api, user, make_request):
    """Issue 10 'the concierge sees why it reopened': the employee's 'Reopen and send'
    message is marked `reopened_request` in the desk's thread; the status is In Queue."""
    from concierge.servicerequests.models import ServiceRequest

    service_request = make_request(user, status=ServiceRequest.Status.CLOSED)
    services.message_create(
        request=service_request, author=user, body="One more thing, please", reopen=True
    )
    body = detail(concierge_api, service_request.pk)
    assert body["status"] == "open"
    assert [(m["body_html"], m["reopened_request"]) for m in body["messages"]] == [
        ("One more thing, please", True)
    ]
