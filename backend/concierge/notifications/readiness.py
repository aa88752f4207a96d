"""The mail transport's readiness check (GET /api/v1/health/ready, `mail`)."""

from __future__ import annotations

import smtplib

from django.conf import settings
from django.core.mail.backends.smtp import EmailBackend as SmtpBackend
from django.utils.module_loading import import_string

from concierge.common.readiness import CheckStatus


def mail_probe() -> CheckStatus:
    """With EMAIL_URL (Django's SMTP backend): `ok` when the mail server accepts a connection
    within READINESS_TIMEOUT_SECONDS, greets (220) and answers NOOP (250); it is then left
    with QUIT, without signing in or sending anything, so credentials and STARTTLS are not
    tried here (a refusal there shows as failing email tasks). Without EMAIL_URL the emails are
    written to the outbox folder: `not configured`. Raises when the server cannot be reached
    (readiness logs it and reports `unavailable`)."""
    backend = import_string(settings.EMAIL_BACKEND)
    if not (isinstance(backend, type) and issubclass(backend, SmtpBackend)):
        return "not configured"
    timeout = float(settings.READINESS_TIMEOUT_SECONDS)
    connection_class = smtplib.SMTP_SSL if settings.EMAIL_USE_SSL else smtplib.SMTP
    with connection_class(settings.EMAIL_HOST, int(settings.EMAIL_PORT), timeout=timeout) as smtp:
        code, _ = smtp.noop()
    return "ok" if code == 250 else "unavailable"
