import re
from dataclasses import dataclass

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from concierge.notifications.outbox import OutboxItem, outbox_list

# Links in an email's HTML open in a new tab (which leaves the frame's sandbox), never in the
# small frame itself.
_BASE = '<base target="_blank">'
_HEAD = re.compile(r"<head(\s[^>]*)?>", re.IGNORECASE)


@dataclass(frozen=True)
class OutboxEntry:
    item: OutboxItem
    frame_html: str
    """The HTML part as the page's sandboxed frame shows it ('' for none)."""


def _frame_html(html: str) -> str:
    if not html:
        return ""
    head = _HEAD.search(html)
    if head is None:
        return _BASE + html
    return html[: head.end()] + _BASE + html[head.end() :]


def outbox_view(request: HttpRequest) -> HttpResponse:
    """Development aid: every email and SMS the embedded default has 'sent'. An email with an
    HTML part shows it as a mail app would, in a frame sandboxed without scripts, forms or
    same-origin access (its links open in a new tab), above its plain text."""
    if not settings.DEBUG:
        raise Http404
    entries = [OutboxEntry(item=i, frame_html=_frame_html(i.html)) for i in outbox_list()]
    return render(request, "notifications/outbox.html", {"entries": entries})
