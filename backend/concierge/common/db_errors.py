"""A statement the database stopped before it finished: PostgreSQL's statement timeout for web
requests (DB_STATEMENT_TIMEOUT_MS) or an operator's cancel. Django raises it as an
OperationalError caused by psycopg's QueryCanceled; the API answers it with a message."""

from __future__ import annotations

QUERY_CANCELED = "57014"  # PostgreSQL's SQLSTATE for a cancelled statement
STATEMENT_STOPPED = "This took too long, so we stopped it. Please try again in a moment."


def statement_stopped(exc: BaseException) -> bool:
    """Whether `exc` is a database error raised because the statement was cancelled."""
    return getattr(exc.__cause__, "sqlstate", None) == QUERY_CANCELED
