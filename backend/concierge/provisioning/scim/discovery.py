"""The discovery endpoints (RFC 7644 §4): what this server supports. Users only: Groups are
not needed (a company membership is the one thing provisioned), so no Group resource type."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from concierge.provisioning.scim.attributes import CORE_USER, ENTERPRISE_USER

LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
SPC_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"
RESOURCE_TYPE_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:ResourceType"
PAGE_MAX = 200


@cache
def _schemas() -> list[dict[str, Any]]:
    """User (the attributes we keep), the enterprise extension (employeeNumber) and the
    three discovery schemas, as scim2-models describes them (schemas.json)."""
    return json.loads((Path(__file__).parent / "schemas.json").read_text())


def schemas(*, base_url: str) -> list[dict[str, Any]]:
    return [
        {
            **schema,
            "meta": {"resourceType": "Schema", "location": f"{base_url}/Schemas/{schema['id']}"},
        }
        for schema in _schemas()
    ]


def service_provider_config(*, base_url: str) -> dict[str, Any]:
    return {
        "schemas": [SPC_SCHEMA],
        "patch": {"supported": True},
        "bulk": {"supported": False, "maxOperations": 0, "maxPayloadSize": 0},
        "filter": {"supported": True, "maxResults": PAGE_MAX},
        "changePassword": {"supported": False},
        "sort": {"supported": False},
        "etag": {"supported": False},
        "authenticationSchemes": [
            {
                "type": "oauthbearertoken",
                "name": "Bearer token",
                "description": "The company's SCIM token, created by its company admin on the "
                "members page: Authorization: Bearer <token>.",
                "primary": True,
            }
        ],
        "meta": {
            "resourceType": "ServiceProviderConfig",
            "location": f"{base_url}/ServiceProviderConfig",
        },
    }


def resource_types(*, base_url: str) -> list[dict[str, Any]]:
    return [
        {
            "schemas": [RESOURCE_TYPE_SCHEMA],
            "id": "User",
            "name": "User",
            "endpoint": "/Users",
            "description": "A person on the company's staff list (Groups are not supported).",
            "schema": CORE_USER,
            "schemaExtensions": [{"schema": ENTERPRISE_USER, "required": False}],
            "meta": {"resourceType": "ResourceType", "location": f"{base_url}/ResourceTypes/User"},
        }
    ]


def list_response(
    resources: list[dict[str, Any]], *, total: int, start_index: int = 1
) -> dict[str, Any]:
    return {
        "schemas": [LIST_RESPONSE],
        "totalResults": total,
        "itemsPerPage": len(resources),
        "startIndex": start_index,
        "Resources": resources,
    }
