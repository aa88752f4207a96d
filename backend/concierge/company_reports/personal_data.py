"""The company admin role's part of a person's data (issue 27): an erased person keeps no role."""

from __future__ import annotations

from typing import Any

from concierge.company_reports.models import CompanyAdmin


def company_admin_roles_erase(*, user: Any) -> int:
    return CompanyAdmin.objects.filter(user=user).delete()[0]
