"""Reading the provisioning side: which company a SCIM token speaks for, and the records a
SCIM client sees (those of its company that it has not deleted)."""

from __future__ import annotations

import re

from django.db.models import QuerySet

from concierge.accounts.models import Company, EmployeeRecord
from concierge.common.tokens import token_hash
from concierge.provisioning.models import ScimToken


def scim_token_by_raw(*, raw: str) -> ScimToken | None:
    """The token row for a presented bearer token (its company selected), or None."""
    if not raw or len(raw) > 200:
        return None
    return ScimToken.objects.select_related("company").filter(token_hash=token_hash(raw)).first()


def scim_token_of(*, company: Company) -> ScimToken | None:
    return ScimToken.objects.filter(company=company).first()


def scim_records(*, company: Company) -> QuerySet[EmployeeRecord]:
    """The company's records as SCIM resources: never another company's, never deleted ones."""
    return EmployeeRecord.objects.filter(company=company, scim_deletion__isnull=True).order_by("pk")


def scim_record(*, company: Company, record_id: str) -> EmployeeRecord | None:
    """One record of the company by its SCIM id (the record's id as text), or None."""
    if not re.fullmatch(r"[0-9]{1,18}", record_id):
        return None
    return scim_records(company=company).filter(pk=int(record_id)).first()


def company_records_by_email(*, company: Company) -> dict[str, EmployeeRecord]:
    return {r.email: r for r in EmployeeRecord.objects.filter(company=company)}
