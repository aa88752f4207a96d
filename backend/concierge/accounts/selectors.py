"""Account reads."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.contrib.auth.models import Group
from django.db import connection, models
from django.db.models import Prefetch, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from concierge.accounts.mfa_selectors import user_has_mfa_factor
from concierge.accounts.models import AuthToken, Company, MfaFactor, OnboardingAnswer, User
from concierge.accounts.onboarding import ADDRESS_PARTS, TEXT, YES_NO, Answer
from concierge.common.formatting import PHONE_DIGITS, address_line, phone_digits, phone_display
from concierge.common.read_cache import owner_versions_sql
from concierge.common.sql_rows import ModelColumns
from concierge.common.tokens import token_hash

CONCIERGE_GROUP = "Concierges"


def companies_prefetch(*, path: str) -> Prefetch:
    """Prefetches the companies at `path` (e.g. "user__companies") by name."""
    return Prefetch(path, queryset=Company.objects.order_by("name"))


def user_mfa_required(*, user: User) -> bool:
    """Whether this user's sessions need a passed MFA step: an enrolled phone, authenticator app
    or passkey, or a company rule."""
    if user.mfa_phone or user_has_mfa_factor(user=user):
        return True
    known = getattr(user, "company_requires_mfa", None)  # set by auth_token_get_active
    if known is not None:
        return bool(known)
    return any(company.requires_mfa for company in user.companies.all())


def user_email_verification_pending(*, user: User) -> bool:
    """Whether some company of `user` hides its content until the email address is verified."""
    return user.email_verified_at is None and any(
        company.requires_verified_email for company in user.companies.all()
    )


def user_companies_with_content(*, user: User) -> list[Company]:
    """`user`'s companies whose content (benefits, targeted offers, the sponsoring block) they
    may see: a work-email company only once the address is verified."""
    return [
        company
        for company in user.companies.all()
        if user.email_verified_at is not None or not company.requires_verified_email
    ]


def companies_with_content_queryset(*, user: User) -> QuerySet[Company]:
    """The same companies as `user_companies_with_content`, as a query to filter by."""
    companies = Company.objects.filter(members=user)
    if user.email_verified_at is None:
        companies = companies.exclude(join_policy=Company.JoinPolicy.EMAIL_DOMAIN)
    return companies


def user_is_concierge(*, user: User) -> bool:
    if user.is_superuser:
        return True
    known = getattr(user, "in_concierge_group", None)  # set by auth_token_get_active
    if known is not None:
        return bool(known)
    return any(g.name == CONCIERGE_GROUP for g in user.groups.all())


def _membership_exists(
    through: type[models.Model],
    target: type[models.Model],
    where: str,
    user_id: str = f"{AuthToken._meta.db_table}.user_id",
) -> str:
    """SQL: does the user in `user_id` (the session's, by default) have a membership row whose
    target matches `where`?"""
    return (
        f"EXISTS (SELECT 1 FROM {through._meta.db_table} m "  # noqa: S608 (model table names)
        f"JOIN {target._meta.db_table} t ON t.id = m.{target._meta.model_name}_id "
        f"WHERE m.user_id = {user_id} AND {where})"
    )


# Plain SQL fragments: every API request runs this query, and the ORM's subquery expressions
# cost more CPU to compile than the query takes to run.
_COMPANY_REQUIRES_MFA_SQL = _membership_exists(User.companies.through, Company, "t.requires_mfa")
_HAS_MFA_FACTOR_SQL = (
    f"EXISTS (SELECT 1 FROM {MfaFactor._meta.db_table} f "  # noqa: S608 (model table names)
    f"WHERE f.user_id = {AuthToken._meta.db_table}.user_id AND f.confirmed_at IS NOT NULL)"
)
_IN_CONCIERGE_GROUP_SQL = _membership_exists(User.groups.through, Group, "t.name = %s")
_IN_CONCIERGE_GROUP = RawSQL(  # noqa: S611 (the group name is a bound parameter)
    _IN_CONCIERGE_GROUP_SQL, (CONCIERGE_GROUP,), output_field=models.BooleanField()
)
_TOKEN_COLUMNS = ModelColumns(AuthToken, AuthToken._meta.db_table)
_USER_COLUMNS = ModelColumns(User, "u")


@cache
def _session_sql() -> str:
    """The session query (`auth_token_get_active`), written once: the ORM took ten times
    longer to compile it than the database takes to answer it. Parameters: the concierge
    group's name, the token's hash, now."""
    tokens = AuthToken._meta.db_table
    return (
        f"SELECT {_TOKEN_COLUMNS.sql}, {_USER_COLUMNS.sql}, "  # noqa: S608 (model tables)
        f"{_COMPANY_REQUIRES_MFA_SQL}, {_IN_CONCIERGE_GROUP_SQL}, {_HAS_MFA_FACTOR_SQL}, "
        f"{owner_versions_sql(f'{tokens}.user_id').sql} "
        f"FROM {tokens} JOIN {User._meta.db_table} u ON u.id = {tokens}.user_id "
        f"WHERE {tokens}.key_hash = %s AND {tokens}.revoked_at IS NULL "
        f"AND {tokens}.expires_at > %s AND u.is_active"
    )  # key_hash is unique: one row at most


def auth_token_get_active(*, raw_token: str) -> AuthToken | None:
    """The live session with its user, in ONE query. What every request needs from the user's
    memberships and factors comes along as EXISTS answers, read by `user_mfa_required` and
    `user_is_concierge`, and so does the version of the user's cached reads (common.read_cache:
    `user.read_version`), read before anything the request loads."""
    with connection.cursor() as cursor:
        cursor.execute(_session_sql(), [CONCIERGE_GROUP, token_hash(raw_token), timezone.now()])
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(_TOKEN_COLUMNS)
    auth_token = _TOKEN_COLUMNS.instance(row[:split])
    user = _USER_COLUMNS.instance(row[split : split + len(_USER_COLUMNS)])
    requires_mfa, in_concierge_group, has_mfa_factor, read_version = row[-4:]
    user.company_requires_mfa = bool(requires_mfa)  # type: ignore[attr-defined]
    user.in_concierge_group = bool(in_concierge_group)  # type: ignore[attr-defined]
    user.has_mfa_factor = bool(has_mfa_factor)  # type: ignore[attr-defined]
    user.read_version = read_version  # type: ignore[attr-defined]
    auth_token.user = user
    return auth_token


def auth_token_get_active_by_id(*, token_id: int) -> AuthToken | None:
    """A session by its id (for a signed stream ticket), if it is still signed in, with its user
    and whether they are a concierge (`user_is_concierge`): one short query."""
    found = list(
        AuthToken.objects.select_related("user")
        .annotate(in_concierge_group=_IN_CONCIERGE_GROUP)
        .filter(
            pk=token_id,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
            user__is_active=True,
        )[:1]
    )
    if not found:
        return None
    auth_token = found[0]
    auth_token.user.in_concierge_group = auth_token.in_concierge_group  # type: ignore[attr-defined]
    return auth_token


def user_full_name(*, user_id: int) -> str:
    return User.objects.only("first_name", "last_name").get(pk=user_id).full_name


def concierge_list() -> list[User]:
    """Every active concierge (the Concierges group, and superusers), by name."""
    return list(
        User.objects.filter(is_active=True)
        .filter(models.Q(groups__name=CONCIERGE_GROUP) | models.Q(is_superuser=True))
        .distinct()
        .order_by("first_name", "last_name", "id")
    )


@cache
def _concierge_names_sql() -> str:
    """`concierge_names`'s query, written once (the desk reads it with every request it
    opens). Parameter: the concierge group's name."""
    in_group = _membership_exists(User.groups.through, Group, "t.name = %s", user_id="u.id")
    return (
        f"SELECT u.id, u.first_name, u.last_name FROM {User._meta.db_table} u "  # noqa: S608 (model tables)
        f"WHERE u.is_active AND (u.is_superuser OR {in_group}) "
        f"ORDER BY u.first_name, u.last_name, u.id"
    )


def concierge_names() -> list[tuple[int, str]]:
    """Every active concierge's id and full name, by name (the same people as
    `concierge_list`), in one short query."""
    with connection.cursor() as cursor:
        cursor.execute(_concierge_names_sql(), [CONCIERGE_GROUP])
        rows = cursor.fetchall()
    return [(pk, User(first_name=first, last_name=last).full_name) for pk, first, last in rows]


def user_initials(*, full_name: str) -> str:
    """First letter of the first word plus first letter of the last word (spec §3)."""
    words = full_name.split()
    if not words:
        return ""
    if len(words) == 1:
        return words[0][0].upper()
    return (words[0][0] + words[-1][0]).upper()


def onboarding_answers_for_user(*, user: User) -> dict[int, object]:
    return {a.answer_id: a.value for a in OnboardingAnswer.objects.filter(user=user)}


@dataclass(frozen=True)
class OnboardingItem:
    answer_id: int
    label: str
    value: str


@dataclass(frozen=True)
class EmployeeProfile:
    """What an employee told us at onboarding, as the desk shows it and surveys pre-fill it."""

    yes_no: dict[int, bool]  # answered yes/no questions by id
    texts: dict[int, str]  # answered text questions by id, trimmed
    phone_digits: str | None  # the phone's 10 digits
    phone: str | None  # as people read it: (555) 010-2030
    preferred_email: str | None
    address: str | None  # on one line: the address answer, else its parts
    onboarding: list[OnboardingItem]  # every answer with its label, yes/no ones first


def _answer_text(value: object) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def employee_profile(*, user: User) -> EmployeeProfile:
    """`user`'s onboarding answers, labelled and with their contact details: one query."""
    answers = onboarding_answers_for_user(user=user)
    yes_no = {a.value: v for a in YES_NO if isinstance(v := answers.get(a.value), bool)}
    texts = {a.value: t for a in TEXT if (t := _answer_text(answers.get(a.value)))}
    digits = phone_digits(texts.get(Answer.PHONE, ""))
    if len(digits) == PHONE_DIGITS:
        texts[Answer.PHONE] = phone_display(digits)
    address = texts.get(Answer.ADDRESS) or address_line(texts.get(p, "") for p in ADDRESS_PARTS)
    items = [
        OnboardingItem(a.value, a.label, "Yes" if yes_no[a] else "No")
        for a in YES_NO
        if a in yes_no
    ]
    items += [OnboardingItem(a.value, a.label, texts[a]) for a in TEXT if a in texts]
    return EmployeeProfile(
        yes_no=yes_no,
        texts=texts,
        phone_digits=digits if len(digits) == PHONE_DIGITS else None,
        phone=texts.get(Answer.PHONE),
        preferred_email=texts.get(Answer.PREFERRED_EMAIL),
        address=address or None,
        onboarding=items,
    )
