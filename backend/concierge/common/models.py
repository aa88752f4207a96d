"""What cached reads are checked against (read_cache): one version per owner of cached data."""

from __future__ import annotations

from django.db import models


class ReadVersion(models.Model):
    """The current version of what one owner's cached reads show: an employee's requests and
    threads (`owner_id` is the user's id), or data every cached read shows (`SHARED_OWNER`).

    Database triggers on every table those reads read set a new random version in the same
    transaction as the write (read_versions.py), whatever makes it: a service, the admin, a
    cascade, a bulk update or raw SQL. A cached value is served only under the version it was
    read under, so no write can leave an old value looking current."""

    owner_id = models.BigIntegerField(primary_key=True)
    version = models.CharField(max_length=32)

    class Meta:
        verbose_name = "read version"

    def __str__(self) -> str:
        return f"{self.owner_id}: {self.version}"
