from __future__ import annotations

from datetime import datetime

from ninja import Schema
from pydantic import Field


class ScimStatusOut(Schema):
    has_token: bool = Field(description="Whether the company has a SCIM token (it works).")
    created_at: datetime | None = None
    last_used_at: datetime | None = Field(
        None, description="About when the identity provider last called (to the minute)."
    )
    base_url: str = Field(description="The SCIM base URL to enter in the identity provider.")


class ScimTokenOut(Schema):
    token: str = Field(description="The new bearer token: shown this once, never again.")
    created_at: datetime
    base_url: str


class RosterCountsOut(Schema):
    create: int
    update: int
    deactivate: int
    reactivate: int
    unchanged: int
    error: int


class RosterRowOut(Schema):
    row: int = Field(description="The line in the file (the header is line 1).")
    email: str
    action: str = Field(description="create, update, deactivate, reactivate or error.")
    changes: list[str] = Field(description="For an update: the fields that change.")
    reason: str = Field(description="For an error: why the row is skipped.")


class RosterOut(Schema):
    counts: RosterCountsOut
    rows: list[RosterRowOut] = Field(
        description="The rows that change something or are in error (unchanged ones are only "
        "counted), at most 2,000."
    )
    listed_all: bool = Field(description="False when more rows change than are listed.")
    applied: bool = Field(description="True once the rows were applied (not for a preview).")
