from __future__ import annotations

from ninja import Schema
from pydantic import ConfigDict, Field

from concierge.common.openapi import document_required


class UploadIn(Schema):
    model_config = ConfigDict(json_schema_extra=document_required("filename"))

    filename: str = Field("", max_length=1000)
    request_id: int | None = Field(
        None, description="The request a message attachment is for; omit for other uploads."
    )


class PresignedUrlIn(Schema):
    upload: UploadIn


class PresignedUrlOut(Schema):
    presigned_url: str = Field(
        description="PUT the raw file here, without credentials; valid for 15 minutes."
    )
    key: str


class ExpiringUrlOut(Schema):
    expiring_url: str = Field(description="A download address valid for 5 minutes.")


class UploadReceivedOut(Schema):
    success: bool = True
    key: str
    size: int
    content_type: str
