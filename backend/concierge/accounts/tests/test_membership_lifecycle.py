"""Issue 26 'Provisioning and offboarding': deactivating a person's membership of a company
ends their access through it (and, with no company left, every session and every sign-in);
reactivating gives it back. `member_deactivate` / `member_reactivate` are what SCIM, the
roster import and the company admin's members page call."""

from __future__ import annotations

import pytest
from django.conf import settings

from concierge.accounts.models import AuthToken, EmployeeRecord
from concierge.accounts.services.memberships import (
    MEMBERSHIP_ENDED,
    member_deactivate,
    member_reactivate,
    membership_join,
)
from concierge.accounts.signals import sessions_revoked
from concierge.accounts.tests.webauthn_device import SoftPasskey
from concierge.servicerequests.models import ServiceRequest
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db

SOURCE = EmployeeRecord.Source.ADMIN


@pytest.fixture
def record(user, company) -> EmployeeRecord:
    return membership_join(user=user, company=company, source=SOURCE, employee_id="E-1")


@pytest.fixture
def revoked_signals():
    """The user ids `sessions_revoked` was sent for (on commit)."""
    sent: list[int] = []

    def receiver(sender, *, user_id, **kwargs):
        sent.append(user_id)

    sessions_revoked.connect(receiver, dispatch_uid="test-membership-lifecycle")
    yield sent
    sessions_revoked.disconnect(dispatch_uid="test-membership-lifecycle")


def test_deactivation_signs_a_leaver_out_everywhere_and_keeps_their_requests(
    signed_in_api,
    make_api,
    user,
    company,
    record,
    make_request,
    revoked_signals,
    django_capture_on_commit_callbacks,
):
    """Issue 26 offboarding: `active: false` ends the membership, every session of that user
    is refused from the next call (401), the live streams are told once the change commits,
    and their requests stay"""
    other_device = make_api()
    assert other_device.sign_in(user.email).status_code == 200
    service_request = make_request(user)

    with django_capture_on_commit_callbacks(execute=True):
        member_deactivate(record=record)

    assert record.active is False and record.deactivated_at is not None
    assert not user.companies.filter(pk=company.pk).exists()
    assert signed_in_api.get("users/current").status_code == 401
    assert other_device.get("users/current").status_code == 401
    assert not AuthToken.objects.filter(user=user, revoked_at__isnull=True).exists()
    assert revoked_signals == [user.pk]
    assert ServiceRequest.objects.filter(pk=service_request.pk, user=user).exists()
    stored = EmployeeRecord.objects.get(pk=record.pk)
    assert (stored.active, stored.employee_id, stored.user_id) == (False, "E-1", user.pk)


def test_a_leaver_cannot_sign_in_again_with_a_clear_reason(api, user, company, record):
    """Issue 26: they can no longer sign in: 403 naming the company, and only after the right
    password (a wrong one gets the usual answer, so it tells nothing)"""
    member_deactivate(record=record)
    refused = api.sign_in(user.email)
    assert refused.status_code == 403
    assert refused.json()["error"] == MEMBERSHIP_ENDED.format(company=company.name)
    assert "Authorization" not in refused
    wrong = api.sign_in(user.email, password="not-the-password-1")
    assert wrong.status_code == 401
    assert wrong.json()["error"] == "Invalid email or password."


def test_a_leaver_cannot_start_requests(signed_in_api, user, record):
    """Issue 26: they can no longer start requests: the session that could is refused"""
    begin = "request_surveys/616/user_request_surveys"
    assert signed_in_api.post(begin).status_code != 401
    member_deactivate(record=record)
    assert signed_in_api.post(begin).status_code == 401


def test_a_leaver_cannot_sign_in_with_a_passkey_either(signed_in_api, user, record):
    """Issue 26: every way of signing in refuses a leaver (a passkey alone too)"""
    device = SoftPasskey(rp_id=settings.WEBAUTHN_RP_ID, origin=settings.WEBAUTHN_ORIGIN)
    options = signed_in_api.post("mfa/passkeys/options").json()["options"]
    registered = signed_in_api.post(
        "mfa/passkeys", {"credential": device.create(options), "name": "Laptop"}
    )
    assert registered.status_code == 200, registered.content
    member_deactivate(record=record)

    api = ApiClient()
    options = api.post("users/sign_in/passkey/options").json()["options"]
    response = api.post("users/sign_in/passkey", {"credential": device.get(options)})
    assert response.status_code == 403
    assert "has ended" in response.json()["error"]
    assert "Authorization" not in response


def test_someone_with_another_company_keeps_their_session_but_not_that_company(
    signed_in_api,
    user,
    company,
    company_factory,
    record,
    revoked_signals,
    django_capture_on_commit_callbacks,
):
    """Issue 26: a user may belong to several companies: only that membership ends"""
    other = company_factory(slug="globex", name="Globex")
    membership_join(user=user, company=other, source=SOURCE)
    with django_capture_on_commit_callbacks(execute=True):
        member_deactivate(record=record)
    current = signed_in_api.get("users/current")
    assert current.status_code == 200
    assert list(user.companies.values_list("slug", flat=True)) == ["globex"]
    assert revoked_signals == []
    assert ApiClient().sign_in(user.email).status_code == 200


def test_concierges_and_staff_keep_signing_in(api, concierge, company):
    """Issue 26: the refusal is for employees whose employer ended their access, never for
    the desk"""
    concierge.companies.add(company)
    concierge_record = membership_join(user=concierge, company=company, source=SOURCE)
    member_deactivate(record=concierge_record)
    assert api.sign_in(concierge.email).status_code == 200


def test_reactivation_restores_access(api, user, company, record):
    """Issue 26: reactivation restores access (sign-in works again; old sessions stay out)"""
    member_deactivate(record=record)
    member_reactivate(record=record)
    assert record.active is True and record.deactivated_at is None
    assert user.companies.filter(pk=company.pk).exists()
    assert api.sign_in(user.email, DEFAULT_PASSWORD).status_code == 200
    assert api.get("users/current").status_code == 200


def test_deactivating_twice_or_a_record_without_account_is_harmless(company, user_factory):
    """Issue 26: a roster/SCIM record may have no account yet; deactivating it, twice, and
    reactivating it only change the record; joining after deactivation stays refused"""
    pending = EmployeeRecord.objects.create(
        company=company, email="new@example.com", source=EmployeeRecord.Source.ROSTER
    )
    member_deactivate(record=pending)
    member_deactivate(record=pending)
    pending.refresh_from_db()
    assert pending.active is False
    member_reactivate(record=pending)
    pending.refresh_from_db()
    assert pending.active is True and pending.user_id is None
