"""The error answers spec §7's account endpoints document besides their success."""

from __future__ import annotations

from concierge.common.schemas import ErrorOut

ERRORS = {400: ErrorOut, 401: ErrorOut, 422: ErrorOut, 429: ErrorOut}
