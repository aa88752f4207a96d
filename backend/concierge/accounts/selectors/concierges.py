"""Concierges: the people of the 'Concierges' group, and superusers."""

from __future__ import annotations

from functools import cache

from django.contrib.auth.models import Group
from django.db import connection, models

from concierge.accounts.models import AuthToken, User

CONCIERGE_GROUP = "Concierges"


def audit_role(user: User | None) -> str:
    """The role an audit event names for `user`: superuser, concierge, staff or member."""
    if user is None:
        return "system"
    if user.is_superuser:
        return "superuser"
    if user_is_concierge(user=user):
        return "concierge"
    return "staff" if user.is_staff else "member"


def user_is_concierge(*, user: User) -> bool:
    if user.is_superuser:
        return True
    known = getattr(user, "in_concierge_group", None)  # set by auth_token_get_active
    if known is not None:
        return bool(known)
    return any(g.name == CONCIERGE_GROUP for g in user.groups.all())


def membership_exists(
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
    in_group = membership_exists(User.groups.through, Group, "t.name = %s", user_id="u.id")
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
