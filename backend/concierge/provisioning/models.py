"""Provisioning: the employer's identity provider (SCIM 2.0) or roster file keeps the
company's `accounts.EmployeeRecord`s; these are the provisioning side's own rows."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ScimToken(models.Model):
    """The bearer token of one company's SCIM client (Okta, Microsoft Entra, ...). One per
    company: rotating replaces it. Only its SHA-256 is stored; the token is shown once."""

    company = models.OneToOneField(
        "accounts.Company", on_delete=models.CASCADE, related_name="scim_token"
    )
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = "SCIM token"

    def __str__(self) -> str:
        return f"SCIM token of {self.company}"


class ScimDeletion(models.Model):
    """A record the SCIM client deleted: its membership ended and SCIM answers 404 for it
    (RFC 7644 §3.6), while the record stays for the employer's report and a later
    re-hire (a new SCIM create of the same userName brings it back)."""

    record = models.OneToOneField(
        "accounts.EmployeeRecord",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="scim_deletion",
    )
    deleted_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"SCIM deletion of {self.record_id}"
