"""Sessions: the one query each API request runs for its signed-in user, with what the MFA gate
and the concierge check need to know; and a session by its id, for the live stream."""

from __future__ import annotations

from functools import cache

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import connection, models
from django.db.models.expressions import RawSQL
from django.utils import timezone

from concierge.accounts.models import AuthToken, Company, MfaFactor, User
from concierge.accounts.selectors.concierges import CONCIERGE_GROUP, membership_exists
from concierge.accounts.selectors.mfa import user_has_mfa_factor
from concierge.common.read_cache import owner_versions_sql
from concierge.common.sql_rows import ModelColumns
from concierge.common.tokens import token_hash


def user_mfa_required(*, user: User) -> bool:
    """Whether this user's sessions need a passed MFA step: an enrolled phone, authenticator app
    or passkey, or a company rule."""
    if user.mfa_phone or user_has_mfa_factor(user=user):
        return True
    known = getattr(user, "company_requires_mfa", None)  # set by auth_token_get_active
    if known is not None:
        return bool(known)
    return any(company.requires_mfa for company in user.companies.all())


# Plain SQL fragments: every API request runs this query, and the ORM's subquery expressions
# cost more CPU to compile than the query takes to run.
_COMPANY_REQUIRES_MFA_SQL = membership_exists(User.companies.through, Company, "t.requires_mfa")
_HAS_MFA_FACTOR_SQL = (
    f"EXISTS (SELECT 1 FROM {MfaFactor._meta.db_table} f "  # noqa: S608 (model table names)
    f"WHERE f.user_id = {AuthToken._meta.db_table}.user_id AND f.confirmed_at IS NOT NULL)"
)
_IN_CONCIERGE_GROUP_SQL = membership_exists(User.groups.through, Group, "t.name = %s")
_IN_CONCIERGE_GROUP = RawSQL(  # noqa: S611 (the group name is a bound parameter)
    _IN_CONCIERGE_GROUP_SQL, (CONCIERGE_GROUP,), output_field=models.BooleanField()
)
_TOKEN_COLUMNS = ModelColumns(AuthToken, AuthToken._meta.db_table)
_USER_COLUMNS = ModelColumns(User, "u")


@cache
def _session_sql(*, read_version: bool) -> str:
    """The session query (`auth_token_get_active`), written once: the ORM took ten times
    longer to compile it than the database takes to answer it. The user's read version only
    when cached reads are on (`read_version`): nothing else reads it. Parameters: the
    concierge group's name, the token's hash, now."""
    tokens = AuthToken._meta.db_table
    version = owner_versions_sql(f"{tokens}.user_id").sql if read_version else "NULL"
    return (
        f"SELECT {_TOKEN_COLUMNS.sql}, {_USER_COLUMNS.sql}, "  # noqa: S608 (model tables)
        f"{_COMPANY_REQUIRES_MFA_SQL}, {_IN_CONCIERGE_GROUP_SQL}, {_HAS_MFA_FACTOR_SQL}, "
        f"{version} "
        f"FROM {tokens} JOIN {User._meta.db_table} u ON u.id = {tokens}.user_id "
        f"WHERE {tokens}.key_hash = %s AND {tokens}.revoked_at IS NULL "
        f"AND {tokens}.expires_at > %s AND u.is_active"
    )  # key_hash is unique: one row at most


def auth_token_get_active(*, raw_token: str) -> AuthToken | None:
    """The live session with its user, in ONE query. What every request needs from the user's
    memberships and factors comes along as EXISTS answers, read by `user_mfa_required` and
    `user_is_concierge`, and so does the version of the user's cached reads when they are on
    (common.read_cache: `user.read_version`, else None), read before anything the request
    loads."""
    with connection.cursor() as cursor:
        cursor.execute(
            _session_sql(read_version=settings.CACHED_READS),
            [CONCIERGE_GROUP, token_hash(raw_token), timezone.now()],
        )
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


SIGNED_IN_DEVICES_MAX = 50


def user_sessions_signed_in(*, user: User) -> list[AuthToken]:
    """The sessions `user` is signed in with now (not signed out, not expired), newest first:
    the Account page's signed-in devices (one query, at most SIGNED_IN_DEVICES_MAX)."""
    return list(
        AuthToken.objects.filter(
            user=user, revoked_at__isnull=True, expires_at__gt=timezone.now()
        ).order_by("-created_at", "-pk")[:SIGNED_IN_DEVICES_MAX]
    )
