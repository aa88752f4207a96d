"""Building a 'Download my data' zip (the background task's work) and emailing its link."""

from __future__ import annotations

import hashlib
import logging
import secrets
import uuid
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from concierge.audit import actions
from concierge.audit.services import audit_record
from concierge.notifications.services import email_enqueue_with_transaction
from concierge.privacy.exporting import zip_build
from concierge.privacy.models import DataExport
from concierge.uploads.personal_data import EXPORT_PREFIX, export_file_delete, export_file_save

logger = logging.getLogger(__name__)

# How long the emailed link works.
LINK_VALID_FOR = timedelta(days=7)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def export_link(token: str) -> str:
    """The web app's download page; the token in the fragment, which the browser never sends
    to a server (no access log, no Referer): the page posts it to the API."""
    return f"{settings.PUBLIC_URL}/account/data#{token}"


def _email_body(link: str, expires: str) -> str:
    return (
        f"Your data is ready.\n\nDownload it (signed in as yourself) here:\n{link}\n\n"
        f"The link works once, until {expires} (UTC). If you did not ask for your data, "
        f"reply to this email or write to {settings.SUPPORT_EMAIL}.\n"
    )


def data_export_build(*, export_id: int) -> str:
    """Builds the zip, stores it and emails the single-use link. Run again after a lost
    worker, it builds anew (a stored zip without a link is overwritten by key)."""
    export = DataExport.objects.select_related("user").filter(pk=export_id).first()
    if export is None or export.status not in (
        DataExport.Status.PENDING,
        DataExport.Status.RUNNING,
    ):
        return "skipped"
    DataExport.objects.filter(pk=export.pk).update(status=DataExport.Status.RUNNING)
    user = export.user
    key = f"{EXPORT_PREFIX}{export.pk}-{uuid.uuid4().hex}.zip"
    content = zip_build(user=user, product=settings.PRODUCT_NAME)
    with content:
        size = content.seek(0, 2)
        content.seek(0)
        export_file_save(key=key, content=content)
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    expires_at = now + LINK_VALID_FOR
    with transaction.atomic():
        if not _still_running(export):
            # Erased (or given up on) while it was built: its zip goes, no link is sent.
            export_file_delete(key=key)
            return "skipped"
        DataExport.objects.filter(pk=export.pk).update(
            status=DataExport.Status.READY,
            file_key=key,
            size=size,
            token_hash=token_hash(token),
            finished_at=now,
            expires_at=expires_at,
        )
        email_enqueue_with_transaction(
            to=user.email,
            subject=f"Your {settings.PRODUCT_NAME} data is ready to download",
            body=_email_body(export_link(token), expires_at.strftime("%d %B %Y, %H:%M")),
        )
        audit_record(
            action=actions.DATA_EXPORTED,
            actor=user,
            target_type="user",
            target_id=user.pk,
            details={"export_id": export.pk, "bytes": size},
        )
    return "ready"


def _still_running(export: DataExport) -> bool:
    """Whether the export is still the one being built, its row locked until the commit."""
    return (
        DataExport.objects.select_for_update()
        .filter(pk=export.pk, status=DataExport.Status.RUNNING)
        .exists()
    )
