"""API errors: every 4xx body is `{"success": false, "error": "...", "errors": {...}}`."""

from __future__ import annotations


class ApiError(Exception):
    """An error with a message meant for a person, raised by services and turned into JSON."""

    status_code = 400

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None = None,
        errors: dict[str, list[str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors
        if status_code is not None:
            self.status_code = status_code


class ValidationFailed(ApiError):
    status_code = 422

    @classmethod
    def for_field(cls, field: str, message: str) -> ValidationFailed:
        return cls(message, errors={field: [message]})


class NotFound(ApiError):
    status_code = 404

    def __init__(self, message: str = "Not found") -> None:
        super().__init__(message)


class PermissionDenied(ApiError):
    status_code = 403

    def __init__(self, message: str = "You do not have access to this.") -> None:
        super().__init__(message)


class Unauthorized(ApiError):
    status_code = 401


class RateLimited(ApiError):
    status_code = 429

    def __init__(self, retry_after: int) -> None:
        super().__init__("Too many attempts. Please wait a minute and try again.")
        self.retry_after = retry_after


def error_body(message: str, errors: dict[str, list[str]] | None = None) -> dict:
    body: dict = {"success": False, "error": message}
    if errors:
        body["errors"] = errors
    return body
