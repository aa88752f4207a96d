"""A record as a SCIM User resource, and a SCIM User body (POST, PUT) as record fields."""

from __future__ import annotations

from typing import Any

from concierge.accounts.models import EmployeeRecord
from concierge.provisioning.scim.attributes import CORE_USER, ENTERPRISE_USER
from concierge.provisioning.scim.errors import invalid_syntax, invalid_value
from concierge.provisioning.services.records import RecordFields

ALWAYS_RETURNED = {"id", "schemas"}


def user_resource(record: EmployeeRecord, *, base_url: str) -> dict[str, Any]:
    """The SCIM User for `record` (its id is the record's id as text)."""
    resource: dict[str, Any] = {
        "schemas": [CORE_USER],
        "id": str(record.pk),
        "userName": record.email,
        "active": record.active,
        "emails": [{"value": record.email, "type": "work", "primary": True}],
        "meta": {
            "resourceType": "User",
            "created": record.created_at.isoformat(),
            "lastModified": record.updated_at.isoformat(),
            "location": f"{base_url}/Users/{record.pk}",
        },
    }
    if record.external_id:
        resource["externalId"] = record.external_id
    name = {
        key: value
        for key, value in (("givenName", record.first_name), ("familyName", record.last_name))
        if value
    }
    if name:
        resource["name"] = name
    if record.employee_id:
        resource["schemas"].append(ENTERPRISE_USER)
        resource[ENTERPRISE_USER] = {"employeeNumber": record.employee_id}
    return resource


def attributes_project(
    resource: dict[str, Any], *, attributes: list[str], excluded: list[str]
) -> dict[str, Any]:
    """The resource with only `attributes` (plus id and schemas), or without `excluded`
    (RFC 7644 §3.4.2.5). Names are case-insensitive and may be `name.givenName` or carry a
    schema URN."""
    if attributes:
        wanted = [_attribute_path(a) for a in attributes]
        kept: dict[str, Any] = {}
        for key, value in resource.items():
            lowered = key.lower()
            if key in ALWAYS_RETURNED:
                kept[key] = value
            elif lowered in (w[0] for w in wanted):
                subs = [w[1] for w in wanted if w[0] == lowered]
                kept[key] = _sub_attributes(value, subs)
        return kept
    if excluded:
        dropped = {_attribute_path(a)[0] for a in excluded if _attribute_path(a)[1] is None}
        return {
            key: value
            for key, value in resource.items()
            if key in ALWAYS_RETURNED or key.lower() not in dropped
        }
    return resource


def _attribute_path(name: str) -> tuple[str, str | None]:
    """('name', 'givenname') for 'name.givenName'; the enterprise URN is one top-level key."""
    lowered = name.strip().lower()
    core = CORE_USER.lower() + ":"
    if lowered.startswith(core):
        lowered = lowered[len(core) :]
    enterprise = ENTERPRISE_USER.lower()
    if lowered.startswith(enterprise):
        rest = lowered[len(enterprise) :].lstrip(":")
        return enterprise, rest or None
    top, _, sub = lowered.partition(".")
    return top, sub or None


def _sub_attributes(value: Any, subs: list[str | None]) -> Any:
    if None in subs or not isinstance(value, dict):
        return value
    return {k: v for k, v in value.items() if k.lower() in subs}


def _lower_keys(body: dict[str, Any]) -> dict[str, Any]:
    return {str(k).lower(): v for k, v in body.items()}


def active_value(value: Any) -> bool:
    """`active` as a boolean; Microsoft Entra sends the strings "True" and "False"."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise invalid_value("active must be true or false.")


def string_value(attribute: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise invalid_value(f"{attribute} must be a string.")


def user_fields(body: Any, *, replace: bool) -> RecordFields:
    """The record fields a POST or PUT body sets. For a PUT (`replace`) what the body leaves
    out is emptied (RFC 7644 §3.5.1), except `active`, which stays as it is."""
    if not isinstance(body, dict):
        raise invalid_syntax("The request body must be a JSON object.")
    data = _lower_keys(body)
    if "username" not in data or data["username"] in (None, ""):
        raise invalid_value("userName is required: the person's email address.")
    name = data.get("name") or {}
    if not isinstance(name, dict):
        raise invalid_value("name must be an object.")
    name = _lower_keys(name)
    enterprise = data.get(ENTERPRISE_USER.lower()) or {}
    if not isinstance(enterprise, dict):
        raise invalid_value(f"{ENTERPRISE_USER} must be an object.")
    enterprise = _lower_keys(enterprise)
    empty = "" if replace else None

    def optional(attribute: str, source: dict[str, Any], key: str) -> str | None:
        return string_value(attribute, source[key]) if key in source else empty

    return RecordFields(
        email=string_value("userName", data["username"]),
        first_name=optional("name.givenName", name, "givenname"),
        last_name=optional("name.familyName", name, "familyname"),
        external_id=optional("externalId", data, "externalid"),
        employee_id=optional("employeeNumber", enterprise, "employeenumber"),
        active=active_value(data["active"]) if data.get("active") is not None else None,
    )
