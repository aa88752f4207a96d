"""The concierge's replies indexed by request and time (the employee's messages left out): the
unread marks and count ask each request whether it has a reply newer than the employee's last
look at the thread, one probe of this index each.

Built concurrently on PostgreSQL (`AddIndexOnline`, outside a transaction), so messages can be
sent while it is built on a large table."""

from django.db import migrations, models

from concierge.common.migration_operations import AddIndexOnline


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("servicerequests", "0008_desk_queue"),
    ]

    operations = [
        AddIndexOnline(
            model_name="message",
            index=models.Index(
                condition=models.Q(("source", "user"), _negated=True),
                fields=["request", "external_created_at"],
                name="message_concierge_reply_idx",
            ),
        ),
    ]
