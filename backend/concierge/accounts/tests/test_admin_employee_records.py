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


def _user_change_form(client: Client, user: User) -> dict:
    """The User admin's change form as the page fills it (fields with their current values)."""
    page = client.get(reverse("admin:accounts_user_change", args=[user.pk]))
    form = page.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if name == "companies" or name in ("groups", "user_permissions"):
            data[name] = [getattr(v, "pk", v) for v in (value or [])]
        elif value is not None and name != "password":
            data[name] = value
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update({management.add_prefix(k): v for k, v in management.initial.items()})
    return data


def test_user_admin_companies_field_goes_through_the_membership_services(
    staff_client, signed_in_api, user, company, company_factory
):
    """Issue 26 (Django admin): removing a company from a person's "Companies" deactivates
    their record there and signs them out when no access is left; adding it back reactivates
    them; adding another company makes a record with the admin as its source"""
    url = reverse("admin:accounts_user_change", args=[user.pk])
    form = _user_change_form(staff_client, user)
    form["companies"] = []
    assert staff_client.post(url, form).status_code == 302
    record = EmployeeRecord.objects.get(user=user, company=company)
    assert record.active is False
    assert not user.companies.exists()
    assert signed_in_api.get("users/current").status_code == 401

    globex = company_factory(slug="globex", name="Globex")
    form["companies"] = [company.pk, globex.pk]
    assert staff_client.post(url, form).status_code == 302
    record.refresh_from_db()
    assert record.active is True
    assert set(user.companies.values_list("slug", flat=True)) == {"acme", "globex"}
    added = EmployeeRecord.objects.get(user=user, company=globex)
    assert (added.active, added.source) == (True, EmployeeRecord.Source.ADMIN)
