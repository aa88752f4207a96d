"""The attributes of our SCIM User and how they map onto `EmployeeRecord` fields.

Attribute names are case-insensitive (RFC 7643 §2.1) and may carry their schema's URN.
Attributes we do not keep (displayName, title, phoneNumbers, addresses, department, ...,
which Okta and Microsoft Entra send by default) are accepted and ignored, so a client's
default mapping never fails; `emails` mirrors `userName` and is read-only."""

from __future__ import annotations

CORE_USER = "urn:ietf:params:scim:schemas:core:2.0:User"
ENTERPRISE_USER = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"

# A path (lower-case, without the core URN) -> the record field it sets.
FIELD_BY_PATH = {
    "username": "email",
    "externalid": "external_id",
    "active": "active",
    "name.givenname": "first_name",
    "name.familyname": "last_name",
    f"{ENTERPRISE_USER}:employeenumber".lower(): "employee_id",
}
# Fields a PATCH `remove` may empty (userName and active are required).
REMOVABLE = {"external_id", "first_name", "last_name", "employee_id"}


def path_normalise(path: str) -> str:
    """The path lower-case, its core URN dropped; the enterprise URN kept as a prefix."""
    text = path.strip()
    lowered = text.lower()
    core = CORE_USER.lower() + ":"
    if lowered.startswith(core):
        lowered = lowered[len(core) :]
    return lowered


def field_for_path(path: str) -> str | None:
    """The record field a (normalised) attribute path names, or None for one we ignore."""
    return FIELD_BY_PATH.get(path)


def is_enterprise_path(path: str) -> bool:
    return path.startswith(ENTERPRISE_USER.lower())
