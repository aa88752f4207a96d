"""`manage.py inbound_smtp --host 0.0.0.0 --port 2525`: the reply-by-email SMTP receiver
(docs/operations/reply-by-email.md)."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from concierge.inbound_email.smtp import controller_build


class Command(BaseCommand):
    help = "Receive replies by email over SMTP (put it behind your MX for REPLY_DOMAIN)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="Address to listen on.")
        parser.add_argument("--port", type=int, default=2525, help="Port to listen on.")

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        if not settings.REPLY_DOMAIN:
            raise CommandError("Set REPLY_DOMAIN first: reply by email is off without it.")
        controller = controller_build(host=host, port=port)
        stopped = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stopped.set())
        controller.start()
        self.stdout.write(
            f"Receiving replies for @{settings.REPLY_DOMAIN} on {host}:{port} "
            f"(at most {settings.INBOUND_EMAIL_MAX_BYTES} bytes per email)"
        )
        try:
            stopped.wait()
        finally:
            controller.stop()
