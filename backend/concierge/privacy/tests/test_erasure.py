"""Issue 27 erasure: support erases a person from Django admin after a confirmation page that
names them; nothing of the person is left in any table (every text, char and JSON column of
every model searched for their name and email) or in storage (local disk, S3 via moto); the
concierge's replies stay without the person's parts; the company report's counts are the
same before and after; the audit trail keeps the event without personal data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.apps import apps
from django.db import models
from django.test import Client
from django.urls import reverse

from concierge.accounts.models import MfaFactor, RecoveryCode, User
from concierge.audit.models import AuditEvent
from concierge.company_reports import selectors as report_selectors
from concierge.company_reports.selectors import company_report
from concierge.concierge_desk.models import InternalNote
from concierge.privacy.models import DataExport
from concierge.privacy.services.erasure import person_erase
from concierge.servicerequests.models import Message, ServiceRequest
from conftest import DEFAULT_PASSWORD, ApiClient

pytestmark = pytest.mark.django_db

NAME_WORDS = re.compile(r"\b(ada|lovelace)\b", re.IGNORECASE)
EMAIL = "ada@example.com"


@pytest.fixture
def support() -> Client:
    superuser = User.objects.create_superuser(
        email="support@example.com", password="admin-pass-123", first_name="Sam"
    )
    client = Client()
    client.force_login(superuser)
    return client


def _text_columns(model: type[models.Model]) -> list[str]:
    kinds = (models.CharField, models.TextField, models.JSONField)
    return [
        f.name for f in model._meta.concrete_fields if isinstance(f, kinds) and not f.primary_key
    ]


def traces_of_the_person() -> list[str]:
    """Every (model, column, value) of the whole database naming Ada or her address."""
    found = []
    for model in apps.get_models():
        for column in _text_columns(model):
            for term in ("ada", "lovelace"):
                values = model._default_manager.filter(**{f"{column}__icontains": term})
                for value in values.values_list(column, flat=True):
                    if EMAIL in str(value).lower() or NAME_WORDS.search(str(value)):
                        found.append(f"{model._meta.label}.{column}: {value!r}")
    return found


def _erase(client: Client, user: User, django_capture_on_commit_callbacks):
    changelist = reverse("admin:accounts_user_changelist")
    selection = {"action": "erase_people", "_selected_action": [str(user.pk)]}
    confirmation = client.post(changelist, selection)
    assert confirmation.status_code == 200
    page = confirmation.content.decode()
    assert "Ada Lovelace" in page and EMAIL in page and "cannot be undone" in page
    assert "Onboarding answers" in page and "attachment" in page
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(changelist, {**selection, "confirm": "yes"})
    assert done.status_code == 302


def _stored_files(root: Path) -> list[str]:
    return (
        [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()] if root.exists() else []
    )


def _give_her_everything_else(user, signed_in_api, outbox) -> None:
    assert signed_in_api.post("users/data_export").status_code == 202
    outbox.emails(user.email)  # the export is built and its email sent (and stored)
    MfaFactor.objects.create(user=user, kind="totp", name="Ada's phone app")
    RecoveryCode.objects.create(user=user, code_hash="0" * 64)
    User.objects.filter(pk=user.pk).update(mfa_phone="+15550102030")


def test_issue27_erasure_leaves_nothing_of_the_person_and_the_report_counts_stay(
    support, signed_in_api, user, company, person_data, outbox, settings,
    django_capture_on_commit_callbacks, monkeypatch,
):  # fmt: skip
    monkeypatch.setattr(report_selectors, "SMALL_NUMBER", 1)  # every figure shown, none withheld
    _give_her_everything_else(user, signed_in_api, outbox)
    assert traces_of_the_person()  # the search finds her before
    media = Path(settings.MEDIA_ROOT)
    assert len(_stored_files(media)) == 3  # her picture, the concierge's PDF, the export
    report_before = company_report(company=company)
    this_month = report_before[-1]
    assert (this_month.requests_created, this_month.requests_completed) == (1, 1)
    assert (this_month.employees, this_month.csat_count) == (1, 1)
    assert this_month.median_first_response_hours is not None

    _erase(support, user, django_capture_on_commit_callbacks)

    assert traces_of_the_person() == []
    assert _stored_files(media) == []
    assert company_report(company=company) == report_before
    request = ServiceRequest.objects.get(pk=person_data.request.pk)  # an anonymous row
    assert request.user_id == user.pk and request.status == "closed"
    bodies = [(m.source, m.body_html) for m in Message.objects.filter(request=request)]
    assert bodies == [
        ("user", "<p>(erased)</p>"),
        ("life_concierge", "Hello [erased], three walkers near you."),
    ]
    user.refresh_from_db()
    assert not user.is_active and not user.has_usable_password()
    assert signed_in_api.get("users/current").status_code == 401  # her sessions are gone
    assert not MfaFactor.objects.filter(user=user).exists()
    assert not RecoveryCode.objects.filter(user=user).exists()
    assert not DataExport.objects.filter(user=user).exists()
    event = AuditEvent.objects.get(action="account.erased")
    assert event.target_id == str(user.pk)
    assert event.actor_role == "superuser"  # the person erasing, in their own role
    assert event.details["requests"] == 1 and event.details["files"] == 2


def test_issue27_erasure_with_s3_storage(
    s3_storage, support, user, person_data, django_capture_on_commit_callbacks
):
    listed = s3_storage.list_objects_v2(Bucket=s3_storage.bucket).get("Contents", [])
    assert sorted(o["Key"] for o in listed) == sorted(person_data.attachment_keys)
    _erase(support, user, django_capture_on_commit_callbacks)
    assert s3_storage.list_objects_v2(Bucket=s3_storage.bucket).get("Contents", []) == []
    assert traces_of_the_person() == []


def test_issue27_staff_accounts_are_not_erased_here(support, concierge):
    changelist = reverse("admin:accounts_user_changelist")
    selection = {"action": "erase_people", "_selected_action": [str(concierge.pk)]}
    page = support.post(changelist, selection).content.decode()
    assert "Staff accounts are not erased here" in page
    support.post(changelist, {**selection, "confirm": "yes"})
    concierge.refresh_from_db()
    assert concierge.email == "casey@example.com" and concierge.is_active


def test_issue27_only_superusers_erase(user, person_data):
    staff = User.objects.create_user(
        email="helper@example.com", password="pw-123456789", first_name="Hal", is_staff=True
    )
    client = Client()
    client.force_login(staff)
    client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "erase_people", "_selected_action": [str(user.pk)], "confirm": "yes"},
    )
    user.refresh_from_db()
    assert user.email == EMAIL


def test_issue27_erasure_leaves_the_mail_of_an_address_she_only_asked_for(
    signed_in_api, user, user_factory, tasks
):
    """An email change to an address another account has is accepted without saying so: that
    address, never confirmed, is not hers, and the other person's queued mail stays."""
    bob = user_factory(email="bob@example.com", first_name="Bob")
    asked = signed_in_api.post(
        "users/email_change", {"email": bob.email, "password": DEFAULT_PASSWORD}
    )
    assert asked.status_code == 200, asked.content
    assert ApiClient().post("users/password", {"user": {"email": bob.email}}).status_code == 200
    tasks.commit()  # Bob's reset email is queued, not sent yet

    person_erase(user=User.objects.get(pk=user.pk))

    assert any(
        "bob@example.com" in str(result.args_kwargs)
        for result in tasks.results("concierge.accounts.tasks.password_reset_email")
    )


def _answers(api, answers: dict[int, str]) -> None:
    given = [{"answer_id": answer_id, "value": value} for answer_id, value in answers.items()]
    assert api.post("users/onboarding", {"answers": given}).status_code == 200


def test_issue27_erasure_redacts_her_phones_and_preferred_email_from_the_concierges_replies_and_notes(
    signed_in_api, concierge_api, user, make_request
):
    _answers(signed_in_api, {104: "5550102030", 165: "ada.home@example.net"})
    User.objects.filter(pk=user.pk).update(mfa_phone="+15557778899")
    request = make_request(user, name="Find a plumber")
    reply = (
        "Called (555) 010-2030 and +1 555 777 8899, wrote to ada.home@example.net. "
        "Booking 4471 at 10:30."
    )
    path = f"concierge/requests/{request.pk}"
    assert concierge_api.post(f"{path}/messages", {"message": {"body": reply}}).status_code == 201
    assert concierge_api.post(f"{path}/notes", {"body": "Text 555.010.2030"}).status_code == 201

    person_erase(user=User.objects.get(pk=user.pk))

    [body] = Message.objects.filter(request=request).values_list("body_html", flat=True)
    assert "Called [erased] and [erased], wrote to [erased]. Booking 4471 at 10:30." in body
    assert InternalNote.objects.get(request=request).body == "Text [erased]"


def test_issue27_erasure_leaves_the_mail_of_a_preferred_email_that_is_not_hers(
    signed_in_api, user, user_factory, tasks
):
    """The onboarding's preferred email is only typed, never confirmed, and may be another
    account's: it is only redacted, and that account's queued mail to it stays."""
    bob = user_factory(email="bob@example.com", first_name="Bob")
    _answers(signed_in_api, {165: bob.email})
    assert ApiClient().post("users/password", {"user": {"email": bob.email}}).status_code == 200
    tasks.commit()  # Bob's reset email is queued, not sent yet

    person_erase(user=User.objects.get(pk=user.pk))

    assert any(
        "bob@example.com" in str(result.args_kwargs)
        for result in tasks.results("concierge.accounts.tasks.password_reset_email")
    )
