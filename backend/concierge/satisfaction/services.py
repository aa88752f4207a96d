"""Rating writes: from the request page (signed in) or from the completion email's one-tap
link (a signed, expiring token; no sign-in). A request is rated once: a link opened after that
answers the rating already recorded and changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone

from concierge.common.errors import ApiError, NotFound, ValidationFailed
from concierge.common.tokens import hashes_equal, token_hash, token_new
from concierge.common.validation import too_long
from concierge.live import events
from concierge.live.publish import event_publish
from concierge.notifications.background import enqueue_on_commit
from concierge.satisfaction.invites import SCORES, link_signer
from concierge.satisfaction.invites import rating_link_token as rating_link_token
from concierge.satisfaction.models import Rating
from concierge.satisfaction.tasks import rating_invite_deliver
from concierge.servicerequests.choices import RequestStatus
from concierge.servicerequests.selectors import request_get_for_desk

if TYPE_CHECKING:
    from concierge.servicerequests.models import ServiceRequest

COMMENT_MAX = 1000
SCORE_INVALID = "Please choose a rating from 1 to 5."
COMMENT_TOO_LONG = too_long(COMMENT_MAX)
NOT_COMPLETED = "You can rate a request once it is completed."
ALREADY_RATED = "You already rated this request. Thank you!"
LINK_INVALID = "This rating link is not valid."
LINK_EXPIRED = "This rating link has expired. You can still rate the request from its page."
COMMENT_REFUSED = "This comment can't be added any more."
COMMENT_REQUIRED = "Please write your comment."


def _request_for_token(token: str) -> ServiceRequest:
    try:
        data = link_signer().unsign_object(token, max_age=settings.RATING_LINK_MAX_AGE_SECONDS)
    except signing.SignatureExpired:
        raise ApiError(LINK_EXPIRED, status_code=410) from None
    except signing.BadSignature:
        raise NotFound(LINK_INVALID) from None
    if not isinstance(data, dict) or not isinstance(data.get("r"), int):
        raise NotFound(LINK_INVALID)
    try:
        service_request = request_get_for_desk(request_id=data["r"])
    except NotFound:
        raise NotFound(LINK_INVALID) from None
    if service_request.user_id != data.get("u"):
        raise NotFound(LINK_INVALID)
    return service_request


def _clean(score: int, comment: str) -> str:
    if score not in SCORES:
        raise ValidationFailed.for_field("score", SCORE_INVALID)
    text = (comment or "").strip()
    if len(text) > COMMENT_MAX:
        raise ValidationFailed.for_field("comment", COMMENT_TOO_LONG)
    return text


def rating_create(
    *, request: ServiceRequest, score: int, comment: str = "", via: str = Rating.Via.PAGE
) -> Rating:
    """Record the employee's rating of their completed request, once (409 after that)."""
    text = _clean(score, comment)
    if request.status != RequestStatus.CLOSED:
        raise ValidationFailed.for_field("score", NOT_COMPLETED)
    employee = request.user
    try:
        with transaction.atomic():
            rating = Rating.objects.create(
                request=request,
                score=score,
                comment=text,
                employee=employee,
                concierge_id=request.assignee_id,
                company=employee.companies.order_by("name").first(),
                via=via,
            )
    except IntegrityError:
        raise ApiError(ALREADY_RATED, status_code=409) from None
    _rating_changed(request)
    return rating


def _rating_changed(request: ServiceRequest) -> None:
    """The desk shows the rating on the request's page and in its summary: live."""
    event_publish(
        type=events.RATING_CHANGED,
        request_id=request.pk,
        owner_id=request.user_id,
        staff_only=True,
    )


@dataclass(frozen=True)
class LinkRating:
    rating: Rating
    comment_key: str | None
    """None when the request was already rated: nothing recorded, no comment to add."""

    @property
    def already_rated(self) -> bool:
        return self.comment_key is None


def rating_create_by_link(*, token: str, score: int) -> LinkRating:
    """The completion email's one-tap rating: the token names the request; it expires after
    RATING_LINK_MAX_AGE_SECONDS. It records the rating once, with a one-time key for adding a
    comment; when the request is already rated (in the app, or by an earlier tap), it answers
    that rating unchanged, without a key."""
    service_request = _request_for_token(token)
    existing = Rating.objects.filter(request=service_request).first()
    if existing is not None:
        return LinkRating(rating=existing, comment_key=None)
    try:
        rating = rating_create(request=service_request, score=score, via=Rating.Via.EMAIL)
    except ApiError as error:  # rated at the same moment (another tap, or in the app)
        existing = Rating.objects.filter(request=service_request).first()
        if error.status_code != 409 or existing is None:
            raise
        return LinkRating(rating=existing, comment_key=None)
    raw, hashed = token_new()
    Rating.objects.filter(pk=rating.pk).update(comment_key_hash=hashed)
    return LinkRating(rating=rating, comment_key=raw)


def rating_comment_by_link(*, token: str, comment_key: str, comment: str) -> Rating:
    """The optional comment after a one-tap rating: once, with the key the rating answered."""
    service_request = _request_for_token(token)
    rating = Rating.objects.filter(request=service_request).first()
    if (
        rating is None
        or not rating.comment_key_hash
        or not hashes_equal(rating.comment_key_hash, token_hash(comment_key))
    ):
        raise ApiError(COMMENT_REFUSED, status_code=409)
    text = _clean(rating.score, comment)
    Rating.objects.filter(pk=rating.pk).update(comment=text, comment_key_hash="")
    rating.comment, rating.comment_key_hash = text, ""
    _rating_changed(service_request)
    return rating


def rating_comment_add(*, request: ServiceRequest, comment: str) -> Rating:
    """The optional comment after a one-tap rating on the request page: once (409 after)."""
    rating = Rating.objects.filter(request=request).first()
    if rating is None or rating.comment:
        raise ApiError(COMMENT_REFUSED, status_code=409)
    text = _clean(rating.score, comment)
    if not text:
        raise ValidationFailed.for_field("comment", COMMENT_REQUIRED)
    Rating.objects.filter(pk=rating.pk).update(comment=text, comment_key_hash="")
    rating.comment = text
    _rating_changed(request)
    return rating


def rating_invite_send(*, request: ServiceRequest) -> None:
    """The completion email to the request's employee, with one link per score: queued when
    the completion commits, to run COMPLETION_EMAIL_DELAY_SECONDS later (longer than the
    desk's Undo is accepted), as `rating_invite_deliver_due` for this completion (its
    `completed_at`). Every completion runs it: it is registered as a completion follow-up of
    `servicerequests.services.request_status_change` when Django starts
    (`SatisfactionConfig.ready`), and runs inside the completion's transaction: a completion
    rolled back queues nothing."""
    if request.completed_at is None:
        return
    invite = rating_invite_deliver
    delay = int(settings.COMPLETION_EMAIL_DELAY_SECONDS)
    if delay:
        invite = invite.using(run_after=timezone.now() + timedelta(seconds=delay))
    enqueue_on_commit(invite, request_id=request.pk, completed_at=request.completed_at.isoformat())
