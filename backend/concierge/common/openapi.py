"""Keeps the OpenAPI document true to what the API answers (checked by schemathesis)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from concierge.common.errors import error_body

ERROR_REF = {"$ref": "#/components/schemas/ErrorOut"}
ERROR_SCHEMA = {
    "title": "ErrorOut",
    "type": "object",
    "properties": {
        "success": {"title": "Success", "type": "boolean", "default": False},
        "error": {"title": "Error", "type": "string"},
        "errors": {
            "anyOf": [
                {
                    "type": "object",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                },
                {"type": "null"},
            ],
            "title": "Errors",
        },
    },
    "required": ["error"],
}
assert set(error_body("x", {"f": ["x"]})) == set(ERROR_SCHEMA["properties"])
_DESCRIPTIONS = {
    400: "The request body is not valid JSON.",
    401: "Not signed in, or the session needs its MFA code.",
    404: "Not found.",
    422: "A field is missing or invalid (`errors` names the fields).",
}


def document_required(*names: str) -> Callable[[dict[str, Any]], None]:
    """`json_schema_extra` for input schemas whose fields default to empty only so that a
    missing field gets the spec's own message: the document still says they are required."""

    def extra(schema: dict[str, Any]) -> None:
        schema["required"] = sorted({*schema.get("required", []), *names})
        for name in names:
            schema["properties"][name].pop("default", None)

    return extra


def _error_response(code: int) -> dict[str, Any]:
    return {
        "description": _DESCRIPTIONS[code],
        "content": {"application/json": {"schema": ERROR_REF}},
    }


def document_error_responses(document: dict[str, Any]) -> dict[str, Any]:
    """Every operation lists the error answers it can give: 400 for a body that is not JSON,
    422 for invalid input, 401 when it needs a session, 404 when the path names an object."""
    document.setdefault("components", {}).setdefault("schemas", {}).setdefault(
        "ErrorOut", ERROR_SCHEMA
    )
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            where = {p.get("in") for p in operation.get("parameters", [])}
            codes = []
            if "requestBody" in operation:
                codes += [400, 422]
            if where & {"query", "path"}:
                codes.append(422)
            if "path" in where:
                codes.append(404)
            if operation.get("security"):
                codes.append(401)
            for code in codes:
                if code not in responses and str(code) not in responses:
                    responses[code] = _error_response(code)
    return document
