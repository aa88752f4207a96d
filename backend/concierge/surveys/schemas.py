from __future__ import annotations

from ninja import Schema
from pydantic import Field

from concierge.common.validation import DATABASE_ID_MAX
from concierge.surveys.models import Question, SurveyCategory


class SurveyCategoryOut(Schema):
    id: int
    name: str
    image_url: str | None
    icon: SurveyCategory.Icon


class SurveyCategoryListOut(Schema):
    survey_categories: list[SurveyCategoryOut]


class RequestSurveyOut(Schema):
    id: int
    name: str
    slug: str
    for_alpha: bool


class CategoryRequestSurveysOut(Schema):
    survey_category: SurveyCategoryOut
    request_surveys: list[RequestSurveyOut]


class RecommendedCategoryOut(SurveyCategoryOut):
    request_surveys: list[RequestSurveyOut]


class RecommendedCategoriesOut(Schema):
    success: bool = True
    recommended_request_categories: list[RecommendedCategoryOut]


# --------------------------------------------------------------------------- the survey flow


class BeginIn(Schema):
    for_alpha: bool = Field(True, description="Sent as true by the web app (spec §7).")
    start_over: bool = Field(
        False,
        description="Discard the user's unsubmitted run of this survey, with its answers, and "
        "begin afresh.",
    )
    offering_id: int | None = Field(
        None,
        ge=1,
        le=DATABASE_ID_MAX,
        description="The offering whose 'Get help' begins the survey: one the user can see, "
        "whose 'Get help' is this survey (404 otherwise). An unsubmitted run is resumed only "
        "when it was begun for the same offering (none for none).",
    )


class UserRequestSurveyRef(Schema):
    id: int


class DiscardOut(Schema):
    success: bool = True


class BeginOut(Schema):
    success: bool = True
    user_request_survey: UserRequestSurveyRef
    resumed_answers: int = Field(
        0,
        description="How many answers the run already has: more than 0 when an unsubmitted run "
        "was resumed (the app asks whether to continue it or start over).",
    )


class SelectOptionOut(Schema):
    label: str
    value: str


class QuestionItemOut(Schema):
    id: int
    label: str
    type: Question.InputType = Field(
        description="TextInput, MultilineTextInput, PhoneNumberInput, ManagedEmailInput, "
        "SingleSelectInput or SingleUploadInput."
    )
    select_options: list[SelectOptionOut]
    universal_answer: str | None = Field(
        description="The pre-filled value from the user's onboarding answers (phone as 10 "
        "digits, email, address), or null."
    )


class NextItemOut(Schema):
    item: QuestionItemOut
    optional: bool
    last_question: bool = Field(
        description="True when no other question can follow (whatever this answer is)."
    )
    question_number: int = Field(description="This question's number: 'Question 3 of 7'.")
    question_count: int = Field(
        description="The questions shown so far or still possible (the 7 of 'Question 3 of 7')."
    )
    count_is_final: bool = Field(
        description="False while an unanswered question decides whether others are shown: "
        "the count may still change (show a bar rather than 'of 7')."
    )


class NextScreenItemOut(Schema):
    next_item: NextItemOut | None = Field(description="null when the survey is complete.")


class AnswerIn(Schema):
    object_satisfied_id: int = Field(description="The question's id.")
    object_satisfied_type: str = Field("Datum", max_length=50, description="Always 'Datum'.")
    value: str | None = Field(
        max_length=20_000,
        description="The answer: text, an option's value, a phone number, an email, an "
        "upload key; null skips an optional question.",
    )


class AnswerCreateIn(Schema):
    user_request_answer: AnswerIn


class AnswerOut(Schema):
    id: int
    question_id: int
    value: str | None = Field(description="As stored: trimmed, phone digits, upload key.")


class AnswerSavedOut(Schema):
    success: bool = True
    user_request_answer: AnswerOut


class SubmitOut(Schema):
    success: bool = True
    request_id: int


class SurveyRefOut(Schema):
    id: int
    name: str


class AnsweredQuestionOut(Schema):
    question_id: int
    label: str
    type: Question.InputType
    optional: bool
    select_options: list[SelectOptionOut]
    value: str | None
    display_value: str = Field(
        description="'Question Skipped', an option's label, a formatted phone, a file name."
    )
    skipped: bool


class SummaryFileOut(Schema):
    key: str = Field(description="For GET /uploads/expiring_url (the owner's own upload).")
    filename: str
    content_type: str
    size: int | None


class SummaryLineOut(Schema):
    label: str = Field(
        description="The question as it leads its answer: 'How big is your dog?', 'Address:'."
    )
    answer: str = Field(description="As a person reads it (a file answer: its name).")
    file: SummaryFileOut | None = Field(description="For a file answer: the uploaded file.")


class RequestSummaryOut(Schema):
    success: bool = True
    lines: list[SummaryLineOut] = Field(
        description="One per answered question, skipped ones left out; empty when the request "
        "was made without a survey."
    )


class UserRequestSurveyOut(Schema):
    id: int
    survey: SurveyRefOut
    answers: list[AnsweredQuestionOut] = Field(
        description="The answered questions that apply, in question order."
    )
    submitted: bool
    request_id: int | None
