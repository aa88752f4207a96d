import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()


def _start_in_process_tasks() -> None:
    """The embedded default runs the task worker in this process (see TASKS_IN_PROCESS)."""
    from django.conf import settings

    if settings.TASKS_IN_PROCESS:
        from concierge.notifications.background import in_process_worker

        in_process_worker.start()


_start_in_process_tasks()
