from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from concierge.notifications.outbox import outbox_list


def outbox_view(request: HttpRequest) -> HttpResponse:
    """Development aid: every email and SMS the embedded default has 'sent'."""
    if not settings.DEBUG:
        raise Http404
    return render(request, "notifications/outbox.html", {"items": outbox_list()})
