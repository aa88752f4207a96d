"""Issue 27, the audit trail, who sees it: superusers in Django admin (read-only, CSV), the
company admin their company's administrative events only, and the employee who on the
concierge side opened their request ("Seen by")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from concierge.accounts.models import EmployeeRecord
from concierge.accounts.services.memberships import membership_join
from concierge.audit import actions
from concierge.audit.models import AuditEvent
from concierge.audit.services import audit_record
from conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db


def test_the_company_admin_sees_their_company_administration_only(
    hr_api, hr, user, company, company_factory, concierge, make_request
):
    """issue 27 who sees it: the company admin sees their company's own administrative
    events (members, settings, report exports), never employees' request activity nor another
    company's events; paged in a fixed number of queries."""
    other = company_factory(name="Other", slug="other")
    record = membership_join(user=user, company=company, source=EmployeeRecord.Source.SIGN_UP)
    base = f"company/{company.pk}"
    assert hr_api.post(f"{base}/members/{record.pk}/deactivate").status_code == 200
    assert hr_api.get("company/report.csv").status_code == 200
    audit_record(action=actions.MEMBER_DEACTIVATED, company_id=other.pk, actor_role="company admin")
    # Request activity, even with the company's id on it, is never shown.
    audit_record(action=actions.REQUEST_OPENED, company_id=company.pk, actor=concierge)
    audit_record(action=actions.SIGN_IN_SUCCEEDED, company_id=company.pk, actor=user)

    response = hr_api.get(f"{base}/audit")
    assert response.status_code == 200, response.content
    body = response.json()
    assert [e["action"] for e in body["events"]] == [
        actions.REPORT_EXPORTED,
        actions.MEMBER_DEACTIVATED,
        actions.ROLE_CHANGED,  # Harper made the company's admin (the fixture)
    ]
    assert body["events"][1]["actor_name"] == "Harper"
    assert body["next_before"] is None
    assert hr_api.get(f"company/{other.pk}/audit").status_code == 404


def test_the_company_log_pages_in_fixed_queries(hr_api, hr, company):
    """issue 27 who sees it: paged (50 a page), the same number of queries for any page."""
    for n in range(60):
        audit_record(action=actions.INVITE_SENT, company_id=company.pk, actor=hr, details={"n": n})
    counts = []
    for before in (None, None):
        with CaptureQueriesContext(connection) as queries:
            query = {"before": before} if before else None
            response = hr_api.get(f"company/{company.pk}/audit", query=query)
        counts.append(len(queries))
        assert response.status_code == 200
    first = hr_api.get(f"company/{company.pk}/audit").json()
    assert len(first["events"]) == 50
    with CaptureQueriesContext(connection) as queries:
        second = hr_api.get(f"company/{company.pk}/audit", query={"before": first["next_before"]})
    # 60 invites and Harper's company admin role.
    assert len(second.json()["events"]) == 11 and second.json()["next_before"] is None
    assert len(queries) == counts[0]


def test_an_employee_or_concierge_cannot_read_a_company_log(signed_in_api, company):
    """issue 27 who sees it: nobody but the company's admins."""
    assert signed_in_api.get(f"company/{company.pk}/audit").status_code == 403


def test_superusers_read_it_in_the_admin_read_only_with_csv(django_user_model, concierge):
    """issue 27 who sees it: superusers in Django admin (filters, CSV export), read-only;
    staff who are not superusers do not see it."""
    audit_record(action=actions.SIGN_IN_SUCCEEDED, actor=concierge, client_ip="192.0.2.4")
    event = AuditEvent.objects.get(action=actions.SIGN_IN_SUCCEEDED)
    root = django_user_model.objects.create_superuser(
        email="root@example.com", password=DEFAULT_PASSWORD, first_name="Root"
    )
    client = Client()
    client.force_login(root)
    listing = client.get(
        "/admin/audit/auditevent/", {"action": actions.SIGN_IN_SUCCEEDED, "q": concierge.pk}
    )
    assert listing.status_code == 200 and b"192.0.2.4" in listing.content
    by_address = client.get("/admin/audit/auditevent/", {"q": "192.0.2.4"})
    assert by_address.status_code == 200 and b"192.0.2.4" in by_address.content
    exported = client.post(
        "/admin/audit/auditevent/",
        {"action": "export_csv", "_selected_action": [event.pk]},
    )
    assert exported.status_code == 200 and exported["Content-Type"] == "text/csv"
    assert event.hash in exported.content.decode()
    change = client.post(f"/admin/audit/auditevent/{event.pk}/change/", {"action": "x"})
    assert change.status_code in (302, 403) or b"<form" not in change.content
    event.refresh_from_db()
    assert event.action == actions.SIGN_IN_SUCCEEDED
    assert (
        client.post(f"/admin/audit/auditevent/{event.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )

    staff = django_user_model.objects.create_user(
        email="staff@example.com", password=DEFAULT_PASSWORD, first_name="Sam", is_staff=True
    )
    client.force_login(staff)
    assert client.get("/admin/audit/auditevent/").status_code == 403


def test_the_employee_sees_who_opened_their_request(
    signed_in_api, user, concierge, make_api, make_request
):
    """issue 27 access transparency: "Seen by" lists who on the concierge side opened the
    request, only openings by staff: not an internal note, not the employee themselves."""
    service_request = make_request(user)
    assert signed_in_api.get(f"requests/{service_request.pk}/seen_by").json() == {"seen_by": []}
    desk = make_api()
    assert desk.sign_in(concierge.email).status_code == 200
    base = f"concierge/requests/{service_request.pk}"
    assert desk.get(base).status_code == 200
    assert desk.post(f"{base}/notes", {"body": "Private note"}).status_code == 201
    assert signed_in_api.get(f"requests/{service_request.pk}").status_code == 200

    seen = signed_in_api.get(f"requests/{service_request.pk}/seen_by").json()["seen_by"]
    assert [(s["name"], s["role"]) for s in seen] == [("Casey", "concierge")]
    # A note by someone who never opened the request does not make them appear.
    audit_record(
        action=actions.NOTE_ADDED,
        actor=concierge,
        actor_role="concierge",
        target_type="request",
        target_id=service_request.pk,
    )
    assert len(signed_in_api.get(f"requests/{service_request.pk}/seen_by").json()["seen_by"]) == 1


def test_only_the_owner_reads_seen_by(make_api, user_factory, user, make_request):
    """issue 27 access transparency: the request's owner only (404 for anyone else)."""
    service_request = make_request(user)
    other = user_factory(email="other@example.com")
    api = make_api()
    assert api.sign_in(other.email).status_code == 200
    assert api.get(f"requests/{service_request.pk}/seen_by").status_code == 404
