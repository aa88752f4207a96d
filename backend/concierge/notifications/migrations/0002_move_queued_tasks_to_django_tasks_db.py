"""The hand-made task queue gives way to django-tasks-db: tasks still waiting (or left running)
in the old table move to `DBTaskResult`, then the old table goes."""

import datetime
import uuid

from django.db import migrations

DATE_MAX = datetime.datetime(9999, 1, 1, tzinfo=datetime.timezone.utc)


def move_waiting_tasks(apps, schema_editor):
    QueuedTask = apps.get_model("notifications", "QueuedTask")
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    waiting = QueuedTask.objects.filter(status__in=["READY", "RUNNING"]).order_by("id")
    DBTaskResult.objects.bulk_create(
        DBTaskResult(
            id=uuid.uuid4(),
            status="READY",
            args_kwargs={"args": list(row.args), "kwargs": dict(row.kwargs)},
            priority=row.priority,
            task_path=row.task_path,
            queue_name=row.queue_name,
            backend_name=row.backend,
            run_after=row.run_after or DATE_MAX,
            worker_ids=[],
            exception_class_path="",
            traceback="",
        )
        for row in waiting
    )


class Migration(migrations.Migration):

    dependencies = [
        ("notifications", "0001_initial"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [
        migrations.RunPython(move_waiting_tasks, migrations.RunPython.noop),
        migrations.DeleteModel(name="QueuedTask"),
    ]
