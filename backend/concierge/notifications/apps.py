from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "concierge.notifications"
    label = "notifications"

    def ready(self) -> None:
        # Connects the retry of failed background tasks (a task_finished receiver), and adds
        # the mail transport's readiness check.
        from concierge.common import readiness
        from concierge.notifications import background  # noqa: F401
        from concierge.notifications.readiness import mail_probe

        # Optional: while the mail server is down, emails wait in their tasks and are retried.
        readiness.register("mail", mail_probe, required=False, cached=True)
