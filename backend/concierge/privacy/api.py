"""The employee's data: 'Download my data' on the Account page, and a request's retention
date on the request page."""

from __future__ import annotations

from django.http import FileResponse, HttpRequest
from ninja import Router, Status

from concierge.accounts.auth import request_auth_token
from concierge.common.ratelimit import client_ip
from concierge.common.schemas import ErrorOut
from concierge.privacy import selectors
from concierge.privacy.models import DataExport
from concierge.privacy.schemas import DataExportDownloadIn, DataExportOut, RequestRetentionOut
from concierge.privacy.services import export

router = Router(tags=["privacy"])

ERRORS = {401: ErrorOut, 404: ErrorOut, 422: ErrorOut, 429: ErrorOut}
STARTED = "We're preparing your data. We'll email you a link to download it."


def _export_out(item: DataExport | None, message: str = "") -> DataExportOut:
    if item is None:
        return DataExportOut(status="none")
    return DataExportOut(
        status=export.data_export_status(item),
        requested_at=item.created_at,
        expires_at=item.expires_at,
        message=message,
    )


@router.get("/users/data_export", response={200: DataExportOut, **ERRORS})
def data_export_state(request: HttpRequest):
    user = request_auth_token(request).user
    return _export_out(export.data_export_latest(user=user))


@router.post("/users/data_export", response={202: DataExportOut, 409: ErrorOut, **ERRORS})
def data_export_request(request: HttpRequest):
    user = request_auth_token(request).user
    item = export.data_export_start(user=user, client_ip=client_ip(request))
    return Status(202, _export_out(item, STARTED))


@router.post(
    "/users/data_export/download",
    response={200: None, 410: ErrorOut, 503: ErrorOut, **ERRORS},
    openapi_extra={"responses": {200: {"description": "The zip (application/zip)"}}},
)
def data_export_download(request: HttpRequest, payload: DataExportDownloadIn):
    """The zip of the emailed link, for the signed-in owner, once. The link's token comes in
    the body (the link carries it in its fragment), never in an address a server logs."""
    user = request_auth_token(request).user
    content = export.data_export_take(user=user, token=payload.token, client_ip=client_ip(request))
    response = FileResponse(
        content, content_type="application/zip", as_attachment=True, filename="my-data.zip"
    )
    response["Cache-Control"] = "private, no-store"
    return response


@router.get("/requests/{int:request_id}/retention", response={200: RequestRetentionOut, **ERRORS})
def request_retention(request: HttpRequest, request_id: int):
    user = request_auth_token(request).user
    retention = selectors.request_retention(user=user, request_id=request_id)
    return RequestRetentionOut(erase_on=retention.erase_on, erased=retention.erased)
