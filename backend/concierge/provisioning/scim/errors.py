"""SCIM error responses (RFC 7644 §3.12): `status`, `scimType` and `detail`."""

from __future__ import annotations

ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error"


class ScimError(Exception):
    """Raised anywhere in handling a SCIM request; the view answers with its body."""

    def __init__(self, status: int, detail: str, scim_type: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.scim_type = scim_type

    def body(self) -> dict:
        body: dict = {"schemas": [ERROR_SCHEMA], "status": str(self.status), "detail": self.detail}
        if self.scim_type:
            body["scimType"] = self.scim_type
        return body


def invalid_value(detail: str) -> ScimError:
    return ScimError(400, detail, "invalidValue")


def invalid_syntax(detail: str) -> ScimError:
    return ScimError(400, detail, "invalidSyntax")


def invalid_path(detail: str) -> ScimError:
    return ScimError(400, detail, "invalidPath")


def not_found(detail: str = "Resource not found.") -> ScimError:
    return ScimError(404, detail)
