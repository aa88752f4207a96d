"""Memberships: a person joining a company, and the employer's record of them
(`EmployeeRecord`). A row in `User.companies` is the active membership every access check
reads; these services keep it and the record in step."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.common.errors import PermissionDenied

MEMBERSHIP_ENDED = (
    "Your access through {company} has ended. If this is a mistake, please contact your employer."
)


class MembershipEnded(PermissionDenied):
    """The company's record of this person is deactivated: they may not join it again."""

    def __init__(self, company: Company) -> None:
        super().__init__(MEMBERSHIP_ENDED.format(company=company.name))


@transaction.atomic
def membership_join(
    *,
    user: User,
    company: Company,
    source: str,
    employee_id: str = "",
) -> EmployeeRecord:
    """Makes `user` an active member of `company` and links (or creates) the company's record
    of them. Refused with MembershipEnded when the employer deactivated that record."""
    now = timezone.now()
    record, created = EmployeeRecord.objects.select_for_update().get_or_create(
        company=company,
        email=user.email.lower(),
        defaults={
            "user": user,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "employee_id": employee_id,
            "source": source,
            "joined_at": now,
        },
    )
    if not created:
        if not record.active:
            raise MembershipEnded(company)
        record.user = user
        record.joined_at = record.joined_at or now
        record.employee_id = record.employee_id or employee_id
        record.updated_at = now
        record.save(update_fields=["user", "joined_at", "employee_id", "updated_at"])
    user.companies.add(company)
    return record
