"""The WSGI entry point: the production API server (granian), which always runs beside an
events server and often beside more API hosts (README: Production)."""

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

from config.process_role import declare_web_server, web_server_loaded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
declare_web_server()  # before the settings load: web requests get a statement timeout
application = get_wsgi_application()


def _refuse_processes_that_share_nothing() -> None:
    """Live events and rate limits cross processes through Redis only: without it a reply
    handled here would never reach the events server's streams, and each worker would count
    attempts of its own."""
    if not settings.REDIS_URL and not settings.DEBUG:
        raise ImproperlyConfigured(
            "REDIS_URL is required by the production layout (an API server beside an events "
            "server): live events and rate limits are shared through it. For one process, "
            "serve config.asgi:application (make run)."
        )


_refuse_processes_that_share_nothing()
web_server_loaded()
