"""The account's part of a person's data (issue 27): what 'Download my data' exports and
what an erasure removes. Called by `concierge.privacy` only."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction

from concierge.accounts.models import (
    AccountEmail,
    AuthToken,
    EmployeeRecord,
    MfaFactor,
    OnboardingAnswer,
    OneTimeCode,
    PasswordResetToken,
    RecoveryCode,
    User,
    WebAuthnChallenge,
)
from concierge.accounts.onboarding import ALL as ALL_ANSWERS
from concierge.accounts.onboarding import Answer
from concierge.accounts.selectors.memberships import MemberStatus
from concierge.accounts.selectors.mfa import user_factor_list
from concierge.accounts.selectors.onboarding import onboarding_answers_for_user
from concierge.accounts.selectors.sessions import user_sessions_signed_in
from concierge.common.formatting import phone_digits, phone_written_forms

ERASED_DOMAIN = "erased.invalid"
# Fewer digits than a local number (555-0102) would redact unrelated numbers: a booking, a time.
PHONE_TERM_MIN_DIGITS = 7


def account_export(*, user: User) -> dict[str, Any]:
    """The profile, the onboarding answers, the signed-in devices and the second factors, as
    the Account page and onboarding show them, and the employer's records of the person."""
    return {
        "profile": {
            "external_id": str(user.external_id),
            "email": user.email,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "full_name": user.full_name,
            "companies": [company.name for company in user.companies.all()],
            "date_joined": user.date_joined.isoformat(),
            "mfa_phone": user.mfa_phone,
            "pending_email": user.pending_email,
        },
        "onboarding_answers": [
            {"answer_id": answer_id, "question": _question(answer_id), "value": value}
            for answer_id, value in onboarding_answers_for_user(user=user).items()
        ],
        "signed_in_devices": [
            {"device": session.device, "signed_in_at": session.created_at.isoformat()}
            for session in user_sessions_signed_in(user=user)
        ],
        "second_factors": [
            {
                "kind": factor.kind,
                "name": factor.name,
                "added_at": _iso(factor.created_at),
                "last_used_at": _iso(factor.last_used_at),
            }
            for factor in user_factor_list(user=user)
        ],
        "employer_records": [
            _employer_record(record)
            for record in EmployeeRecord.objects.filter(user=user).select_related("company")
        ],
    }


def _employer_record(record: EmployeeRecord) -> dict[str, Any]:
    return {
        "company": record.company.name,
        "email": record.email,
        "employee_id": record.employee_id,
        "first_name": record.first_name,
        "last_name": record.last_name,
        "external_id": record.external_id,
        "status": MemberStatus.ACTIVE if record.active else MemberStatus.DEACTIVATED,
        "source": record.get_source_display(),
        "joined_at": _iso(record.joined_at),
        "deactivated_at": _iso(record.deactivated_at),
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _question(answer_id: int) -> str:
    """What an onboarding answer answers, in words ("Has a pet")."""
    return str(Answer(answer_id).label) if answer_id in ALL_ANSWERS else ""


def account_personal_terms(*, user: User) -> list[str]:
    """The strings that identify the person in text others wrote (longest first, so that a
    phone's longer form goes whole), for redaction: their full name, names, email addresses
    and phone numbers."""
    answers = onboarding_answers_for_user(user=user)
    terms = {user.full_name, user.first_name, user.last_name, user.email, user.pending_email}
    terms |= set(user.employee_records.values_list("email", flat=True))
    terms.add(_answer_text(answers.get(Answer.PREFERRED_EMAIL)))
    for phone in (user.mfa_phone, _answer_text(answers.get(Answer.PHONE))):
        terms |= _phone_written_forms(phone)
    return sorted((t for t in terms if t and len(t) >= 2), key=len, reverse=True)


def account_own_addresses(*, user: User) -> list[str]:
    """The person's own addresses: their account's and their employer's records'. Not those
    they only typed, an email change never confirmed (one to a taken address is accepted
    without saying so) or the onboarding's preferred email: either may be another account's."""
    records = user.employee_records.values_list("email", flat=True)
    return sorted({user.email, *records} - {""})


def _answer_text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _phone_written_forms(phone: str) -> set[str]:
    """`phone` as stored and as people write it; none under PHONE_TERM_MIN_DIGITS digits."""
    if len(phone_digits(phone)) < PHONE_TERM_MIN_DIGITS:
        return set()
    return {phone.strip(), *phone_written_forms(phone)}


def account_company_ids(*, user: User) -> list[int]:
    return list(user.companies.values_list("id", flat=True))


def _admin_sessions_delete(user: User) -> int:
    """Django admin sessions of the person (their bearer tokens are AuthToken rows)."""
    doomed = [
        session.pk
        for session in Session.objects.iterator()
        if session.get_decoded().get("_auth_user_id") == str(user.pk)
    ]
    Session.objects.filter(pk__in=doomed).delete()
    return len(doomed)


@transaction.atomic
def account_erase(*, user: User) -> dict[str, int]:
    """Deletes what only the person's account holds (sessions, second factors, recovery
    codes, codes and links, account emails, onboarding answers) and anonymises the rest:
    the user row stays, inactive and nameless, so the requests and the company's figures
    keep counting it; the employer's records lose their personal fields."""
    counts = {
        "sessions": AuthToken.objects.filter(user=user).delete()[0] + _admin_sessions_delete(user),
        "second_factors": MfaFactor.objects.filter(user=user).delete()[0]
        + (1 if user.mfa_phone else 0),
        "recovery_codes": RecoveryCode.objects.filter(user=user).delete()[0],
        "onboarding_answers": OnboardingAnswer.objects.filter(user=user).delete()[0],
        "account_emails": AccountEmail.objects.filter(user=user).delete()[0],
    }
    OneTimeCode.objects.filter(user=user).delete()
    PasswordResetToken.objects.filter(user=user).delete()
    WebAuthnChallenge.objects.filter(user=user).delete()
    for record in EmployeeRecord.objects.filter(user=user):
        record.email = f"erased-record-{record.pk}@{ERASED_DOMAIN}"
        record.employee_id = record.first_name = record.last_name = record.external_id = ""
        record.active = False
        record.save(
            update_fields=[
                "email", "employee_id", "first_name", "last_name", "external_id", "active",
            ]
        )  # fmt: skip
        counts["employer_records"] = counts.get("employer_records", 0) + 1
    # Django admin's history names the person (their address) in each change's line.
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk)
    ).update(object_repr=f"Erased person #{user.pk}", change_message="")
    user.email = f"erased-{user.pk}@{ERASED_DOMAIN}"
    user.first_name = "Erased"
    user.last_name = user.pending_email = user.mfa_phone = user.unlock_token_hash = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()
    return counts
