"""Erasing a person (support, from Django admin, after the Account page's 'Close Account'
email): every app removes or anonymises its part; the requests stay as anonymous rows so the
company's figures stay right; the audit trail keeps the event, with counts only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from concierge.accounts.personal_data import (
    account_erase,
    account_own_addresses,
    account_personal_terms,
)
from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.audit import actions
from concierge.audit.services import audit_record
from concierge.common.errors import ApiError
from concierge.company_reports.personal_data import company_admin_roles_erase
from concierge.concierge_desk.personal_data import notes_erase, notes_redact
from concierge.inbound_email.personal_data import inbound_emails_erase
from concierge.notification_settings.personal_data import notification_settings_erase
from concierge.notifications.personal_data import task_results_forget
from concierge.privacy.models import ErasedRequest
from concierge.privacy.services.export import data_exports_erase
from concierge.satisfaction.personal_data import ratings_erase_comments
from concierge.servicerequests.personal_data import (
    request_ids_for_user,
    requests_erase_content,
    requests_erase_for_user,
)
from concierge.sso.personal_data import handoffs_erase
from concierge.surveys.personal_data import (
    survey_answers_erase_for_requests,
    survey_answers_erase_for_user,
)
from concierge.uploads.personal_data import uploads_erase_for_owner, uploads_erase_for_requests

# What the admin's confirmation page lists.
WHAT_IS_ERASED = (
    "Name, email address, phone (second factor) and password: replaced, the account closed",
    "Onboarding answers and the answers given in request surveys",
    "The person's messages (their place in each thread stays, marked '(erased)')",
    "Every file they uploaded and every attachment on their requests, in storage too",
    "Sessions, second factors, recovery codes, sign-in codes and account emails",
    "The employer's records of them (name, email, employee id)",
    "Their data exports, rating comments and queued emails",
    "The records of the emails they sent to their requests (reply by email)",
    "Their notification choices and the devices that got their push notifications",
    "Their name, addresses and phone numbers in the concierge's replies and internal notes",
)
WHAT_STAYS = (
    "The requests, as anonymous rows with their dates, statuses and categories (the "
    "company's report counts them)",
    "The concierge's replies, without the person's name, addresses or phone numbers",
    "The audit trail's events (ids and counts, never personal data)",
)


class CannotErase(ApiError):
    status_code = 409


def erasable_problem(*, user: Any) -> str | None:
    """Why the account can't be erased here, or None."""
    if user.is_staff or user.is_superuser or user_is_concierge(user=user):
        return "Staff accounts are not erased here: remove their staff and concierge roles first."
    if user.email.endswith("@erased.invalid"):
        return "This account was already erased."
    return None


@transaction.atomic
def person_erase(*, user: Any, actor: Any = None, client_ip: str = "") -> dict[str, int]:
    """Erases the person; the counts of what went (also the audit event's details)."""
    if problem := erasable_problem(user=user):
        raise CannotErase(problem)
    terms = account_personal_terms(user=user)
    # Their emails and queued mail go; an address they only typed is only redacted.
    addresses = account_own_addresses(user=user)
    request_ids = request_ids_for_user(user=user)
    counts = {
        "requests": len(request_ids),
        "files": uploads_erase_for_owner(owner=user, request_ids=request_ids),
        "survey_answers": survey_answers_erase_for_user(user=user),
        **requests_erase_for_user(user=user, terms=terms),
        "notes_redacted": notes_redact(request_ids=request_ids, terms=terms),
        "ratings": ratings_erase_comments(request_ids=request_ids),
        "exports": data_exports_erase(user=user),
        "stored_emails": task_results_forget(terms=addresses),
        "company_admin_roles": company_admin_roles_erase(user=user),
        "sign_in_handoffs": handoffs_erase(user=user),
        **notification_settings_erase(user=user),
        "inbound_emails": inbound_emails_erase(user=user, addresses=addresses),
    }
    counts.update(account_erase(user=user))
    _mark_erased(request_ids, ErasedRequest.Reason.ACCOUNT)
    audit_record(
        action=actions.ACCOUNT_ERASED,
        actor=actor,
        target_type="user",
        target_id=user.pk,
        client_ip=client_ip,
        details=counts,
    )
    return counts


def _mark_erased(request_ids: Sequence[int], reason: str) -> None:
    ErasedRequest.objects.bulk_create(
        [ErasedRequest(request_id=request_id, reason=reason) for request_id in request_ids],
        ignore_conflicts=True,
    )


@transaction.atomic
def requests_content_erase(*, request_ids: Sequence[int]) -> dict[str, int]:
    """A retention window's erasure of the requests' content (both sides of the thread, the
    attachments, the survey answers, the notes, the rating comments)."""
    counts = {
        "files": uploads_erase_for_requests(request_ids=request_ids),
        "survey_answers": survey_answers_erase_for_requests(request_ids=request_ids),
        "messages_erased": requests_erase_content(request_ids=request_ids),
        "notes": notes_erase(request_ids=request_ids),
        "ratings": ratings_erase_comments(request_ids=request_ids),
    }
    _mark_erased(request_ids, ErasedRequest.Reason.RETENTION)
    return counts
