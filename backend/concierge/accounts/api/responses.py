"""The error answers spec §7's account endpoints document besides their success."""

from __future__ import annotations

from concierge.common.schemas import ErrorOut

ERRORS = {400: ErrorOut, 401: ErrorOut, 422: ErrorOut, 429: ErrorOut}
# Changes that ask again for the password or a code: a wrong one is a 403 (the session stays).
FRESH_CHECK_ERRORS = {**ERRORS, 403: ErrorOut}
