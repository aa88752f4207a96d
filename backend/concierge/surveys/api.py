"""Survey endpoints: spec §7 'Requests and surveys' (categories, recommendations, and the
request drawer's flow: begin, next question, answer, review, submit)."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from concierge.accounts.auth import request_auth_token
from concierge.common.schemas import ErrorOut
from concierge.surveys import selectors, services
from concierge.surveys.models import Question, RequestSurvey, SurveyCategory
from concierge.surveys.schemas import (
    AnswerCreateIn,
    AnsweredQuestionOut,
    AnswerOut,
    AnswerSavedOut,
    BeginIn,
    BeginOut,
    CategoryRequestSurveysOut,
    DiscardOut,
    NextItemOut,
    NextScreenItemOut,
    QuestionItemOut,
    RecommendedCategoriesOut,
    RecommendedCategoryOut,
    RequestSummaryOut,
    RequestSurveyOut,
    SelectOptionOut,
    SubmitOut,
    SummaryFileOut,
    SummaryLineOut,
    SurveyCategoryListOut,
    SurveyCategoryOut,
    SurveyRefOut,
    UserRequestSurveyOut,
    UserRequestSurveyRef,
)

router = Router(tags=["surveys"])
ERRORS = {401: ErrorOut, 404: ErrorOut, 422: ErrorOut}


def _category_out(request: HttpRequest, category: SurveyCategory) -> SurveyCategoryOut:
    return SurveyCategoryOut(
        id=category.id,
        name=category.name,
        image_url=request.build_absolute_uri(category.image.url) if category.image else None,
        icon=SurveyCategory.Icon(category.icon),
    )


def _survey_out(survey: RequestSurvey) -> RequestSurveyOut:
    return RequestSurveyOut(
        id=survey.id, name=survey.name, slug=survey.slug, for_alpha=survey.for_alpha
    )


@router.get("/survey_categories", response={200: SurveyCategoryListOut, 401: ErrorOut})
def survey_categories(request: HttpRequest):
    categories = selectors.survey_category_list()
    return SurveyCategoryListOut(survey_categories=[_category_out(request, c) for c in categories])


@router.get(
    "/survey_categories/{category_id}/request_surveys",
    response={200: CategoryRequestSurveysOut, 401: ErrorOut, 404: ErrorOut},
)
def category_request_surveys(request: HttpRequest, category_id: int):
    category = selectors.survey_category_get(category_id=category_id)
    surveys = selectors.request_survey_list_for_category(category=category)
    return CategoryRequestSurveysOut(
        survey_category=_category_out(request, category),
        request_surveys=[_survey_out(s) for s in surveys],
    )


@router.get(
    "/recommended_request_categories", response={200: RecommendedCategoriesOut, 401: ErrorOut}
)
def recommended_request_categories(request: HttpRequest):
    user = request_auth_token(request).user
    categories = selectors.recommended_category_list_for_user(user=user)
    return RecommendedCategoriesOut(
        recommended_request_categories=[
            RecommendedCategoryOut(
                **_category_out(request, c).dict(),
                request_surveys=[_survey_out(s) for s in c.alpha_surveys],  # type: ignore[attr-defined]
            )
            for c in categories
        ]
    )


# --------------------------------------------------------------------------- the survey flow


@router.post(
    "/request_surveys/{survey_id}/user_request_surveys", response={200: BeginOut, **ERRORS}
)
def user_request_survey_begin(request: HttpRequest, survey_id: int, payload: BeginIn | None = None):
    """Begin a survey, or resume the run of it the user has not submitted (answers kept);
    `start_over` discards that run and begins afresh. With `offering_id` ('Get help' on an
    offering) only a run begun for that same offering is resumed; 404 when the user cannot see
    that offering or its 'Get help' does not start this survey."""
    user = request_auth_token(request).user
    run = services.user_request_survey_begin(
        user=user,
        survey_id=survey_id,
        start_over=bool(payload and payload.start_over),
        offering_id=payload.offering_id if payload else None,
    )
    return BeginOut(
        user_request_survey=UserRequestSurveyRef(id=run.pk),
        resumed_answers=selectors.user_request_survey_answer_count(user_request_survey=run),
    )


@router.delete("/user_request_surveys/{run_id}", response={200: DiscardOut, **ERRORS})
def user_request_survey_discard(request: HttpRequest, run_id: int):
    """Discard an unsubmitted run and its answers (the user cancelled): the next begin is fresh."""
    user = request_auth_token(request).user
    services.user_request_survey_discard(user=user, user_request_survey_id=run_id)
    return DiscardOut()


@router.get("/user_request_surveys/{run_id}", response={200: UserRequestSurveyOut, **ERRORS})
def user_request_survey_detail(request: HttpRequest, run_id: int):
    """The run with its answered questions (for resuming and the summary review)."""
    user = request_auth_token(request).user
    flow = selectors.survey_flow_for_user(user=user, user_request_survey_id=run_id)
    run = flow.run
    return UserRequestSurveyOut(
        id=run.pk,
        survey=SurveyRefOut(id=run.survey.pk, name=run.survey.name),
        answers=[
            AnsweredQuestionOut(
                question_id=view.question.pk,
                label=view.question.label,
                type=Question.InputType(view.question.input_type),
                optional=view.question.optional,
                select_options=[
                    SelectOptionOut(label=o.label, value=o.value)
                    for o in view.question.select_options.all()
                ],
                value=selectors.answer_value_text(view.answer.value),
                display_value=view.display_value,
                skipped=view.skipped,
            )
            for view in selectors.answer_views(flow=flow)
        ],
        submitted=run.submitted_at is not None,
        request_id=run.service_request_id,
    )


@router.get(
    "/user_request_surveys/{run_id}/next_screen_item", response={200: NextScreenItemOut, **ERRORS}
)
def next_screen_item(request: HttpRequest, run_id: int):
    """The next question to ask; `next_item` is null when the survey is complete."""
    user = request_auth_token(request).user
    item = selectors.next_screen_item_for_user(user=user, user_request_survey_id=run_id)
    if item is None:
        return NextScreenItemOut(next_item=None)
    question = item.question
    return NextScreenItemOut(
        next_item=NextItemOut(
            item=QuestionItemOut(
                id=question.pk,
                label=question.label,
                type=Question.InputType(question.input_type),
                select_options=[
                    SelectOptionOut(label=o.label, value=o.value)
                    for o in question.select_options.all()
                ],
                universal_answer=item.universal_answer,
            ),
            optional=item.optional,
            last_question=item.last_question,
            question_number=item.question_number,
            question_count=item.question_count,
            count_is_final=item.count_is_final,
        )
    )


@router.post(
    "/user_request_surveys/{run_id}/user_request_answers",
    response={200: AnswerSavedOut, 409: ErrorOut, **ERRORS},
)
def user_request_answer_save(request: HttpRequest, run_id: int, payload: AnswerCreateIn):
    """Answer a question, or change an answer given before (null skips an optional one); 409
    once the run was submitted (from another tab or device)."""
    user = request_auth_token(request).user
    data = payload.user_request_answer
    answer = services.user_request_answer_save(
        user=user,
        user_request_survey_id=run_id,
        question_id=data.object_satisfied_id,
        object_type=data.object_satisfied_type,
        value=data.value,
    )
    return AnswerSavedOut(
        user_request_answer=AnswerOut(
            id=answer.pk,
            question_id=answer.question_id,
            value=selectors.answer_value_text(answer.value),
        )
    )


@router.post("/user_request_surveys/{run_id}/submit", response={200: SubmitOut, **ERRORS})
def user_request_survey_submit(request: HttpRequest, run_id: int):
    """Create the request from the answers; submitting again returns the same request."""
    user = request_auth_token(request).user
    request_id = services.user_request_survey_submit(user=user, user_request_survey_id=run_id)
    return SubmitOut(request_id=request_id)


@router.get("/requests/{int:request_id}/summary", response={200: RequestSummaryOut, **ERRORS})
def request_summary(request: HttpRequest, request_id: int):
    """The summary of the user's own request: the survey's answered questions, a file answer
    with its upload (opened through GET /uploads/expiring_url)."""
    user = request_auth_token(request).user
    views = selectors.request_summary_for_user(user=user, request_id=request_id)
    return RequestSummaryOut(
        lines=[
            SummaryLineOut(
                label=selectors.summary_label(view.question.label),
                answer=view.display_value,
                file=SummaryFileOut(
                    key=upload.key,
                    filename=upload.filename,
                    content_type=upload.content_type or "application/octet-stream",
                    size=upload.size,
                )
                if (upload := view.answer.upload) is not None
                else None,
            )
            for view in views
        ]
    )
