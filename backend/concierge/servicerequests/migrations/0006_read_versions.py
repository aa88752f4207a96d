"""Read-version triggers for the employee's cached request lists and threads (cached_reads):
every table those reads show gives the owning employee's cached reads a new version in the
same transaction as the write (common.read_versions)."""

from django.db import migrations

from concierge.common.read_versions import SHARED_OWNER, Watched, read_version_triggers

REQUEST_OWNER = "(SELECT user_id FROM servicerequests_servicerequest WHERE id = {row}.request_id)"

WATCHED = [
    # Every employee has a version from the start (none: nothing of theirs would be cached).
    Watched("accounts_user", "{row}.id", operations=("INSERT",)),
    Watched("servicerequests_servicerequest", "{row}.user_id"),
    Watched("servicerequests_message", REQUEST_OWNER),
    Watched("service_levels_requestclock", REQUEST_OWNER),
    Watched(
        "servicerequests_messageattachment",
        "(SELECT r.user_id FROM servicerequests_servicerequest r"
        " JOIN servicerequests_message m ON m.request_id = r.id WHERE m.id = {row}.message_id)",
    ),
    Watched(
        "uploads_upload",
        "(SELECT r.user_id FROM servicerequests_servicerequest r"
        " JOIN servicerequests_message m ON m.request_id = r.id"
        " JOIN servicerequests_messageattachment a ON a.message_id = m.id"
        " WHERE a.upload_id = {row}.id)",
    ),
    # Requests show their category's name, image and icon.
    Watched("surveys_surveycategory", str(SHARED_OWNER)),
]

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
