from django.contrib import admin

from concierge.notifications.models import QueuedTask


@admin.register(QueuedTask)
class QueuedTaskAdmin(admin.ModelAdmin):
    """The background task queue, for looking into what ran, waits or failed."""

    list_display = ("task_path", "status", "run_after", "enqueued_at", "finished_at", "attempts")
    list_filter = ("status", "queue_name")
    search_fields = ("task_path",)
    date_hierarchy = "enqueued_at"
    readonly_fields = (
        "task_path",
        "args",
        "kwargs",
        "queue_name",
        "backend",
        "priority",
        "enqueued_at",
        "started_at",
        "finished_at",
        "attempts",
        "worker_ids",
        "last_error",
    )

    def has_add_permission(self, request) -> bool:
        return False
