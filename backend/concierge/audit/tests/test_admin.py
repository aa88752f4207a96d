"""The audit trail's list in Django admin names who acted (QA: it showed "Actor ID 4"):
the person's email, "system" for no one, read in the entries' own query (no query a row), the
entries themselves left as they were written."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from concierge.audit import actions
from concierge.audit.models import AuditEvent
from concierge.audit.selectors import first_broken_link
from concierge.audit.services import audit_record
from conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db
LIST = "/admin/audit/auditevent/"


@pytest.fixture
def root_client(django_user_model) -> Client:
    root = django_user_model.objects.create_superuser(
        email="root@example.com", password=DEFAULT_PASSWORD, first_name="Root"
    )
    client = Client()
    client.force_login(root)
    return client


def test_the_list_names_the_actor_by_email_and_system_for_none(root_client, user, concierge):
    audit_record(action=actions.SIGN_IN_SUCCEEDED, actor=user, client_ip="2001:db8::7")
    audit_record(action=actions.REQUEST_OPENED, actor=concierge)
    audit_record(action=actions.AUDIT_PRUNED)  # no actor: the system
    gone = user.__class__.objects.create_user(email="gone@example.com", password=DEFAULT_PASSWORD)
    audit_record(action=actions.SIGN_IN_SUCCEEDED, actor=gone)
    gone_id = gone.pk
    gone.delete()
    hashes = list(AuditEvent.objects.order_by("id").values_list("hash", flat=True))

    html = root_client.get(LIST).content.decode()
    assert f'href="/admin/accounts/user/{user.pk}/change/">ada<wbr>@example.com</a>' in html
    assert f'/admin/accounts/user/{concierge.pk}/change/">casey<wbr>@example.com</a>' in html
    assert 'class="field-actor">system' in html
    assert f"Deleted account #{gone_id}" in html
    assert "Actor ID" not in html and "Actor id" not in html
    assert "2001:<wbr>db8:<wbr>:<wbr>7" in html
    # The entry's own page names the actor too.
    event = AuditEvent.objects.get(action=actions.REQUEST_OPENED)
    assert "casey<wbr>@example.com" in root_client.get(f"{LIST}{event.pk}/change/").content.decode()
    # Read-only and tamper-evident as before: nothing of an entry changed, the chain intact.
    assert list(AuditEvent.objects.order_by("id").values_list("hash", flat=True)) == hashes
    assert first_broken_link() is None


def test_the_list_reads_its_actors_in_a_fixed_number_of_queries(root_client, user_factory):
    """No query an entry: a page of 5 entries by 5 people and a page of 60 by 60 people
    take the same number of queries."""

    def queries_for(count: int) -> int:
        for n in range(count):
            person = user_factory(email=f"p{count}-{n}@example.com")
            audit_record(action=actions.SIGN_IN_SUCCEEDED, actor=person)
        with CaptureQueriesContext(connection) as queries:
            response = root_client.get(LIST)
        assert response.status_code == 200
        assert f"p{count}-{count - 1}<wbr>@example.com" in response.content.decode()
        return len(queries)

    assert queries_for(5) == queries_for(60)


def test_staff_who_are_not_superusers_still_cannot_read_it(django_user_model, user):
    audit_record(action=actions.SIGN_IN_SUCCEEDED, actor=user)
    staff = django_user_model.objects.create_user(
        email="staff@example.com", password=DEFAULT_PASSWORD, is_staff=True
    )
    client = Client()
    client.force_login(staff)
    assert client.get(LIST).status_code == 403
