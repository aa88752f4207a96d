from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "concierge.notifications"
    label = "notifications"

    def ready(self) -> None:
        # Connects the retry of failed background tasks (a task_finished receiver).
        from concierge.notifications import background  # noqa: F401
