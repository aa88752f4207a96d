"""The concierge's replies indexed by request and time (the employee's messages left out): the
unread marks and count ask each request whether it has a reply newer than the employee's last
look at the thread, one probe of this index each."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("servicerequests", "0008_desk_queue"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="message",
            index=models.Index(
                condition=models.Q(("source", "user"), _negated=True),
                fields=["request", "external_created_at"],
                name="message_concierge_reply_idx",
            ),
        ),
    ]
