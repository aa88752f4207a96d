"""Issue 27, the account's part of a person's data: what 'Download my data' exports of the
account (second factors by name, a pending email change, the employer's records) and the
strings an erasure redacts from text others wrote (names, addresses, phone numbers)."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from concierge.accounts.models import (
    EmployeeRecord,
    MfaFactor,
    OnboardingAnswer,
    RecoveryCode,
    User,
)
from concierge.accounts.onboarding import Answer
from concierge.accounts.personal_data import account_export, account_personal_terms

pytestmark = pytest.mark.django_db


def test_issue27_export_holds_the_second_factors_by_name_never_their_secrets(user):
    now = timezone.now()
    MfaFactor.objects.create(
        user=user, kind="totp", name="Ada's phone app", confirmed_at=now,
        totp_secret_encrypted="totp-secret-ciphertext",
    )  # fmt: skip
    MfaFactor.objects.create(
        user=user, kind="passkey", name="Ada's laptop", confirmed_at=now,
        credential_id="passkey-credential-id", public_key=b"passkey-public-key",
    )  # fmt: skip
    RecoveryCode.objects.create(user=user, code_hash="f" * 64)
    User.objects.filter(pk=user.pk).update(mfa_phone="+15550102030")
    user.refresh_from_db()

    exported = account_export(user=user)

    factors = exported["second_factors"]
    assert [(f["kind"], f["name"]) for f in factors] == [
        ("passkey", "Ada's laptop"),
        ("totp", "Ada's phone app"),
        ("sms", "Text message to •••-•••-••30"),
    ]
    assert all(f["added_at"] for f in factors[:2])
    text = json.dumps(exported)
    for secret in ("totp-secret-ciphertext", "passkey-credential-id", "passkey-public", "f" * 64):
        assert secret not in text


def test_issue27_export_holds_the_pending_email_change(user):
    User.objects.filter(pk=user.pk).update(pending_email="ada@new.example")
    user.refresh_from_db()
    assert account_export(user=user)["profile"]["pending_email"] == "ada@new.example"


def test_issue27_export_holds_the_employers_records_of_the_person(user, company):
    EmployeeRecord.objects.create(
        company=company, user=user, email="ada@example.com", employee_id="E-1815",
        first_name="Augusta Ada", last_name="King", external_id="idp-ada",
        source="scim", joined_at=timezone.now(),
    )  # fmt: skip

    [record] = account_export(user=user)["employer_records"]

    assert record["company"] == company.name
    assert (record["employee_id"], record["first_name"], record["last_name"]) == (
        "E-1815",
        "Augusta Ada",
        "King",
    )
    assert (record["email"], record["external_id"]) == ("ada@example.com", "idp-ada")
    assert (record["status"], record["source"]) == ("active", "SCIM provisioning")
    assert record["joined_at"] and record["deactivated_at"] is None


def test_issue27_redaction_terms_hold_the_preferred_email(user):
    OnboardingAnswer.objects.create(
        user=user, answer_id=Answer.PREFERRED_EMAIL, value=" ada.home@example.net "
    )
    assert "ada.home@example.net" in account_personal_terms(user=user)


def test_issue27_redaction_terms_hold_the_phone_numbers_as_people_write_them(user):
    User.objects.filter(pk=user.pk).update(mfa_phone="+15550102030")
    OnboardingAnswer.objects.create(user=user, answer_id=Answer.PHONE, value="555 777 8899")
    user.refresh_from_db()

    terms = account_personal_terms(user=user)

    assert {
        "+15550102030", "(555) 010-2030", "555-010-2030", "555.010.2030", "5550102030",
        "+1 555 010 2030",
        "555 777 8899", "(555) 777-8899", "555-777-8899", "555.777.8899", "5557778899",
        "+1 555 777 8899",
    } <= set(terms)  # fmt: skip


def test_issue27_a_phone_answer_of_few_digits_is_no_redaction_term(user):
    """A number under 7 digits would redact unrelated ones (an order number, a time)."""
    OnboardingAnswer.objects.create(user=user, answer_id=Answer.PHONE, value="555-01")
    terms = account_personal_terms(user=user)
    assert not [term for term in terms if any(c.isdigit() for c in term)]
