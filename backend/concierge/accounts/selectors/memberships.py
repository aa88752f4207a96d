"""Memberships: whether a person's access through their employers has ended, and a company's
people as its admin sees them (status, join date, last sign-in; never request content)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Lower

from concierge.accounts.models import AuthToken, Company, CompanyInvite, EmployeeRecord, User
from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.common.errors import NotFound
from concierge.common.text_search import search_words

MEMBER_NOT_FOUND = "We couldn't find that person in your company."


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


def company_may_claim_account(*, company: Company, user: User, by_domain: bool = True) -> bool:
    """Whether `company`'s own lists (SCIM, a roster import) or its identity provider may take
    in this existing account: one already linked to the company (a member, or a record that
    was linked to it), or (`by_domain`) an address at the company's own domains, which the
    operator sets in Django admin. An employer's list naming someone else's address never pulls that account
    into the company, nor lets its provider sign it in."""
    if user.companies.filter(pk=company.pk).exists():
        return True
    if EmployeeRecord.objects.filter(company=company, user=user).exists():
        return True
    return by_domain and user.email.rpartition("@")[2].lower() in company.email_domains


def account_is_only_companys(*, user: User, company: Company) -> bool:
    """Whether `company` is the only one that knows this account (no other company's
    membership or record of it) and it is not a staff or concierge account: what lets the
    company's own directory change the account's address."""
    if user.is_staff or user_is_concierge(user=user):
        return False
    if user.companies.exclude(pk=company.pk).exists():
        return False
    return not EmployeeRecord.objects.filter(user=user).exclude(company=company).exists()


class MemberStatus:
    ACTIVE = "active"
    DEACTIVATED = "deactivated"
    NOT_JOINED = "not_joined"  # on the roster (SCIM, an import), no account yet
    CLOSED = "closed"  # the person's account was closed (erased): nothing left to change


@dataclass(frozen=True)
class MemberRow:
    """One person on a company's members page: who they are to the employer, never anything
    about their requests."""

    record_id: int
    email: str
    first_name: str
    last_name: str
    employee_id: str
    status: str
    source: str
    joined_at: datetime | None
    deactivated_at: datetime | None
    last_sign_in_at: datetime | None
    user_id: int | None


def _member_status(record: EmployeeRecord) -> str:
    """Access follows the membership row alone: a record without one (deactivated, or taken
    out by hand) shows as deactivated; a closed account as closed, whatever the rows say."""
    if record.user is not None and not record.user.is_active:
        return MemberStatus.CLOSED
    if record.is_member:  # type: ignore[attr-defined]
        return MemberStatus.ACTIVE
    if record.active and record.user_id is None:
        return MemberStatus.NOT_JOINED
    return MemberStatus.DEACTIVATED


def _search(records: QuerySet[EmployeeRecord], text: str) -> QuerySet[EmployeeRecord]:
    """Every word of `text` in the name, email or employee id (the record's or the account's)."""
    for word in search_words(text):
        records = records.filter(
            Q(email__icontains=word)
            | Q(employee_id__icontains=word)
            | Q(first_name__icontains=word)
            | Q(last_name__icontains=word)
            | Q(user__first_name__icontains=word)
            | Q(user__last_name__icontains=word)
        )
    return records


def _membership(company: Company) -> Exists:
    """Whether the record's person has the membership row (their access) right now."""
    return Exists(
        User.companies.through.objects.filter(user_id=OuterRef("user_id"), company_id=company.pk)
    )


def _annotated(company: Company) -> QuerySet[EmployeeRecord]:
    return EmployeeRecord.objects.filter(company=company).annotate(is_member=_membership(company))


def _with_details(records: QuerySet[EmployeeRecord]) -> QuerySet[EmployeeRecord]:
    """The account and the last sign-in (the newest session's start) in the same query."""
    last_session = (
        AuthToken.objects.filter(user_id=OuterRef("user_id"))
        .order_by("-created_at")
        .values("created_at")[:1]
    )
    return records.select_related("user").annotate(last_sign_in_at=Subquery(last_session))


def company_members_page(
    *, company: Company, search: str = "", status: str = "", offset: int = 0, limit: int = 25
) -> tuple[int, list[MemberRow]]:
    """A page of the company's people by name, and how many match: two queries whatever the
    page's size."""
    records = _search(_annotated(company), search)
    if status == MemberStatus.ACTIVE:
        records = records.filter(_membership(company), user__is_active=True)
    elif status == MemberStatus.NOT_JOINED:
        records = records.filter(~_membership(company), active=True, user__isnull=True)
    elif status == MemberStatus.DEACTIVATED:
        records = (
            records.filter(~_membership(company))
            .exclude(active=True, user__isnull=True)
            .exclude(user__is_active=False)
        )
    elif status == MemberStatus.CLOSED:
        records = records.filter(user__is_active=False)
    total = records.count()
    page = _with_details(records).order_by(Lower("last_name"), Lower("first_name"), "email", "pk")[
        offset : offset + limit
    ]
    return total, [_member_row(record) for record in page]


def _member_row(record: EmployeeRecord) -> MemberRow:
    user = record.user
    return MemberRow(
        record_id=record.pk,
        email=record.email,
        first_name=record.first_name or (user.first_name if user else ""),
        last_name=record.last_name or (user.last_name if user else ""),
        employee_id=record.employee_id,
        status=_member_status(record),
        source=record.source,
        joined_at=record.joined_at,
        deactivated_at=record.deactivated_at,
        last_sign_in_at=record.last_sign_in_at,  # type: ignore[attr-defined]
        user_id=record.user_id,
    )


def company_record_get(*, company: Company, record_id: int) -> EmployeeRecord:
    """The company's record `record_id` (NotFound for another company's)."""
    record = EmployeeRecord.objects.filter(company=company, pk=record_id).first()
    if record is None:
        raise NotFound(MEMBER_NOT_FOUND)
    return record


def company_member_row(*, company: Company, record_id: int) -> MemberRow:
    """One person of the company as the members page lists them (NotFound for another
    company's)."""
    record = _with_details(_annotated(company).filter(pk=record_id)).first()
    if record is None:
        raise NotFound(MEMBER_NOT_FOUND)
    return _member_row(record)


def company_invites(*, company: Company, limit: int = 100) -> list[CompanyInvite]:
    """The company's newest invite links (only their hashes are stored)."""
    return list(
        CompanyInvite.objects.filter(company=company).order_by("-created_at", "-pk")[:limit]
    )
