from __future__ import annotations

from datetime import datetime

from ninja import Schema
from pydantic import Field


class RatingOut(Schema):
    score: int = Field(description="1 (very poor) to 5 (excellent).")
    comment: str
    created_at: datetime


class RatingStateOut(Schema):
    can_rate: bool = Field(description="Completed and not rated yet.")
    rating: RatingOut | None


class RatingIn(Schema):
    score: int = Field(ge=1, le=5)
    comment: str = Field("", max_length=5000)


class LinkRatingIn(Schema):
    token: str = Field(min_length=1, max_length=500)
    score: int = Field(ge=1, le=5)


class LinkRatingOut(Schema):
    rating: RatingOut
    comment_key: str | None = Field(
        description="Send it with the optional comment (once). None when already rated."
    )
    already_rated: bool = Field(
        default=False,
        description=(
            "The request was rated before (in the app or by an earlier tap): `rating` is that "
            "rating, unchanged, without its comment."
        ),
    )


class LinkCommentIn(Schema):
    token: str = Field(min_length=1, max_length=500)
    comment_key: str = Field(min_length=1, max_length=200)
    comment: str = Field(max_length=5000)


class LinkCommentOut(Schema):
    rating: RatingOut


class AverageOut(Schema):
    id: int | None
    name: str
    average: float
    count: int


class RatingSummaryOut(Schema):
    overall: AverageOut
    concierges: list[AverageOut]
    companies: list[AverageOut]


class RatingCommentIn(Schema):
    comment: str = Field(max_length=5000)
