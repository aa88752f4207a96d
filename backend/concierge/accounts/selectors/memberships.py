"""Memberships: whether a person's access through their employers has ended."""

from __future__ import annotations

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.accounts.selectors.concierges import user_is_concierge


def user_access_ended_company(*, user: User) -> Company | None:
    """The company whose deactivation ended `user`'s access, or None while they may sign in.

    Access has ended for a person who is not staff (nor a concierge), has no active
    membership left and whose employer deactivated them (the latest such record names the
    company). Someone who never belonged to a company is left as before."""
    if user.is_staff or user_is_concierge(user=user):
        return None
    if user.companies.exists():
        return None
    record = (
        EmployeeRecord.objects.filter(user=user, active=False)
        .select_related("company")
        .order_by("-deactivated_at", "-pk")
        .first()
    )
    return None if record is None else record.company
