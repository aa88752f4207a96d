"""Rating writes: from the request page (signed in) or from the completion email's one-tap
link (a signed, expiring token; no sign-in). A request is rated once: a link opened after that
answers the rating already recorded and changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from concierge.common.errors import ApiError, NotFound, ValidationFailed
from concierge.common.tokens import hashes_equal, token_hash, token_new
from concierge.notifications.services import email_enqueue
from concierge.satisfaction.models import Rating
from concierge.servicerequests.choices import RequestStatus
from concierge.servicerequests.selectors import request_get_for_desk

if TYPE_CHECKING:
    from concierge.servicerequests.models import ServiceRequest

TOKEN_SALT = "concierge.satisfaction.rating-link"
COMMENT_MAX = 1000
SCORES = range(1, 6)
SCORE_INVALID = "Please choose a rating from 1 to 5."
COMMENT_TOO_LONG = f"Please use at most {COMMENT_MAX} characters."
NOT_COMPLETED = "You can rate a request once it is completed."
ALREADY_RATED = "You already rated this request. Thank you!"
LINK_INVALID = "This rating link is not valid."
LINK_EXPIRED = "This rating link has expired. You can still rate the request from its page."
COMMENT_REFUSED = "This comment can't be added any more."
COMMENT_REQUIRED = "Please write your comment."
SCORE_LABELS = {1: "Very poor", 2: "Poor", 3: "OK", 4: "Good", 5: "Excellent"}
# The app's rating faces (frown, annoyed, meh, smile, laugh) as emoji for the email.
SCORE_FACES = {1: "\U0001f641", 2: "\U0001f615", 3: "\U0001f610", 4: "\U0001f642", 5: "\U0001f604"}


def _signer() -> signing.TimestampSigner:
    # '.' keeps the token URL-safe (the default ':' is not in a path segment's usual set).
    return signing.TimestampSigner(salt=TOKEN_SALT, sep=".")


def rating_link_token(*, request: ServiceRequest) -> str:
    """The signed, timestamped token of the completion email's rating links (request and
    employee)."""
    return _signer().sign_object({"r": request.pk, "u": request.user_id})


def _request_for_token(token: str) -> ServiceRequest:
    try:
        data = _signer().unsign_object(token, max_age=settings.RATING_LINK_MAX_AGE_SECONDS)
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
            return Rating.objects.create(
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
    return rating


def rating_invite_send(*, request: ServiceRequest) -> None:
    """The completion email to the request's employee, with one link per score (sent after the
    commit). Not for a request already rated. Every completion runs it: it is registered as a
    completion follow-up of `servicerequests.services.request_status_change` when Django
    starts (`SatisfactionConfig.ready`)."""
    employee = request.user
    if Rating.objects.filter(request=request).exists() or not employee.is_active:
        return
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
        },
    )
    email_enqueue(
        to=employee.email,
        subject=f"Your request is complete: {request.name}",
        body=(
            f"Hello {employee.first_name},\n\n"
            f"Your request \u201c{request.name}\u201d is complete.\n\n"
            "How did we do? One tap records your rating (no sign-in needed):\n\n"
            f"{links}\n\n"
            f"See the request: {request_url}\n"
        ),
        html=html,
    )
