"""Survey reads: categories, their request surveys, the Dashboard's recommended categories,
and a user's run through a survey (next question, branching, answers summary)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from concierge.accounts.onboarding import Answer
from concierge.accounts.selectors.onboarding import employee_profile
from concierge.common.errors import NotFound
from concierge.common.formatting import phone_display
from concierge.common.validation import is_database_id
from concierge.servicerequests.selectors import request_get_for_user
from concierge.surveys.models import (
    Question,
    RequestSurvey,
    SelectOption,
    SurveyCategory,
    UserRequestAnswer,
    UserRequestSurvey,
)

if TYPE_CHECKING:
    from concierge.accounts.models import User

CATEGORY_NOT_FOUND = "We couldn't find that category."

# Onboarding answers (spec §3) that make a category more relevant: answer id → category icons.
RECOMMENDATION_SIGNALS: dict[int, tuple[str, ...]] = {
    Answer.HAS_PET: (SurveyCategory.Icon.PET,),
    Answer.IS_PARENT: (SurveyCategory.Icon.FAMILY,),
    Answer.OWNS_HOME: (SurveyCategory.Icon.HOME,),
    Answer.HAS_CAR: (SurveyCategory.Icon.CAR,),
}


def survey_category_list() -> QuerySet[SurveyCategory]:
    """Categories that hold at least one request survey, in display order."""
    has_surveys = Exists(RequestSurvey.objects.filter(category_id=OuterRef("pk")))
    return SurveyCategory.objects.filter(has_surveys).order_by("position", "id")


def survey_category_get(*, category_id: int) -> SurveyCategory:
    if not is_database_id(category_id):
        raise NotFound(CATEGORY_NOT_FOUND)
    category = SurveyCategory.objects.filter(pk=category_id).first()
    if category is None:
        raise NotFound(CATEGORY_NOT_FOUND)
    return category


def request_survey_list_for_category(*, category: SurveyCategory) -> QuerySet[RequestSurvey]:
    return RequestSurvey.objects.filter(category=category).order_by("position", "id")


def recommended_icons_for_user(*, user: User) -> set[str]:
    yes_no = employee_profile(user=user).yes_no
    icons: set[str] = set()
    for answer_id, category_icons in RECOMMENDATION_SIGNALS.items():
        if yes_no.get(answer_id) is True:
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


# =========================================================================== the survey flow

SURVEY_NOT_FOUND = "We couldn't find that request."
USER_SURVEY_NOT_FOUND = "We couldn't find that request survey."
QUESTION_SKIPPED = "Question Skipped"  # spec §4 'Request drawer flow' step 3


def request_survey_get(*, survey_id: int) -> RequestSurvey:
    if not is_database_id(survey_id):
        raise NotFound(SURVEY_NOT_FOUND)
    survey = RequestSurvey.objects.select_related("category").filter(pk=survey_id).first()
    if survey is None:
        raise NotFound(SURVEY_NOT_FOUND)
    return survey


def user_request_survey_answer_count(*, user_request_survey: UserRequestSurvey) -> int:
    return user_request_survey.answers.count()


def user_request_survey_get_for_user(
    *, user: User, user_request_survey_id: int
) -> UserRequestSurvey:
    """`user`'s own run with its survey, questions (with options) and answers (with uploads):
    four queries whatever the number of questions. Another person's run is a 404."""
    if not is_database_id(user_request_survey_id):
        raise NotFound(USER_SURVEY_NOT_FOUND)
    run = (
        UserRequestSurvey.objects.select_related("survey__category")
        .prefetch_related(
            Prefetch(
                "survey__questions",
                queryset=Question.objects.order_by("position", "id").prefetch_related(
                    Prefetch(
                        "select_options", queryset=SelectOption.objects.order_by("position", "id")
                    )
                ),
            ),
            Prefetch("answers", queryset=UserRequestAnswer.objects.select_related("upload")),
        )
        .filter(pk=user_request_survey_id, user=user)
        .first()
    )
    if run is None:
        raise NotFound(USER_SURVEY_NOT_FOUND)
    return run


def answer_value_text(value: object) -> str | None:
    """An answer's value as the string branching compares (None for a skipped answer)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class SurveyFlow:
    """Which questions of a run are shown, asked next, answered: branching evaluated in order.

    A question with `show_if_question` is shown only when that question is itself shown and
    its answer, compared as a string, equals `show_if_value`. Each question's state is True
    (shown), False (hidden) or None (not known yet: it depends on an unanswered question).
    """

    def __init__(self, run: UserRequestSurvey) -> None:
        self.run = run
        self.questions: list[Question] = list(run.survey.questions.all())
        self.answers: dict[int, UserRequestAnswer] = {a.question_id: a for a in run.answers.all()}
        self.state: dict[int, bool | None] = {}
        for question in self.questions:
            self.state[question.pk] = self._state(question)

    def _state(self, question: Question) -> bool | None:
        parent_id = question.show_if_question_id
        if parent_id is None:
            return True
        parent_state = self.state.get(parent_id, False)  # a later or foreign parent: hidden
        if parent_state is False:
            return False
        parent_answer = self.answers.get(parent_id)
        if parent_state is None or parent_answer is None:
            return None
        return answer_value_text(parent_answer.value) == question.show_if_value.strip()

    def question(self, question_id: int) -> Question | None:
        return next((q for q in self.questions if q.pk == question_id), None)

    def is_shown(self, question: Question) -> bool:
        return self.state.get(question.pk) is True

    def shown(self) -> list[Question]:
        return [q for q in self.questions if self.state[q.pk] is True]

    def shown_answers(self) -> list[tuple[Question, UserRequestAnswer]]:
        """The answers of shown questions in question order (a hidden question's answer is
        kept, so changing an earlier answer back restores it, but it does not count)."""
        return [(q, self.answers[q.pk]) for q in self.shown() if q.pk in self.answers]

    def next_question(self) -> Question | None:
        return next((q for q in self.shown() if q.pk not in self.answers), None)

    def is_last(self, question: Question) -> bool:
        """No question after this one is unanswered and shown or possibly shown."""
        index = self.questions.index(question)
        return not any(
            q.pk not in self.answers and self.state[q.pk] is not False
            for q in self.questions[index + 1 :]
        )

    def progress(self, question: Question) -> tuple[int, int, bool]:
        """(number, count, final): `question` is question `number` of `count` shown so far or
        still possible; `final` is False while branching may still add or drop questions."""
        shown = self.shown()
        number = shown.index(question) + 1 if question in shown else len(shown) + 1
        possible = sum(1 for q in self.questions if self.state[q.pk] is None)
        return number, len(shown) + possible, possible == 0

    def missing(self) -> list[Question]:
        """Shown required questions without an answer (a stored skip does not count)."""
        return [
            q
            for q in self.shown()
            if not q.optional and (q.pk not in self.answers or self.answers[q.pk].value is None)
        ]


def survey_flow_for_user(*, user: User, user_request_survey_id: int) -> SurveyFlow:
    return SurveyFlow(
        user_request_survey_get_for_user(user=user, user_request_survey_id=user_request_survey_id)
    )


@dataclass(frozen=True)
class NextItem:
    question: Question
    optional: bool
    last_question: bool
    universal_answer: str | None
    question_number: int = 1
    question_count: int = 1
    count_is_final: bool = True


def next_screen_item_for_user(*, user: User, user_request_survey_id: int) -> NextItem | None:
    """The next question to ask, or None when every shown question is answered (or the
    survey was submitted). At most five queries whatever the number of questions."""
    flow = survey_flow_for_user(user=user, user_request_survey_id=user_request_survey_id)
    if flow.run.submitted_at is not None:
        return None
    question = flow.next_question()
    if question is None:
        return None
    number, count, final = flow.progress(question)
    return NextItem(
        question=question,
        optional=question.optional,
        last_question=flow.is_last(question),
        universal_answer=universal_answer_for_user(user=user, question=question),
        question_number=number,
        question_count=count,
        count_is_final=final,
    )


def universal_answer_for_user(*, user: User, question: Question) -> str | None:
    """The value a question is pre-filled with from the user's onboarding answers (spec §3):
    phone (104) as its 10 digits, preferred email (165, else the account email), the address
    group (611) as one line, or an address part as text."""
    answer_id = question.universal_answer
    if answer_id is None:
        return None
    profile = employee_profile(user=user)
    if answer_id == Answer.PHONE:
        return profile.phone_digits
    if answer_id == Answer.PREFERRED_EMAIL:
        return profile.preferred_email or user.email or None
    if answer_id == Answer.ADDRESS:
        return profile.address
    return profile.texts.get(answer_id)


# --------------------------------------------------------------------------- display values


def answer_display_value(question: Question, answer: UserRequestAnswer) -> str:
    """How a person reads an answer: 'Question Skipped', an option's label, a file's name."""
    value = answer.value
    if value is None:
        return QUESTION_SKIPPED
    text = answer_value_text(value) or ""
    if question.input_type == Question.InputType.SINGLE_SELECT:
        option = next((o for o in question.select_options.all() if o.value == text), None)
        return option.label if option is not None else text
    if question.input_type == Question.InputType.PHONE_NUMBER:
        return phone_display(text)
    if question.input_type == Question.InputType.SINGLE_UPLOAD:
        return answer.upload.filename if answer.upload is not None else text.rsplit("/", 1)[-1]
    return text


@dataclass(frozen=True)
class AnswerView:
    question: Question
    answer: UserRequestAnswer
    display_value: str

    @property
    def skipped(self) -> bool:
        return self.answer.value is None


def answer_views(*, flow: SurveyFlow) -> list[AnswerView]:
    return [
        AnswerView(question=q, answer=a, display_value=answer_display_value(q, a))
        for q, a in flow.shown_answers()
    ]


def summary_label(label: str) -> str:
    """A question as it leads its answer in the summary: 'Which neighborhood?' stays as it is;
    a label without closing punctuation takes a colon: 'Neighborhood:'."""
    label = label.strip()
    if label.endswith(("?", ":", ".", "!", "…")):
        return label
    return f"{label}:"


def summary_line(label: str, value: str) -> str:
    """'Which neighborhood?' + 'Riverside' → 'Which neighborhood? Riverside'; a label without
    closing punctuation takes a colon: 'Neighborhood: Riverside'."""
    return f"{summary_label(label)} {value}"


def answers_summary(*, flow: SurveyFlow) -> str:
    """The request details: one line per shown question that was answered (skipped ones are
    left out), reading naturally ('How big is your dog? Large')."""
    return "\n".join(
        summary_line(v.question.label, v.display_value)
        for v in answer_views(flow=flow)
        if not v.skipped
    )


def user_request_survey_for_request(*, service_request_id: int) -> UserRequestSurvey | None:
    """The submitted run a request came from (for the concierge's view of the answers)."""
    return (
        UserRequestSurvey.objects.select_related("survey")
        .filter(service_request_id=service_request_id)
        .first()
    )


def request_summary_for_user(*, user: User, request_id: int) -> list[AnswerView]:
    """The answered questions (skipped ones left out) of the survey `user`'s own request was
    made with, in question order: the request summary. Another person's request is a 404; a
    request made without a survey has none."""
    service_request = request_get_for_user(user=user, request_id=request_id)
    run = user_request_survey_for_request(service_request_id=service_request.pk)
    if run is None:
        return []
    flow = survey_flow_for_user(user=user, user_request_survey_id=run.pk)
    return [view for view in answer_views(flow=flow) if not view.skipped]
