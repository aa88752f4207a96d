"""The SCIM client's bearer token of a company: created or rotated (shown once), revoked."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from concierge.accounts.models import Company, User
from concierge.audit import actions as audit_actions
from concierge.audit.middleware import request_actor
from concierge.audit.services import audit_record
from concierge.common.tokens import token_hash, token_new
from concierge.provisioning.models import ScimToken

TOKEN_PREFIX = "scim_"  # tells a leaked SCIM token apart from a session token at a glance


@transaction.atomic
def scim_token_rotate(*, company: Company, created_by: User | None) -> tuple[str, ScimToken]:
    """A new token for the company's SCIM client; the previous one stops working at once.
    Returns the raw token (to show once) and its row."""
    replaced, _ = ScimToken.objects.filter(company=company).delete()
    raw = TOKEN_PREFIX + token_new()[0]
    row = ScimToken.objects.create(
        company=company, token_hash=token_hash(raw), created_by=created_by
    )
    audit_record(
        action=audit_actions.SCIM_TOKEN_CHANGED,
        actor=request_actor(),
        actor_role=audit_actions.COMPANY_ADMIN_ROLE,
        target_type="scim_token",
        target_id=row.pk,
        company_id=company.pk,
        details={"change": "rotated" if replaced else "created"},
    )
    return raw, row


def scim_token_revoke(*, company: Company) -> None:
    """No SCIM client of the company is accepted any more."""
    ScimToken.objects.filter(company=company).delete()
    audit_record(
        action=audit_actions.SCIM_TOKEN_CHANGED,
        actor=request_actor(),
        actor_role=audit_actions.COMPANY_ADMIN_ROLE,
        target_type="scim_token",
        target_id="",
        company_id=company.pk,
        details={"change": "revoked"},
    )


def scim_token_used(*, token: ScimToken) -> None:
    """Notes when the token was last used, at most once a minute (no write per request)."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        ScimToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
