"""Upload endpoints: spec §7 'Uploads', plus the signed PUT/GET endpoints of STORAGE=local."""

from __future__ import annotations

from django.conf import settings
from django.http import FileResponse, HttpRequest
from ninja import Query, Router

from concierge.accounts.auth import request_auth_token
from concierge.common.schemas import ErrorOut
from concierge.uploads import selectors, services, storage
from concierge.uploads.files import content_disposition
from concierge.uploads.schemas import (
    ExpiringUrlOut,
    PresignedUrlIn,
    PresignedUrlOut,
    UploadReceivedOut,
)

router = Router(tags=["uploads"])
ERRORS = {401: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


@router.post("/uploads/presigned_url", response={200: PresignedUrlOut, **ERRORS, 503: ErrorOut})
def presigned_url(request: HttpRequest, payload: PresignedUrlIn):
    """The address to PUT one file to, and its key. 503 while the file storage is down (its
    readiness check fails), so the browser never gets an address its upload would fail on."""
    user = request_auth_token(request).user
    request_id = payload.upload.request_id
    if request_id is not None:
        # 404 unless it is theirs; concierges attach files to replies on any request.
        selectors.request_attachable_require(user=user, request_id=request_id)
    services.storage_require_ready()
    upload = services.upload_create(
        owner=user, filename=payload.upload.filename, request_id=request_id
    )
    url = services.upload_put_url(upload=upload, base_url=_base_url(request))
    return PresignedUrlOut(presigned_url=url, key=upload.key)


@router.get("/uploads/expiring_url", response={200: ExpiringUrlOut, **ERRORS})
def expiring_url(request: HttpRequest, key: Query[str], inline: Query[bool] = False):
    """A short-lived address of a file the signed-in user may see (404 otherwise). With
    `inline=true`, an image or a PDF is served to be shown in the browser (a thumbnail, the
    image viewer, the browser's PDF viewer); anything else is always a download."""
    user = request_auth_token(request).user
    upload = selectors.upload_get_for_download(user=user, key=key[:300])
    upload = services.upload_verify(upload=upload)
    services.upload_opening_record(http_request=request, user=user, upload=upload)
    url = services.upload_download_url(upload=upload, base_url=_base_url(request), inline=inline)
    return ExpiringUrlOut(expiring_url=url)


@router.put(
    "/uploads/put/{token}",
    response={
        200: UploadReceivedOut,
        403: ErrorOut,
        404: ErrorOut,
        409: ErrorOut,
        413: ErrorOut,
        422: ErrorOut,
    },
    auth=None,
    url_name="upload_put",
    include_in_schema=False,
)
def upload_put(request: HttpRequest, token: str):
    """The signature in the URL is the credential: browsers send the file without cookies."""
    try:
        content_length: int | None = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        content_length = None
    upload = services.upload_receive(
        token=token,
        body=request,  # type: ignore[arg-type]  # read in chunks: never the whole body at once
        content_length=content_length,
        content_type=request.content_type or "",
    )
    return UploadReceivedOut(
        key=upload.key, size=upload.size or 0, content_type=upload.content_type
    )


@router.get(
    "/uploads/get/{token}",
    response={403: ErrorOut, 404: ErrorOut},
    auth=None,
    url_name="upload_get",
    include_in_schema=False,
)
def upload_get(request: HttpRequest, token: str):
    upload, inline = services.upload_for_download_token(token=token)
    response = FileResponse(
        storage.object_open(upload.key),
        content_type=upload.content_type or "application/octet-stream",
    )
    response["Content-Disposition"] = content_disposition(upload.filename, inline=inline)
    response["X-Content-Type-Options"] = "nosniff"
    if inline and upload.content_type == "application/pdf":
        # The browser's PDF viewer is a plugin-like frame that a sandboxed document may not
        # load; the PDF still runs no script of this origin.
        response["Content-Security-Policy"] = "default-src 'none'; frame-ancestors 'none'"
    else:
        response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    # Inline views (thumbnails) are reused for the life of their address; downloads never.
    ttl = int(settings.UPLOAD_GET_URL_TTL_SECONDS)
    response["Cache-Control"] = f"private, max-age={ttl}" if inline else "private, no-store"
    return response
