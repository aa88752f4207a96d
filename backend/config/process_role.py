"""Whether this process serves web requests. config/wsgi.py and config/asgi.py (the API and
events servers) declare it before Django loads the settings, which then give web requests
what only they get: a limit on how long one SQL statement may run (DB_STATEMENT_TIMEOUT_MS).
Migrations, the task worker and other management commands never import those modules.

Once their application is built they call `web_server_loaded`."""

from __future__ import annotations

import gc

_role = {"web": False}


def declare_web_server() -> None:
    """Called by a web server's entry point before the settings load."""
    _role["web"] = True


def serving_web() -> bool:
    return _role["web"]


def web_server_loaded() -> None:
    """Called by a web server's entry point once its application is built. Loads the URL
    routes, and through them every API module, now rather than on the first request; then
    moves all that is loaded (about 240,000 objects) out of the garbage collector's sight
    (`gc.freeze`). They live as long as the process, yet each full collection walked them
    all: about a tenth of a second of CPU every thousand or so requests, with the worker's
    requests waiting. What requests allocate is collected as before."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports the routes)
    gc.collect()
    gc.freeze()
