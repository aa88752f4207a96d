"""The concierges' staff group: its name opens the desk (selectors.concierges), its permissions
let its members look up what employees ask about in Django admin."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from concierge.accounts.selectors.concierges import CONCIERGE_GROUP

# Django admin's view permissions of these apps: the surveys an employee answered and the
# benefits and offers they asked about (changing them stays with admins).
CONCIERGE_VIEW_APPS = ("surveys", "offerings")


def concierge_group_ensure() -> tuple[Group, bool, list[str]]:
    """The Concierges group with its permissions: (the group, whether it was created now, the
    permissions it was given now, `app_label.codename`; none when it had them all)."""
    group, created = Group.objects.get_or_create(name=CONCIERGE_GROUP)
    wanted = Permission.objects.filter(
        content_type__app_label__in=CONCIERGE_VIEW_APPS, codename__startswith="view_"
    ).select_related("content_type")
    held = set(group.permissions.values_list("pk", flat=True))
    missing = [permission for permission in wanted if permission.pk not in held]
    group.permissions.add(*missing)
    return (
        group,
        created,
        sorted(f"{p.content_type.app_label}.{p.codename}" for p in missing),
    )
