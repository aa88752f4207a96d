"""The audit trail: an append-only, hash-chained log of security- and privacy-relevant events."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class AuditEvent(models.Model):
    """One event. The actor and the company are plain ids (not foreign keys): an entry must
    outlive, unchanged, the account and the company it names, or its hash would break.

    `hash` is SHA-256 over the entry's canonical fields and `previous_hash`, the hash of the
    entry written before it (services.chain_hash); `manage.py audit_verify` walks the chain."""

    occurred_at = models.DateTimeField(default=timezone.now, db_index=True)
    actor_id = models.BigIntegerField(null=True, blank=True)
    actor_role = models.CharField(max_length=32, blank=True)
    client_ip = models.CharField(max_length=64, blank=True)
    action = models.CharField(max_length=64)
    target_type = models.CharField(max_length=64, blank=True)
    target_id = models.CharField(max_length=64, blank=True)
    company_id = models.BigIntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    previous_hash = models.CharField(max_length=64, blank=True)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(
                fields=["actor_id", "action", "target_type", "target_id", "-occurred_at"],
                name="audit_actor_target_idx",
            ),
            models.Index(fields=["target_type", "target_id", "action"], name="audit_target_idx"),
            models.Index(fields=["company_id", "-id"], name="audit_company_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.occurred_at:%Y-%m-%d %H:%M:%S} {self.action}"

    def save(self, *args: object, **kwargs: object) -> None:
        """Append-only: an entry is written once (services.audit_record), never changed."""
        if not self._state.adding:
            raise ValueError("Audit events are append-only")
        super().save(*args, **kwargs)  # type: ignore[arg-type]
