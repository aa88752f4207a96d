"""Message.by_email (reply by email, issue 28). The column is added with one ALTER TABLE on
every database: a constant default makes it instant on PostgreSQL, and SQLite adds it in place
instead of rebuilding the table (a rebuild would break the read-version triggers that name it)."""

from django.db import migrations, models

ADD = 'ALTER TABLE "servicerequests_message" ADD COLUMN "by_email" boolean DEFAULT false NOT NULL'
DROP = 'ALTER TABLE "servicerequests_message" DROP COLUMN "by_email"'


class Migration(migrations.Migration):

    dependencies = [
        ("servicerequests", "0010_completed_from"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddField(
                    model_name="message",
                    name="by_email",
                    field=models.BooleanField(
                        db_default=False,
                        help_text="The employee wrote this by replying to a notification email "
                        "(reply by email).",
                    ),
                ),
            ],
            # upgrade-safe: RunSQL 1: adds one column with a constant default and no index:
            # PostgreSQL 11+ stores the default in the catalogue (no rewrite, a brief lock),
            # SQLite adds it in place; the previous release never names it.
            database_operations=[migrations.RunSQL(ADD, DROP)],
        ),
    ]
