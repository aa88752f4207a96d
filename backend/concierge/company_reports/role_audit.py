"""The company admin role's grants and removals in the audit trail, however made."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save

from concierge.accounts.role_audit import role_change_record
from concierge.company_reports.models import CompanyAdmin


def _granted(
    sender: type[CompanyAdmin], instance: CompanyAdmin, created: bool, **kwargs: Any
) -> None:
    if created:
        role_change_record(
            user_id=instance.user_id,
            role="company admin",
            change="granted",
            company_id=instance.company_id,
        )


def _removed(sender: type[CompanyAdmin], instance: CompanyAdmin, **kwargs: Any) -> None:
    role_change_record(
        user_id=instance.user_id,
        role="company admin",
        change="removed",
        company_id=instance.company_id,
    )


def connect() -> None:
    post_save.connect(_granted, sender=CompanyAdmin, dispatch_uid="audit_company_admin_granted")
    post_delete.connect(_removed, sender=CompanyAdmin, dispatch_uid="audit_company_admin_removed")
