"""Retention windows: the daily job that erases the content of requests completed longer ago
than their company's window, and deletes expired export zips."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

from django.utils import timezone

from concierge.audit import actions
from concierge.audit.services import audit_record
from concierge.privacy.models import ErasedRequest, RetentionPolicy
from concierge.privacy.services.erasure import requests_content_erase
from concierge.privacy.services.export import data_exports_prune
from concierge.servicerequests.personal_data import requests_completed_before


def retention_run(*, now: datetime | None = None) -> dict[str, int]:
    """One run: each company's window, then the expired exports; records 'retention.run'."""
    now = now or timezone.now()
    totals: Counter[str] = Counter()
    policies = RetentionPolicy.objects.filter(erase_completed_after_days__isnull=False)
    for policy in policies.order_by("company_id"):
        before = now - timedelta(days=policy.erase_completed_after_days or 0)
        due = requests_completed_before(company_ids=[policy.company_id], before=before)
        erased = set(
            ErasedRequest.objects.filter(request_id__in=due).values_list("request_id", flat=True)
        )
        request_ids = [request_id for request_id in due if request_id not in erased]
        if request_ids:
            totals.update(requests_content_erase(request_ids=request_ids))
            totals["requests"] += len(request_ids)
            totals["companies"] += 1
    totals["exports_pruned"] = data_exports_prune(now=now)
    summary = {"requests": 0, "companies": 0, **totals}
    audit_record(action=actions.RETENTION_RUN, actor_role="system", details=summary)
    return summary
