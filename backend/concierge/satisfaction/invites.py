"""The completion email (the invitation to rate a request): its signed one-tap links, its two
parts, and the decision to send it once its completion has stood for
COMPLETION_EMAIL_DELAY_SECONDS (`rating_invite_deliver_due`, run by the `tasks` module's task
that `services.rating_invite_send` queues)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.template.loader import render_to_string

from concierge.notification_settings.selectors import (
    EMAIL_KIND_NAMES,
    email_allowed,
    email_unsubscribe,
    unsubscribe_footer,
)
from concierge.notifications.services import email_enqueue_with_transaction
from concierge.satisfaction.models import Rating, RatingInvite
from concierge.servicerequests.choices import RequestStatus
from concierge.servicerequests.reply_address import request_email_headers
from concierge.servicerequests.selectors import request_lock_with_employee

if TYPE_CHECKING:
    from concierge.servicerequests.models import ServiceRequest

TOKEN_SALT = "concierge.satisfaction.rating-link"
SCORES = range(1, 6)
SCORE_LABELS = {1: "Very poor", 2: "Poor", 3: "OK", 4: "Good", 5: "Excellent"}
# The app's rating faces (frown, annoyed, meh, smile, laugh) as emoji for the email.
SCORE_FACES = {1: "\U0001f641", 2: "\U0001f615", 3: "\U0001f610", 4: "\U0001f642", 5: "\U0001f604"}


def link_signer() -> signing.TimestampSigner:
    # '.' keeps the token URL-safe (the default ':' is not in a path segment's usual set).
    return signing.TimestampSigner(salt=TOKEN_SALT, sep=".")


def rating_link_token(*, request: ServiceRequest) -> str:
    """The signed, timestamped token of the completion email's rating links (request and
    employee)."""
    return link_signer().sign_object({"r": request.pk, "u": request.user_id})


def rating_invite_deliver_due(*, request_id: int, completed_at: str) -> str:
    """The completion email of the completion made at `completed_at` (ISO 8601), now that it
    is due: queued only if that completion still stands (the request is Completed and was not
    completed again since: an undone completion sends nothing, a later one sends its own), the
    request is not rated and the employee's account is active. Returns what it did.

    The checks, the record of this completion's email (`RatingInvite`) and the email's own task
    are written in one transaction, under the request's row lock (which status changes take
    too): a task run twice (delivery is at least once; a worker may stop mid-way) queues the
    email once, and one stopped before its commit leaves nothing behind to skip it.
    """
    completion = datetime.fromisoformat(completed_at)
    with transaction.atomic():
        service_request = request_lock_with_employee(request_id=request_id)
        if service_request is None:
            return "request deleted"
        if service_request.status != RequestStatus.CLOSED:
            return "no longer completed"
        if service_request.completed_at != completion:
            return "completed again since"
        if not service_request.user.is_active:
            return "the employee's account is inactive"
        if Rating.objects.filter(request_id=request_id).exists():
            return "already rated"
        if not email_allowed(user=service_request.user, kind="completion"):
            return "the employee turned completion emails off"
        _, created = RatingInvite.objects.get_or_create(
            request_id=request_id, completed_at=completion
        )
        if not created:
            return "already queued"
        email_enqueue_with_transaction(**rating_invite_email(request=service_request))
    return "queued"


def rating_invite_email(*, request: ServiceRequest) -> dict[str, Any]:
    """The completion email's recipient, subject and parts: the plain text with one link per
    score, and the HTML with five face buttons (the same links); its threading headers and
    Reply-To (reply by email, when on)."""
    employee = request.user
    token = rating_link_token(request=request)
    base = f"{settings.PUBLIC_URL}/rate/{token}"
    request_url = f"{settings.PUBLIC_URL}/requests/{request.pk}"
    links = "\n".join(
        f"  {score} – {SCORE_LABELS[score]}: {base}?score={score}" for score in (5, 4, 3, 2, 1)
    )
    faces = [
        {
            "score": score,
            "label": SCORE_LABELS[score],
            "emoji": SCORE_FACES[score],
            "url": f"{base}?score={score}",
        }
        for score in SCORES
    ]
    headers, reply_to = request_email_headers(request=request)
    unsubscribe_headers, unsubscribe_link = email_unsubscribe(user=employee, kind="completion")
    headers.update(unsubscribe_headers)
    html = render_to_string(
        "satisfaction/rating_invite_email.html",
        {
            "product_name": settings.PRODUCT_NAME,
            "support_email": settings.SUPPORT_EMAIL,
            "first_name": employee.first_name,
            "request_name": request.name,
            "faces": faces,
            "request_url": request_url,
            "link_days": settings.RATING_LINK_MAX_AGE_SECONDS // (24 * 3600),
            "reply_reopens": bool(reply_to),
            "unsubscribe_url": unsubscribe_link,
            "unsubscribe_what": EMAIL_KIND_NAMES["completion"],
        },
    )
    reopens = (
        "Replying to this email reopens your request, so reply only if you need something else.\n\n"
        if reply_to
        else ""
    )
    return {
        "to": employee.email,
        "headers": headers,
        "reply_to": reply_to,
        "subject": f"Your request is complete: {request.name}",
        "body": (
            f"Hello {employee.first_name},\n\n"
            f"Your request \u201c{request.name}\u201d is complete.\n\n"
            "How did we do? One tap records your rating (no sign-in needed):\n\n"
            f"{links}\n\n"
            f"See the request: {request_url}\n\n"
            f"{reopens}"
            f"{unsubscribe_footer(kind='completion', url=unsubscribe_link)}\n"
        ),
        "html": html,
    }
