"""Whether this process serves web requests. config/wsgi.py and config/asgi.py (the API and
events servers) declare it before Django loads the settings, which then give web requests
what only they get: a limit on how long one SQL statement may run (DB_STATEMENT_TIMEOUT_MS).
Migrations, the task worker and other management commands never import those modules."""

from __future__ import annotations

_role = {"web": False}


def declare_web_server() -> None:
    """Called by a web server's entry point before the settings load."""
    _role["web"] = True


def serving_web() -> bool:
    return _role["web"]
