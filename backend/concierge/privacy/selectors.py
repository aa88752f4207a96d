"""Reads for the employee's screens: when a request's content will be erased."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from concierge.accounts.personal_data import account_company_ids
from concierge.privacy.models import ErasedRequest, RetentionPolicy
from concierge.servicerequests.choices import RequestStatus
from concierge.servicerequests.personal_data import request_retention_facts

COMPLETED = RequestStatus.CLOSED


@dataclass(frozen=True)
class RequestRetention:
    erase_on: date | None  # when a retention window will erase it (UTC date)
    erased: bool


def retention_days_for_user(*, user: Any) -> int | None:
    """The shortest retention window among the person's companies (None: no window)."""
    days = RetentionPolicy.objects.filter(
        company_id__in=account_company_ids(user=user), erase_completed_after_days__isnull=False
    ).values_list("erase_completed_after_days", flat=True)
    return min((d for d in days if d is not None), default=None)


def request_retention(*, user: Any, request_id: int) -> RequestRetention:
    """For `user`'s own request (NotFound for another's)."""
    status, completed_at = request_retention_facts(user=user, request_id=request_id)
    erased = ErasedRequest.objects.filter(request_id=request_id).exists()
    days = retention_days_for_user(user=user)
    if erased or status != COMPLETED or completed_at is None or days is None:
        return RequestRetention(erase_on=None, erased=erased)
    return RequestRetention(erase_on=(completed_at + timedelta(days=days)).date(), erased=False)
