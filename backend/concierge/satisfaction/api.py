"""Rating endpoints: the employee's rating of a completed request from its page, and the
completion email's one-tap links (no sign-in: the signed token is the permission)."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router, Status

from concierge.accounts.auth import request_auth_token
from concierge.common.ratelimit import rate_limit
from concierge.common.schemas import ErrorOut
from concierge.satisfaction import selectors, services
from concierge.satisfaction.models import Rating
from concierge.satisfaction.schemas import (
    LinkCommentIn,
    LinkCommentOut,
    LinkRatingIn,
    LinkRatingOut,
    RatingCommentIn,
    RatingIn,
    RatingOut,
    RatingStateOut,
)
from concierge.servicerequests.choices import RequestStatus
from concierge.servicerequests.selectors import request_get_for_user

router = Router(tags=["satisfaction"])
ERRORS = {401: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def rating_out(rating: Rating) -> RatingOut:
    return RatingOut(score=rating.score, comment=rating.comment, created_at=rating.created_at)


def _state(status: str, rating: Rating | None) -> RatingStateOut:
    return RatingStateOut(
        can_rate=rating is None and status == RequestStatus.CLOSED,
        rating=rating_out(rating) if rating is not None else None,
    )


@router.get("/requests/{int:request_id}/rating", response={200: RatingStateOut, **ERRORS})
def rating_detail(request: HttpRequest, request_id: int):
    """The employee's rating of their request, and whether they can rate it now."""
    service_request = request_get_for_user(
        user=request_auth_token(request).user, request_id=request_id
    )
    return _state(
        service_request.status, selectors.rating_for_request(request_id=service_request.pk)
    )


@router.post(
    "/requests/{int:request_id}/rating",
    response={201: RatingStateOut, 409: ErrorOut, **ERRORS},
)
def rating_create(request: HttpRequest, request_id: int, payload: RatingIn):
    """Rate a completed request 1–5 with an optional comment, once (409 after that)."""
    service_request = request_get_for_user(
        user=request_auth_token(request).user, request_id=request_id
    )
    rating = services.rating_create(
        request=service_request, score=payload.score, comment=payload.comment
    )
    return Status(201, _state(service_request.status, rating))


@router.patch(
    "/requests/{int:request_id}/rating",
    response={200: RatingStateOut, 409: ErrorOut, **ERRORS},
)
def rating_comment(request: HttpRequest, request_id: int, payload: RatingCommentIn):
    """Add the optional comment to my one-tap rating, once (409 after that)."""
    service_request = request_get_for_user(
        user=request_auth_token(request).user, request_id=request_id
    )
    rating = services.rating_comment_add(request=service_request, comment=payload.comment)
    return _state(service_request.status, rating)


@router.post(
    "/ratings/link",
    auth=None,
    response={
        200: LinkRatingOut,
        201: LinkRatingOut,
        404: ErrorOut,
        409: ErrorOut,
        410: ErrorOut,
        422: ErrorOut,
        429: ErrorOut,
    },
)
def rating_by_link(request: HttpRequest, payload: LinkRatingIn):
    """The completion email's one-tap rating (no sign-in). The token records one rating (201);
    when the request is already rated it answers that score unchanged (200, `already_rated`).
    404 when the token is not valid, 410 when it expired."""
    rate_limit(request, "rating")
    result = services.rating_create_by_link(token=payload.token, score=payload.score)
    if result.already_rated:
        recorded = result.rating
        rating = RatingOut(score=recorded.score, comment="", created_at=recorded.created_at)
        return Status(200, LinkRatingOut(rating=rating, comment_key=None, already_rated=True))
    return Status(
        201, LinkRatingOut(rating=rating_out(result.rating), comment_key=result.comment_key)
    )


@router.post(
    "/ratings/link/comment",
    auth=None,
    response={
        200: LinkCommentOut,
        404: ErrorOut,
        409: ErrorOut,
        410: ErrorOut,
        422: ErrorOut,
        429: ErrorOut,
    },
)
def rating_comment_by_link(request: HttpRequest, payload: LinkCommentIn):
    """The optional comment after a one-tap rating, once, with the key the rating answered."""
    rate_limit(request, "rating")
    rating = services.rating_comment_by_link(
        token=payload.token, comment_key=payload.comment_key, comment=payload.comment
    )
    return LinkCommentOut(rating=rating_out(rating))
