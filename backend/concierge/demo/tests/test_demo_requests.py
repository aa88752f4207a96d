"""The demo's requests: after `make run` the desk, the reply-time badges, search, the
satisfaction averages and the company report all have something to show."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from concierge.accounts.models import Company, User
from concierge.company_reports.selectors import company_report
from concierge.concierge_desk.models import InternalNote
from concierge.concierge_desk.search import request_search
from concierge.demo.request_history import request_plans
from concierge.demo.tests.seeding import PASSWORD, seed
from concierge.satisfaction.models import Rating
from concierge.satisfaction.selectors import rating_summary
from concierge.service_levels.models import RequestClock
from concierge.service_levels.selectors import sla_view
from concierge.servicerequests.models import Message, MessageAttachment, ServiceRequest
from concierge.servicerequests.selectors import request_queue
from concierge.surveys.models import UserRequestAnswer
from concierge.uploads.models import Upload
from concierge.uploads.storage import object_open

pytestmark = pytest.mark.django_db

Status = ServiceRequest.Status
Source = Message.Source


def demo_requests():
    return ServiceRequest.objects.filter(user__email__in=["demo@example.com", "hr@example.com"])


def state(service_request: ServiceRequest) -> str | None:
    clock = RequestClock.objects.filter(request=service_request).first()
    view = sla_view(clock)
    return view.state if view else None


def test_demo_a_request_just_made_waits_in_the_queue_on_time(seeded):
    """demo: a request just made waits in the queue, within its reply-by time."""
    queued = demo_requests().filter(status=Status.OPEN, assignee__isnull=True)
    fresh = [r for r in queued if state(r) in ("on_track", "due_soon")]
    assert fresh, "a queued request on time"
    assert not fresh[0].messages.exists()


def test_demo_an_overdue_request_is_past_its_reply_by_time(seeded):
    """demo: a queued request is overdue: its first reply's deadline has passed."""
    overdue = [r for r in demo_requests().filter(status=Status.OPEN) if state(r) == "overdue"]
    assert overdue
    clock = RequestClock.objects.get(request=overdue[0])
    assert clock.first_responded_at is None and clock.due_at < timezone.now()


def test_demo_requests_in_progress_wait_on_the_employee_or_the_concierge(seeded):
    """demo: requests in progress, one waiting on the employee (clock paused) and one on the
    concierge (clock running)."""
    in_progress = demo_requests().filter(status=Status.IN_PROGRESS)
    last_sources = {
        r.pk: r.messages.order_by("external_created_at").last().source for r in in_progress
    }
    assert Source.USER in last_sources.values()
    assert any(source != Source.USER for source in last_sources.values())
    paused = [r for r in in_progress if last_sources[r.pk] != Source.USER]
    assert all(state(r) == "paused" for r in paused)
    assert all(r.assignee.email == "concierge@example.com" for r in in_progress)


def test_demo_a_completed_request_is_not_rated_yet(seeded):
    """demo: a completed request the employee has not rated."""
    unrated = demo_requests().filter(status=Status.CLOSED, rating__isnull=True)
    assert unrated.exists()
    assert all(r.completed_at is not None and state(r) == "completed" for r in unrated)


def test_demo_a_rated_completed_request_is_in_the_company_report(seeded):
    """demo: Dana's rated completed requests count in the company report's satisfaction of
    the months they were rated in."""
    ratings = Rating.objects.filter(request__user__email="demo@example.com")
    assert ratings.exists()
    for rating in ratings:
        assert rating.request.status == Status.CLOSED
        assert rating.company.slug == "acme" and rating.concierge.email == "concierge@example.com"
    report = company_report(company=Company.objects.get(slug="acme"), months=6)
    rated_months = {m.month for m in report if m.csat_average is not None}
    assert {r.created_at.strftime("%Y-%m") for r in ratings} & rated_months


def test_demo_a_request_reopened_by_the_employee_was_completed_again_and_rated(seeded):
    """demo: the employee's message reopened a completed request, which was completed again."""
    reopening = Message.objects.get(reopened_request=True, request__user__email="demo@example.com")
    service_request = reopening.request
    assert service_request.status == Status.CLOSED
    assert service_request.completed_at > reopening.external_created_at
    assert Rating.objects.filter(request=service_request).exists()


def test_demo_the_company_report_shows_the_demo_company_figures_over_months(seeded):
    """demo: the company report has months of figures for Acme, none withheld as too few."""
    report = company_report(company=Company.objects.get(slug="acme"), months=6)
    complete = [
        month
        for month in report
        if None
        not in (
            month.requests_created,
            month.requests_completed,
            month.median_first_response_hours,
            month.median_completion_hours,
            month.csat_average,
            month.usage_share,
        )
    ]
    assert len(complete) >= 2
    assert any(month.top_categories for month in report)


def test_demo_the_desk_queue_shows_the_demo_requests_with_an_overdue_one(seeded):
    """demo: the desk's queue lists the requests of every state; the overdue filter has one."""
    casey = User.objects.get(email="concierge@example.com")
    page = request_queue(concierge=casey)
    assert page.rows
    assert all(
        page.counts[status] > 0 for status in (Status.OPEN, Status.IN_PROGRESS, Status.CLOSED)
    )
    overdue = request_queue(concierge=casey, due="overdue")
    assert "Find a storage unit" in [row.name for row in overdue.rows]


def test_demo_desk_search_finds_requests_messages_and_notes(seeded):
    """demo: the desk's search finds a request by its name, a message and an internal note."""
    for q, kind in (("dog walker", "request"), ("Marco", "message"), ("specialist", "note")):
        assert kind in {hit.kind for hit in request_search(q=q)}, q


def test_demo_the_satisfaction_averages_count_the_demo_ratings(seeded):
    """demo: the desk's satisfaction averages, overall, for the concierge and for Acme."""
    summary = rating_summary()
    assert summary.overall.count == Rating.objects.count() > 5
    assert [c.name for c in summary.concierges] == ["Casey Concierge"]
    assert [c.name for c in summary.companies] == ["Acme Corp"]


def test_demo_messages_go_both_ways_with_notes_and_attachments(seeded):
    """demo: messages from the employee and the concierge, internal notes, and attachments
    each way: a picture and a PDF really in upload storage."""
    messages = Message.objects.filter(request__in=demo_requests())
    assert messages.filter(source=Source.USER).exists()
    assert messages.filter(source=Source.LIFE_CONCIERGE).exists()
    assert InternalNote.objects.filter(request__in=demo_requests()).count() >= 3
    attached = MessageAttachment.objects.filter(message__in=messages).select_related("upload")
    by_source = {(a.message.source, a.upload.content_type) for a in attached}
    assert (Source.USER, "image/png") in by_source
    assert (Source.LIFE_CONCIERGE, "application/pdf") in by_source
    heads = {b"\x89PNG\r\n\x1a\n": "image/png", b"%PDF-": "application/pdf"}
    for upload in Upload.objects.filter(
        owner__email__in=["demo@example.com", "concierge@example.com"]
    ):
        assert upload.status == Upload.Status.UPLOADED
        with object_open(upload.key) as stored:
            content = stored.read()
        assert len(content) == upload.size
        assert any(
            content.startswith(head) and kind == upload.content_type for head, kind in heads.items()
        )


def test_demo_requests_are_made_through_their_surveys(seeded):
    """demo: a story request carries its survey's answers (a file answer included), as the
    desk shows them."""
    walker = demo_requests().get(name="Find a dog walker")
    answers = UserRequestAnswer.objects.filter(user_request_survey__service_request=walker)
    assert answers.count() == 7
    assert answers.filter(upload__content_type="image/png").exists()
    assert "Park Slope" in walker.details


def test_demo_the_history_is_spread_over_the_last_four_months_in_order(seeded):
    """demo: requests were made over the last four months, each thread in time order after
    its request was made, nothing in the future."""
    now = timezone.now()
    issued = sorted(ServiceRequest.objects.values_list("issued_at", flat=True))
    assert now - issued[0] > timedelta(days=100) and issued[-1] <= now
    assert len({moment.strftime("%Y-%m") for moment in issued}) >= 4
    for service_request in ServiceRequest.objects.all():
        times = list(service_request.messages.values_list("external_created_at", flat=True))
        assert times == sorted(times)
        assert all(service_request.issued_at < moment <= now for moment in times)
        if service_request.completed_at:
            assert service_request.issued_at < service_request.completed_at <= now


def test_demo_every_planned_request_is_made_once(seeded):
    """demo: no two demo requests share an employee and a name (the seed's key), so each
    one of requests.toml is made."""
    plans = request_plans(timezone.now())
    assert ServiceRequest.objects.count() == len(plans)
    assert len({(p.employee, p.survey) for p in plans}) == len(plans)


def snapshot() -> dict[str, object]:
    return {
        "requests": sorted(
            ServiceRequest.objects.values_list(
                "id", "status", "issued_at", "completed_at", "last_message_at", "due_at"
            )
        ),
        "messages": sorted(Message.objects.values_list("id", "external_created_at")),
        "notes": InternalNote.objects.count(),
        "ratings": sorted(Rating.objects.values_list("id", "score", "created_at")),
        "uploads": sorted(Upload.objects.values_list("key", "size")),
        "clocks": sorted(RequestClock.objects.values_list("request_id", "due_at", "completed_at")),
        "counts": sorted(User.objects.values_list("email", "request_count")),
    }


def test_demo_seeding_twice_makes_no_duplicate_request(seeded):
    """demo: running the seed again changes no request, message, note, rating, upload or
    clock, and makes none."""
    before = snapshot()
    assert "Requests: " in seed("--requests")
    assert snapshot() == before


def test_demo_seeding_sends_no_email_or_text_message(seeded, tasks, outbox):
    """demo: the history's replies and completions enqueue no email (nor anything else)."""
    assert tasks.results() == []
    assert outbox.all() == []


def test_demo_the_employee_sees_their_requests_and_the_desk_its_queue(seeded, make_api):
    """demo: through the API, Dana's requests by status, the concierge's overdue filter and
    Harper's company report."""
    dana = make_api()
    assert dana.sign_in("demo@example.com", PASSWORD).status_code == 200
    for segment in ("open", "in_progress", "completed"):
        assert dana.get(f"requests/{segment}").json()["requests"], segment

    desk = make_api()
    assert desk.sign_in("concierge@example.com", PASSWORD).status_code == 200
    overdue = desk.get("concierge/requests", query={"due": "overdue"}).json()["requests"]
    assert overdue

    harper = make_api()
    assert harper.sign_in("hr@example.com", PASSWORD).status_code == 200
    report = harper.get("company/report")
    assert report.status_code == 200, report.content
