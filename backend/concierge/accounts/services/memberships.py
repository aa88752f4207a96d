"""Memberships: a person joining a company, and the employer's record of them
(`EmployeeRecord`). A row in `User.companies` is the active membership every access check
reads; these services keep it and the record in step."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.accounts.selectors.memberships import user_access_ended_company
from concierge.accounts.services.tokens import user_sessions_revoke
from concierge.audit import actions as audit_actions
from concierge.audit.middleware import request_actor
from concierge.audit.services import audit_record
from concierge.common.errors import PermissionDenied

MEMBERSHIP_ENDED = (
    "Your access through {company} has ended. If this is a mistake, please contact your employer."
)


class MembershipEnded(PermissionDenied):
    """The company's record of this person is deactivated: they may not join it again."""

    def __init__(self, company: Company) -> None:
        super().__init__(MEMBERSHIP_ENDED.format(company=company.name))


def sign_in_membership_check(*, user: User) -> None:
    """Refuses (MembershipEnded, 403) a sign-in of someone whose access through their
    employers has all ended (see `user_access_ended_company`). Every way of signing in
    (password, passkey, company SSO) calls it once the credentials are proven, so a wrong
    password never learns whether the account was deactivated."""
    company = user_access_ended_company(user=user)
    if company is not None:
        raise MembershipEnded(company)


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


def _locked(record: EmployeeRecord) -> EmployeeRecord:
    return (
        EmployeeRecord.objects.select_for_update(of=("self",))
        .select_related("company", "user")
        .get(pk=record.pk)
    )


@transaction.atomic
def member_deactivate(*, record: EmployeeRecord) -> None:
    """Ends the person's membership of the record's company (SCIM `active: false` or delete,
    a roster import, the company admin). The membership row goes, so nothing grants that
    company's access any more; if no active membership is left and they are not staff, every
    session is signed out and their open event streams end (`user_sessions_revoke`). Their
    requests stay. Doing it twice changes nothing. The company's log records who did it (the
    request's person, in the role the caller acts in: audit `acting_as`)."""
    locked = _locked(record)
    changed = locked.active
    if locked.active:
        now = timezone.now()
        locked.active = False
        locked.deactivated_at = now
        locked.updated_at = now
        locked.save(update_fields=["active", "deactivated_at", "updated_at"])
    if locked.user is not None:
        changed = _membership_remove(locked.user, locked.company) or changed
    if changed:
        _membership_change_record(audit_actions.MEMBER_DEACTIVATED, locked)
    _copy_state(locked, record)


def _membership_remove(user: User, company: Company) -> bool:
    """Removes the membership row (also one added back by hand while the record stayed
    deactivated) and signs out someone left with no access at all; whether there was one."""
    removed, _ = User.companies.through.objects.filter(user=user, company=company).delete()
    if removed and user_access_ended_company(user=user) is not None:
        user_sessions_revoke(user=user, actor=request_actor())
    return bool(removed)


def _membership_change_record(action: str, record: EmployeeRecord) -> None:
    audit_record(
        action=action,
        actor=request_actor(),
        target_type="employee_record",
        target_id=record.pk,
        company_id=record.company_id,
    )


@transaction.atomic
def member_reactivate(*, record: EmployeeRecord) -> None:
    """Gives access back: the record is active again and, when it is linked to an account,
    the membership row is back (the person signs in again; old sessions stay signed out)."""
    locked = _locked(record)
    if not locked.active or (
        locked.user is not None and not locked.user.companies.filter(pk=locked.company_id).exists()
    ):
        now = timezone.now()
        locked.active = True
        locked.deactivated_at = None
        locked.updated_at = now
        if locked.user is not None and locked.joined_at is None:
            locked.joined_at = now
        locked.save(update_fields=["active", "deactivated_at", "updated_at", "joined_at"])
        if locked.user is not None:
            locked.user.companies.add(locked.company)
        _membership_change_record(audit_actions.MEMBER_REACTIVATED, locked)
    _copy_state(locked, record)


def _copy_state(source: EmployeeRecord, target: EmployeeRecord) -> None:
    """The caller's instance shows what was saved."""
    for name in ("active", "deactivated_at", "joined_at", "updated_at"):
        setattr(target, name, getattr(source, name))


def company_records_ensure(*, company: Company) -> None:
    """Gives a record to each member who has none (added by hand in the Django admin, or by
    older demo data), so the members page lists everyone with access. One query when none is
    missing."""
    missing = list(
        User.objects.filter(companies=company)
        .exclude(employee_records__company=company)
        .only("pk", "email", "first_name", "last_name", "date_joined")
    )
    if missing:
        EmployeeRecord.objects.bulk_create(
            [
                EmployeeRecord(
                    company=company,
                    user=user,
                    email=user.email.lower(),
                    first_name=user.first_name,
                    last_name=user.last_name,
                    source=EmployeeRecord.Source.ADMIN,
                    joined_at=user.date_joined,
                )
                for user in missing
            ],
            ignore_conflicts=True,
        )


@transaction.atomic
def user_companies_set(*, user: User, companies: Iterable[Company]) -> None:
    """The Django admin's "Companies" field of a person: a company added joins them (or, when
    the employer had deactivated them, reactivates them); a company removed deactivates them
    there, as the company admin's button does (their sessions end when no access is left)."""
    wanted = {company.pk: company for company in companies}
    current = set(user.companies.values_list("pk", flat=True))
    for company_pk in current - wanted.keys():
        member_deactivate(record=_record_for(user, Company.objects.get(pk=company_pk)))
    for company_pk in wanted.keys() - current:
        record = _record_for(user, wanted[company_pk])
        if record.active:
            membership_join(user=user, company=wanted[company_pk], source=record.source)
        else:
            member_reactivate(record=record)


def _record_for(user: User, company: Company) -> EmployeeRecord:
    record, _ = EmployeeRecord.objects.get_or_create(
        company=company,
        email=user.email.lower(),
        defaults={
            "user": user,
            "first_name": user.first_name,
            "last_name": user.last_name,
            "source": EmployeeRecord.Source.ADMIN,
            "joined_at": timezone.now(),
        },
    )
    return record
