"""SCIM PATCH (RFC 7644 §3.5.2) on a record, with what Okta and Microsoft Entra actually send:
op names in any case ("Replace"), `active` as the string "True" or "False", operations
without a path whose value is an object of attributes (also dotted keys such as
"name.givenName" and the enterprise URN as a key), and `emails[type eq "work"].value`
paths (emails mirror userName, so those are accepted and ignored)."""

from __future__ import annotations

from typing import Any

from concierge.accounts.models import EmployeeRecord
from concierge.provisioning.scim.attributes import (
    ENTERPRISE_USER,
    REMOVABLE,
    field_for_path,
    path_normalise,
)
from concierge.provisioning.scim.errors import ScimError, invalid_syntax, invalid_value
from concierge.provisioning.scim.resources import active_value, string_value
from concierge.provisioning.services.records import RecordFields

PATCH_OP_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
OPERATIONS_MAX = 100
_OPS = ("add", "replace", "remove")


def patched_fields(record: EmployeeRecord, body: Any) -> RecordFields:
    """The record's fields after the body's operations (all or none apply)."""
    if not isinstance(body, dict):
        raise invalid_syntax("The request body must be a JSON object.")
    operations = {str(k).lower(): v for k, v in body.items()}.get("operations")
    if not isinstance(operations, list) or not operations:
        raise invalid_syntax("A PATCH needs a list of Operations.")
    if len(operations) > OPERATIONS_MAX:
        raise invalid_syntax(f"A PATCH takes at most {OPERATIONS_MAX} operations.")
    state: dict[str, Any] = {
        "email": record.email,
        "first_name": record.first_name,
        "last_name": record.last_name,
        "employee_id": record.employee_id,
        "external_id": record.external_id,
        "active": record.active,
    }
    for operation in operations:
        _apply(state, operation)
    return RecordFields(**state)


def _apply(state: dict[str, Any], operation: Any) -> None:
    if not isinstance(operation, dict):
        raise invalid_syntax("Each operation must be an object.")
    operation = {str(k).lower(): v for k, v in operation.items()}
    op = operation.get("op")
    if not isinstance(op, str) or op.lower() not in _OPS:
        raise invalid_syntax("Each operation's op must be add, replace or remove.")
    op = op.lower()
    path = operation.get("path")
    value = operation.get("value")
    if path is not None and not isinstance(path, str):
        raise ScimError(400, "path must be a string.", "invalidPath")
    if not path:
        if op == "remove":
            raise ScimError(400, "A remove operation needs a path.", "noTarget")
        if not isinstance(value, dict):
            raise invalid_value("An operation without a path needs an object as its value.")
        for key, item in value.items():
            _apply_value_key(state, op, str(key), item)
        return
    _apply_path(state, op, path, value)


def _apply_value_key(state: dict[str, Any], op: str, key: str, value: Any) -> None:
    """One attribute of a path-less operation's value: a plain or dotted attribute name, or
    a schema URN whose value holds that schema's attributes."""
    lowered = key.lower()
    if lowered == ENTERPRISE_USER.lower() and isinstance(value, dict):
        for sub, item in value.items():
            _apply_path(state, op, f"{ENTERPRISE_USER}:{sub}", item)
        return
    if path_normalise(key) == "name" and isinstance(value, dict):
        for sub, item in value.items():
            _apply_path(state, op, f"name.{sub}", item)
        return
    _apply_path(state, op, key, value)


def _apply_path(state: dict[str, Any], op: str, path: str, value: Any) -> None:
    normalised = path_normalise(path)
    if normalised == "name":
        if op == "remove":
            state["first_name"] = state["last_name"] = ""
            return
        if not isinstance(value, dict):
            raise invalid_value("name must be an object.")
        for sub, item in value.items():
            _apply_path(state, op, f"name.{sub}", item)
        return
    if normalised == ENTERPRISE_USER.lower():
        if op == "remove":
            state["employee_id"] = ""
            return
        if isinstance(value, dict):
            for sub, item in value.items():
                _apply_path(state, op, f"{ENTERPRISE_USER}:{sub}", item)
        return
    field = field_for_path(normalised)
    if field is None:
        return  # an attribute we do not keep (emails, displayName, title, ...): ignored
    if op == "remove":
        if field not in REMOVABLE:
            raise ScimError(400, f"{path} is required and cannot be removed.", "mutability")
        state[field] = ""
        return
    value = _single(value)
    if field == "active":
        state["active"] = active_value(value)
    else:
        state[field] = string_value(path, value)


def _single(value: Any) -> Any:
    """A single value sent as a one-item list (`[{"value": x}]` or `[x]`) is that value."""
    if isinstance(value, list) and len(value) == 1:
        item = value[0]
        return item.get("value") if isinstance(item, dict) else item
    if isinstance(value, dict) and set(value) == {"value"}:
        return value["value"]
    return value
