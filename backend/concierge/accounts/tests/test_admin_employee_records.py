"""Issue 26: staff see the employers' records of their people in Django admin and end or
restore a person's access there, as the company admin's members page does."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from concierge.accounts.models import EmployeeRecord, User
from concierge.accounts.services.memberships import membership_join

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client() -> Client:
    superuser = User.objects.create_superuser(
        email="root@example.com", password="admin-pass-123", first_name="Root"
    )
    client = Client()
    client.force_login(superuser)
    return client


def test_records_are_listed_searched_and_deactivated_then_reactivated(
    staff_client, signed_in_api, user, company
):
    """Issue 26 (Django admin): the list and search show the record; the Deactivate action
    ends the membership and signs the person out; Reactivate restores it"""
    record = membership_join(
        user=user, company=company, source=EmployeeRecord.Source.SIGN_UP, employee_id="E-77"
    )
    url = reverse("admin:accounts_employeerecord_changelist")
    listed = staff_client.get(url, {"q": "E-77"})
    assert listed.status_code == 200
    assert "ada@example.com" in listed.content.decode()
    assert staff_client.get(reverse("admin:accounts_employeerecord_add")).status_code == 403
    change = staff_client.get(reverse("admin:accounts_employeerecord_change", args=[record.pk]))
    assert change.status_code == 200

    done = staff_client.post(
        url, {"action": "deactivate_members", "_selected_action": [record.pk]}, follow=True
    )
    assert done.status_code == 200
    record.refresh_from_db()
    assert record.active is False
    assert not user.companies.filter(pk=company.pk).exists()
    assert signed_in_api.get("users/current").status_code == 401

    staff_client.post(url, {"action": "reactivate_members", "_selected_action": [record.pk]})
    record.refresh_from_db()
    assert record.active is True
    assert user.companies.filter(pk=company.pk).exists()
