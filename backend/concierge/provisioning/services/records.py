"""The employer's records of people, written by SCIM and the roster import alike: one set of
rules for creating, changing, deactivating and reactivating a company's `EmployeeRecord`.

Access itself changes only through accounts' membership services (`membership_join`,
`member_deactivate`, `member_reactivate`): they keep the `User.companies` row, which every
access check reads, in step with the record."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.accounts.selectors.memberships import company_may_claim_account
from concierge.accounts.services.memberships import (
    member_deactivate,
    member_reactivate,
    membership_join,
)
from concierge.accounts.services.profile import EmployerEmailRefused, email_change_by_employer
from concierge.provisioning.models import ScimDeletion

EMAIL_MAX = 254
NAME_MAX = 150
EMPLOYEE_ID_MAX = 100
EXTERNAL_ID_MAX = 255

# What no text column can store, though JSON can carry it: NUL and unpaired UTF-16 surrogates.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> bool:
    return _UNSTORABLE.search(text) is None


class RecordInvalid(ValueError):
    """A value the record cannot take; `field` names it, the message says why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


USER_NAME_TAKEN = "A user with this userName already exists."


class RecordExists(Exception):
    """Another record of the company (or another account) already has this email."""

    def __init__(self, email: str, message: str = USER_NAME_TAKEN) -> None:
        super().__init__(email)
        self.message = message


class RecordLocked(Exception):
    """The change is not the company's to make in the record's current state; the message
    says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class RecordFields:
    """What a SCIM resource or a roster row says about a person. None: not said (unchanged
    on an update, empty or active on a create)."""

    email: str
    first_name: str | None = None
    last_name: str | None = None
    employee_id: str | None = None
    external_id: str | None = None
    active: bool | None = None


def email_clean(value: object) -> str:
    """The address lower-case and trimmed, or RecordInvalid."""
    if not isinstance(value, str) or not value.strip():
        raise RecordInvalid("email", "An email address is required.")
    email = value.strip().lower()
    if not storable(email):
        raise RecordInvalid("email", "The email address has a character that is not allowed.")
    if len(email) > EMAIL_MAX:
        raise RecordInvalid("email", f"The email address is longer than {EMAIL_MAX} characters.")
    try:
        validate_email(email)
    except DjangoValidationError:
        raise RecordInvalid("email", f"'{value.strip()[:80]}' is not an email address.") from None
    return email


def text_clean(field: str, value: object, limit: int) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise RecordInvalid(field, f"{field} must be text.")
    text = value.strip()
    if not storable(text):
        raise RecordInvalid(field, f"{field} has a character that is not allowed.")
    if len(text) > limit:
        raise RecordInvalid(field, f"{field} is longer than {limit} characters.")
    return text


def fields_clean(fields: RecordFields) -> RecordFields:
    """The same fields checked and trimmed (RecordInvalid names the first bad one)."""

    def optional(field: str, value: str | None, limit: int) -> str | None:
        return None if value is None else text_clean(field, value, limit)

    return RecordFields(
        email=email_clean(fields.email),
        first_name=optional("first name", fields.first_name, NAME_MAX),
        last_name=optional("last name", fields.last_name, NAME_MAX),
        employee_id=optional("employee id", fields.employee_id, EMPLOYEE_ID_MAX),
        external_id=optional("externalId", fields.external_id, EXTERNAL_ID_MAX),
        active=fields.active,
    )


@transaction.atomic
def record_create(*, company: Company, fields: RecordFields, source: str) -> EmployeeRecord:
    """A new record of `company`, active unless `fields.active` is False. When an account
    with that email exists, it joins the company at once (`membership_join`); otherwise the
    record waits for the person, whose sign-up or company sign-in links it.

    A record the SCIM client deleted earlier comes back (a re-hire), found by its email or,
    under a new email, by its externalId; any other record with that email is RecordExists."""
    fields = fields_clean(fields)
    existing = (
        EmployeeRecord.objects.select_for_update()
        .filter(company=company, email=fields.email)
        .first()
    )
    if existing is not None:
        deleted = ScimDeletion.objects.filter(record=existing).delete()[0]
        if not deleted:
            raise RecordExists(fields.email)
        return record_update(record=existing, fields=_with_defaults(fields))
    rehired = _deleted_record_by_external_id(company, fields.external_id)
    if rehired is not None:
        ScimDeletion.objects.filter(record=rehired).delete()
        return record_update(record=rehired, fields=_with_defaults(fields))
    now = timezone.now()
    active = fields.active is not False
    try:
        with transaction.atomic():
            record = EmployeeRecord.objects.create(
                company=company,
                email=fields.email,
                first_name=fields.first_name or "",
                last_name=fields.last_name or "",
                employee_id=fields.employee_id or "",
                external_id=fields.external_id or "",
                active=active,
                source=source,
                deactivated_at=None if active else now,
                created_at=now,
                updated_at=now,
            )
    except IntegrityError:
        raise RecordExists(fields.email) from None
    return record_account_link(record)


def _deleted_record_by_external_id(
    company: Company, external_id: str | None
) -> EmployeeRecord | None:
    if not external_id:
        return None
    return (
        EmployeeRecord.objects.select_for_update()
        .filter(company=company, external_id=external_id, scim_deletion__isnull=False)
        .order_by("-scim_deletion__deleted_at")
        .first()
    )


def _with_defaults(fields: RecordFields) -> RecordFields:
    """A create's fields as a full replacement: what it leaves out is empty, active true."""
    return RecordFields(
        email=fields.email,
        first_name=fields.first_name or "",
        last_name=fields.last_name or "",
        employee_id=fields.employee_id or "",
        external_id=fields.external_id or "",
        active=fields.active is not False,
    )


@transaction.atomic
def record_update(*, record: EmployeeRecord, fields: RecordFields) -> EmployeeRecord:
    """Changes what `fields` says (None: unchanged), then deactivates or reactivates the
    membership when `active` changed. Doing it twice changes nothing the second time."""
    fields = fields_clean(fields)
    changed = record_fields_assign(record, fields)
    if "email" in changed and record.user_id is not None:
        _account_email_follow(record)
    if changed:
        record.updated_at = timezone.now()
        try:
            with transaction.atomic():
                record.save(update_fields=[*changed, "updated_at"])
        except IntegrityError:
            raise RecordExists(fields.email) from None
    if fields.active is False:
        member_deactivate(record=record)
        record = record_account_link(record)
    elif fields.active is True:
        if not record.active or (
            record.user_id is not None
            and not record.user.companies.filter(pk=record.company_id).exists()  # type: ignore[union-attr]
        ):
            member_reactivate(record=record)
        record = record_account_link(record)
    return record


def _account_email_follow(record: EmployeeRecord) -> None:
    """The linked account takes the record's new email, when the company may change it
    (`email_change_by_employer`); otherwise the whole update is refused."""
    try:
        email_change_by_employer(user=record.user, company=record.company, email=record.email)  # type: ignore[arg-type]
    except EmployerEmailRefused as exc:
        if exc.reason == EmployerEmailRefused.OUTSIDE:
            raise RecordInvalid("email", exc.message) from None
        if exc.reason == EmployerEmailRefused.TAKEN:
            raise RecordExists(record.email, exc.message) from None
        raise RecordLocked(exc.message) from None


def record_fields_assign(record: EmployeeRecord, fields: RecordFields) -> list[str]:
    """Sets the given fields on `record`; the names of those that changed."""
    wanted = {
        "email": fields.email,
        "first_name": fields.first_name,
        "last_name": fields.last_name,
        "employee_id": fields.employee_id,
        "external_id": fields.external_id,
    }
    changed = []
    for name, value in wanted.items():
        if value is not None and getattr(record, name) != value:
            setattr(record, name, value)
            changed.append(name)
    return changed


def record_account_link(record: EmployeeRecord) -> EmployeeRecord:
    """Links a record without an account to the account with its email, if there is one and
    the company may claim it (`company_may_claim_account`: a member, or an address at the
    company's own domains; an employer's list naming another company's employee leaves the
    record waiting for that person to join). Active: that person joins the company.
    Inactive: linked, and if they were a member (one who joined before the employer's list
    said otherwise) that membership ends."""
    if record.user_id is not None:
        return record
    user = User.objects.filter(email__iexact=record.email, is_active=True).first()
    if user is None or not company_may_claim_account(company=record.company, user=user):
        return record
    if record.active:
        return membership_join(
            user=user, company=record.company, source=record.source, employee_id=record.employee_id
        )
    was_member = user.companies.filter(pk=record.company_id).exists()
    record.user = user
    record.active = was_member  # so that member_deactivate ends the membership
    record.save(update_fields=["user", "active"])
    member_deactivate(record=record)
    return record


@transaction.atomic
def record_scim_delete(*, record: EmployeeRecord) -> None:
    """SCIM DELETE: the membership ends as for `active: false`, and SCIM no longer shows the
    record (404). The record, the account and its requests stay."""
    member_deactivate(record=record)
    ScimDeletion.objects.get_or_create(record=record)
