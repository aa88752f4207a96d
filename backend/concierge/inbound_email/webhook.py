"""The provider's way in: Mailgun's inbound route (forward() to /inbound/mailgun/) through
django-anymail's inbound webhook, which verifies Mailgun's signature on every request (and the
basic-auth secret when INBOUND_EMAIL_WEBHOOK_SECRET is set) before the `inbound` signal runs."""

from __future__ import annotations

import logging
from email import policy
from email.parser import BytesParser
from typing import Any

from anymail.inbound import AnymailInboundMessage
from anymail.signals import AnymailInboundEvent, inbound
from anymail.webhooks.mailgun import MailgunInboundWebhookView
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.utils.datastructures import MultiValueDict
from django.views.decorators.csrf import csrf_exempt

from concierge.inbound_email.models import InboundEmail
from concierge.inbound_email.services import inbound_email_receive

logger = logging.getLogger(__name__)

_view = MailgunInboundWebhookView.as_view()
# Mailgun's other fields beside the email (addresses, signature, its parsed copies).
FORM_OVERHEAD_BYTES = 1024 * 1024


@csrf_exempt
def mailgun_inbound(request: HttpRequest) -> HttpResponse:
    """404 while reply by email or the webhook's signing key is not configured; else anymail's
    view (400 for a wrong signature, 200 once the email is recorded)."""
    if not settings.REPLY_DOMAIN or not settings.ANYMAIL.get("MAILGUN_WEBHOOK_SIGNING_KEY"):
        raise Http404
    _form_read(request)
    return _view(request)


def _form_read(request: HttpRequest) -> None:
    """Read a Mailgun form (multipart/form-data) that Django would refuse, up to
    INBOUND_EMAIL_MAX_BYTES: Django answers 400 for a form field over DATA_UPLOAD_MAX_MEMORY_SIZE
    (2.5 MB, the API's limit), and the raw email is one field, so a reply with a photo was
    never received."""
    content_type = request.META.get("CONTENT_TYPE", "")
    length = request.META.get("CONTENT_LENGTH", "")
    django_limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    limit = int(settings.INBOUND_EMAIL_MAX_BYTES) + FORM_OVERHEAD_BYTES
    if not content_type.startswith("multipart/form-data") or not length.isdigit():
        return
    if django_limit is None or not django_limit < int(length) <= limit:
        return  # Django's own parsing (and refusal)
    head = f"Content-Type: {content_type}\r\n\r\n".encode()
    form = BytesParser(policy=policy.HTTP).parsebytes(head + request.read(int(length)))
    encoding = request.encoding or settings.DEFAULT_CHARSET  # as Django reads a form's fields
    post = QueryDict(mutable=True, encoding=encoding)
    files: MultiValueDict[str, SimpleUploadedFile] = MultiValueDict()
    for part in form.iter_parts():
        name = part.get_param("name", header="content-disposition")
        content = part.get_payload(decode=True)
        if not isinstance(name, str) or not isinstance(content, bytes):
            continue
        filename = part.get_filename()
        if filename:
            files.appendlist(name, SimpleUploadedFile(filename, content, part.get_content_type()))
        else:
            post.appendlist(name, content.decode(encoding, "replace"))
    request._post, request._files = post, files  # type: ignore[attr-defined]


def _mailgun_verdicts(message: AnymailInboundMessage, post: Any) -> dict[str, str]:
    """Mailgun's checks of the sender: DMARC can only pass when SPF or DKIM passes, so both
    failing is a DMARC failure."""
    spf = str(post.get("X-Mailgun-Spf") or message.get("X-Mailgun-Spf") or "").lower()
    dkim = str(
        post.get("X-Mailgun-Dkim-Check-Result") or message.get("X-Mailgun-Dkim-Check-Result") or ""
    ).lower()
    if spf and dkim and spf != "pass" and dkim != "pass":
        return {"dmarc": "fail"}
    return {}


def inbound_received(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    """The `inbound` signal: the raw message to the shared service."""
    message = event.message
    if message is None:
        return
    post = getattr(event.esp_event, "POST", {})
    raw_mime = post.get("body-mime") if hasattr(post, "get") else None
    raw = (
        raw_mime.encode("utf-8", "surrogateescape")
        if isinstance(raw_mime, str)
        else message.as_bytes()
    )
    recipients = [message.envelope_recipient] if message.envelope_recipient else []
    inbound_email_receive(
        raw,
        path=InboundEmail.Path.WEBHOOK,
        provider_verdicts=_mailgun_verdicts(message, post) if esp_name == "Mailgun" else {},
        envelope_sender=message.envelope_sender,
        envelope_recipients=recipients,
    )


def connect() -> None:
    inbound.connect(inbound_received, dispatch_uid="concierge.inbound_email.webhook")
