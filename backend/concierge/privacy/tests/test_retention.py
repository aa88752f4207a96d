"""Issue 27 retention windows: per company, off by default; completed requests older than the
window lose their content (messages, attachments in storage, answers, notes, rating comment)
in the daily job, which records 'retention.run'; the employee's request page says when. With
a frozen clock (freezegun)."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.management import call_command
from freezegun import freeze_time

from concierge.audit.models import AuditEvent
from concierge.concierge_desk.models import InternalNote
from concierge.privacy.models import RetentionPolicy
from concierge.satisfaction.selectors import rating_for_request
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.surveys.models import UserRequestAnswer
from concierge.uploads.models import Upload

pytestmark = pytest.mark.django_db

COMPLETED = datetime(2027, 2, 10, 15, 0, tzinfo=UTC)


def _run_daily_jobs_at(moment: str) -> str:
    out = io.StringIO()
    with freeze_time(moment):
        call_command("daily_jobs", stdout=out)
    return out.getvalue()


@pytest.fixture
def completed(person_data):
    ServiceRequest.objects.filter(pk=person_data.request.pk).update(completed_at=COMPLETED)
    return person_data


def test_issue27_retention_erases_completed_requests_after_the_window(
    signed_in_api, company, completed, make_request, user, settings,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    RetentionPolicy.objects.create(company=company, erase_completed_after_days=30)
    still_open = make_request(user, name="Book a plumber")
    signed_in_api.post(f"requests/{still_open.pk}/messages", {"message": {"body": "Tuesday?"}})
    request_id = completed.request.pk

    shown = signed_in_api.get(f"requests/{request_id}/retention").json()
    assert shown == {"erase_on": "2027-03-12", "erased": False}
    assert signed_in_api.get(f"requests/{still_open.pk}/retention").json()["erase_on"] is None

    out = _run_daily_jobs_at("2027-03-12 14:59")  # not yet 30 days
    assert "Retention: erased 0 requests" in out
    assert not Message.objects.filter(request_id=request_id, body_html="<p>(erased)</p>").exists()

    with django_capture_on_commit_callbacks(execute=True):
        out = _run_daily_jobs_at("2027-03-13 03:00")
    assert "Retention: erased 1 requests of 1 companies" in out
    bodies = set(Message.objects.filter(request_id=request_id).values_list("body_html", flat=True))
    assert bodies == {"<p>(erased)</p>"}  # both sides of the thread
    assert not Upload.objects.filter(key__in=completed.attachment_keys).exists()
    media = Path(settings.MEDIA_ROOT)
    assert not [p for p in media.rglob("*") if p.is_file()]  # the files are gone from storage
    assert not UserRequestAnswer.objects.filter(
        user_request_survey__service_request_id=request_id
    ).exists()
    assert not InternalNote.objects.filter(request_id=request_id).exists()
    rating = rating_for_request(request_id=request_id)
    assert rating is not None
    assert (rating.score, rating.comment) == (5, "")  # the score stays for the averages
    request = ServiceRequest.objects.get(pk=request_id)
    assert (request.status, request.name) == ("closed", "Find a dog walker")
    assert Message.objects.get(request=still_open).body_html != "<p>(erased)</p>"
    assert signed_in_api.get(f"requests/{request_id}/retention").json() == {
        "erase_on": None,
        "erased": True,
    }
    event = AuditEvent.objects.filter(action="retention.run").latest("id")
    assert event.details["requests"] == 1

    out = _run_daily_jobs_at("2027-03-14 03:00")  # once only
    assert "Retention: erased 0 requests" in out


def test_issue27_retention_is_off_by_default(signed_in_api, completed):
    request_id = completed.request.pk
    assert signed_in_api.get(f"requests/{request_id}/retention").json() == {
        "erase_on": None,
        "erased": False,
    }
    out = _run_daily_jobs_at("2030-01-01 03:00")
    assert "Retention: erased 0 requests" in out
    assert AuditEvent.objects.filter(action="retention.run").count() == 1
    assert not Message.objects.filter(body_html="<p>(erased)</p>").exists()


def test_issue27_retention_date_is_only_for_the_owner(make_api, user_factory, completed):
    other = make_api()
    user_factory(email="bob@example.com", first_name="Bob")
    assert other.sign_in("bob@example.com").status_code == 200
    assert other.get(f"requests/{completed.request.pk}/retention").status_code == 404
    assert other.get("requests/99999999999999999999/retention").status_code in (404, 422)
