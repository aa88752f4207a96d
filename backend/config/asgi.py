"""The ASGI entry point: the live event stream (README: Production).

In production this server (uvicorn) only gets the stream, `GET /api/v1/events`: the load
balancer sends every other path to the WSGI API server (granian, config/wsgi.py). The embedded
default (`make run`) serves everything from this one process: the stream through Django's
ASGI handler, every other request through Django's WSGI handler in a thread pool. A sync view
behind Django's ASGI handler costs several times the CPU (a thread hop per middleware), and
the stream is the only async view.
"""

import os
from typing import Any

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

from config.process_role import declare_web_server, web_server_loaded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
declare_web_server()  # before the settings load: web requests get a statement timeout
EVENT_STREAM_PATH = "/api/v1/events"

_stream = get_asgi_application()
# Django's WSGIHandler returns its HttpResponse, which is the iterable of bytes WSGI asks for.
_requests = WSGIMiddleware(
    get_wsgi_application(),  # type: ignore[arg-type]
    workers=int(os.environ.get("ASGI_THREADS", "8")),
)


async def application(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "http" and scope["path"] != EVENT_STREAM_PATH:
        await _requests(scope, receive, send)
    else:
        await _stream(scope, receive, send)


def _start_in_process_tasks() -> None:
    """The embedded default runs the task worker in this process (see TASKS_IN_PROCESS)."""
    from django.conf import settings

    if settings.TASKS_IN_PROCESS:
        from concierge.notifications.background import in_process_worker

        in_process_worker.start()


_start_in_process_tasks()
web_server_loaded()
