"""Survey reads: categories, their request surveys and the Dashboard's recommended categories."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from concierge.accounts.models import User
from concierge.accounts.selectors import onboarding_answers_for_user
from concierge.common.errors import NotFound
from concierge.surveys.models import RequestSurvey, SurveyCategory

CATEGORY_NOT_FOUND = "We couldn't find that category."
MAX_ID = 2**63 - 1

# Onboarding answers (spec §3) that make a category more relevant: answer id → category icons.
RECOMMENDATION_SIGNALS: dict[int, tuple[str, ...]] = {
    122: (SurveyCategory.Icon.PET,),  # has a pet
    121: (SurveyCategory.Icon.FAMILY,),  # is a parent
    132: (SurveyCategory.Icon.HOME,),  # owns a home
    134: (SurveyCategory.Icon.CAR,),  # has a car
}


def survey_category_list() -> QuerySet[SurveyCategory]:
    """Categories that hold at least one request survey, in display order."""
    has_surveys = Exists(RequestSurvey.objects.filter(category_id=OuterRef("pk")))
    return SurveyCategory.objects.filter(has_surveys).order_by("position", "id")


def survey_category_get(*, category_id: int) -> SurveyCategory:
    if not 0 < category_id <= MAX_ID:
        raise NotFound(CATEGORY_NOT_FOUND)
    category = SurveyCategory.objects.filter(pk=category_id).first()
    if category is None:
        raise NotFound(CATEGORY_NOT_FOUND)
    return category


def request_survey_list_for_category(*, category: SurveyCategory) -> QuerySet[RequestSurvey]:
    return RequestSurvey.objects.filter(category=category).order_by("position", "id")


def recommended_icons_for_user(*, user: User) -> set[str]:
    answers = onboarding_answers_for_user(user=user)
    icons: set[str] = set()
    for answer_id, category_icons in RECOMMENDATION_SIGNALS.items():
        if answers.get(answer_id) is True:
            icons.update(category_icons)
    return icons


def recommended_category_list_for_user(*, user: User) -> list[SurveyCategory]:
    """Categories with at least one for_alpha survey, each carrying only its for_alpha surveys.

    Categories that match the user's onboarding answers (a pet owner gets Pet, a parent Family,
    a home owner Home, a car owner Car) come first; otherwise the order is the admin's
    (`recommended` categories first, then position). Each category's surveys are in
    `category.alpha_surveys`. Three queries whatever the number of categories.
    """
    boosted = recommended_icons_for_user(user=user)
    alpha_surveys = RequestSurvey.objects.filter(for_alpha=True).order_by("position", "id")
    has_alpha = Exists(alpha_surveys.filter(category_id=OuterRef("pk")))
    categories = list(
        SurveyCategory.objects.filter(has_alpha)
        .order_by("position", "id")
        .prefetch_related(
            Prefetch("request_surveys", queryset=alpha_surveys, to_attr="alpha_surveys")
        )
    )
    return sorted(
        categories,
        key=lambda c: (c.icon not in boosted, not c.recommended, c.position, c.id),
    )
