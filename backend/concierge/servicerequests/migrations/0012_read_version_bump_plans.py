"""The functions of 0006's read-version triggers again, cheaper on PostgreSQL: the bump is
PL/pgSQL, whose plans PostgreSQL keeps for the session (an SQL function's INSERT was planned on
every call), and an update that keeps its row's owner bumps that owner once, not twice. The
same owners are bumped in the same transactions as before (common/read_versions.py)."""

from django.db import migrations

from concierge.common.read_versions import read_version_functions_replaced
from concierge.servicerequests.cached_reads import WATCHED

# upgrade-safe: RunPython replace: CREATE OR REPLACE FUNCTION alone (the triggers stay): no table locked, no row touched


class Migration(migrations.Migration):
    dependencies = [
        ("servicerequests", "0011_message_by_email"),
    ]

    operations = [
        read_version_functions_replaced(*WATCHED),
    ]
