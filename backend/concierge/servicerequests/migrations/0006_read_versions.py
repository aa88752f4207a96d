"""Read-version triggers for the employee's cached request lists and threads (cached_reads):
every table those reads show gives the owning employee's cached reads a new version in the
same transaction as the write (common.read_versions)."""

from django.db import migrations

from concierge.common.read_versions import SHARED_OWNER, read_version_triggers
from concierge.servicerequests.cached_reads import WATCHED

SEED_VERSIONS = {
    "postgresql": (
        "INSERT INTO common_readversion (owner_id, version) "
        "SELECT id, md5(random()::text || id::text) FROM accounts_user "
        "UNION ALL SELECT %s, md5(random()::text) ON CONFLICT DO NOTHING"
    ),
    "sqlite": (
        "INSERT INTO common_readversion (owner_id, version) "
        "SELECT id, lower(hex(randomblob(16))) FROM accounts_user "
        "UNION ALL SELECT %s, lower(hex(randomblob(16))) WHERE true ON CONFLICT DO NOTHING"
    ),
}


def seed_versions(apps, schema_editor):
    """Every existing employee's reads start with a version (none: nothing is cached)."""
    sql = SEED_VERSIONS[schema_editor.connection.vendor]
    schema_editor.execute(sql, params=[SHARED_OWNER])


class Migration(migrations.Migration):
    dependencies = [
        ("common", "0001_initial"),
        ("servicerequests", "0005_completed_at"),
        ("service_levels", "0001_initial"),
        ("surveys", "0004_open_run_constraint_on_every_database"),
        ("uploads", "0001_initial"),
    ]

    operations = [
        read_version_triggers(*WATCHED),
        migrations.RunPython(seed_versions, migrations.RunPython.noop),
    ]
