"""Spec §4 'Request drawer flow', §3 'Next question item' / 'Answer payload', §5 'Survey answers',
§7 'Requests and surveys': begin, next question, answer (and edit, skip), review, submit."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from concierge.accounts.models import OnboardingAnswer
from concierge.offerings.models import Offering
from concierge.servicerequests import services as request_services
from concierge.servicerequests.models import ServiceRequest
from concierge.surveys import selectors
from concierge.surveys.models import (
    Question,
    RequestSurvey,
    SelectOption,
    SurveyCategory,
    UserRequestAnswer,
    UserRequestSurvey,
)
from concierge.uploads.tests.samples import png_bytes, presign, upload_via_api

pytestmark = pytest.mark.django_db

T = Question.InputType
ALREADY_SUBMITTED = "This request has already been submitted."
OFFERING_NOT_FOUND = "We couldn't find that benefit or offer."
HELP_NOT_OFFERED = "That benefit or offer no longer offers this help."


@pytest.fixture(autouse=True)
def _local_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def add_question(survey, position, label, input_type, *, options=(), **kw) -> Question:
    question = Question.objects.create(
        survey=survey, position=position, label=label, input_type=input_type, **kw
    )
    for index, (option_label, value) in enumerate(options):
        SelectOption.objects.create(
            question=question, label=option_label, value=value, position=index
        )
    return question


@pytest.fixture
def walker():
    """A demo-like survey using every input type, a branch and two optional questions."""
    pet = SurveyCategory.objects.create(name="Pet", icon="pet", recommended=True)
    survey = RequestSurvey.objects.create(
        id=616, name="Find a dog walker", slug="dog-walker", category=pet
    )
    size = add_question(
        survey,
        1,
        "How big is your dog?",
        T.SINGLE_SELECT,
        options=[("Small (under 25 lb)", "small"), ("Large (25 lb or more)", "large")],
    )
    q = {
        "size": size,
        "strength": add_question(
            survey,
            2,
            "Does your dog pull on the leash?",
            T.TEXT,
            show_if_question=size,
            show_if_value="large",
        ),
        "schedule": add_question(survey, 3, "When do you need walks?", T.MULTILINE_TEXT),
        "phone": add_question(survey, 4, "Best phone number", T.PHONE_NUMBER, universal_answer=104),
        "email": add_question(
            survey, 5, "Email for updates", T.MANAGED_EMAIL, universal_answer=165
        ),
        "photo": add_question(survey, 6, "A photo of your dog", T.SINGLE_UPLOAD, optional=True),
        "notes": add_question(survey, 7, "Anything else?", T.TEXT, optional=True),
    }
    babysitter = RequestSurvey.objects.create(
        name="Find a babysitter",
        slug="babysitter",
        category=SurveyCategory.objects.create(name="Family", icon="family"),
    )
    q["elsewhere"] = add_question(babysitter, 1, "How many children?", T.TEXT)
    return {"survey": survey, "babysitter": babysitter, "q": q}


@pytest.fixture
def other_api(make_api, user_factory):
    grace = user_factory(email="grace@example.com", first_name="Grace", last_name="Hopper")
    client = make_api()
    assert client.sign_in(grace.email).status_code == 200
    client.user = grace
    return client


def begin(api, survey_id, body=None) -> int:
    response = api.post(
        f"request_surveys/{survey_id}/user_request_surveys", body or {"for_alpha": True}
    )
    assert response.status_code == 200, response.content
    return response.json()["user_request_survey"]["id"]


def next_item(api, run_id):
    response = api.get(f"user_request_surveys/{run_id}/next_screen_item")
    assert response.status_code == 200, response.content
    return response.json()["next_item"]


def answer(api, run_id, question, value, object_type="Datum"):
    question_id = question.id if isinstance(question, Question) else question
    return api.post(
        f"user_request_surveys/{run_id}/user_request_answers",
        {
            "user_request_answer": {
                "object_satisfied_id": question_id,
                "object_satisfied_type": object_type,
                "value": value,
            }
        },
    )


def ok(response):
    assert response.status_code == 200, response.content
    return response.json()


def answer_all(api, run_id, q, *, size="small", photo=None):
    ok(answer(api, run_id, q["size"], size))
    if size == "large":
        ok(answer(api, run_id, q["strength"], "A little"))
    ok(answer(api, run_id, q["schedule"], "Weekdays at noon\nSaturday mornings"))
    ok(answer(api, run_id, q["phone"], "(555) 123-4567"))
    ok(answer(api, run_id, q["email"], "ada.home@example.com"))
    ok(answer(api, run_id, q["photo"], photo))
    ok(answer(api, run_id, q["notes"], "He loves squirrels"))


def submit(api, run_id):
    return api.post(f"user_request_surveys/{run_id}/submit")


# --------------------------------------------------------------------------- §4 step 1: begin


def test_s4_request_drawer_begin_creates_a_user_request_survey(signed_in_api, user, walker):
    response = signed_in_api.post("request_surveys/616/user_request_surveys", {"for_alpha": True})
    assert response.status_code == 200
    body = response.json()
    run = UserRequestSurvey.objects.get()
    assert body == {"success": True, "user_request_survey": {"id": run.id}, "resumed_answers": 0}
    assert (run.user, run.survey, run.submitted_at) == (user, walker["survey"], None)


def test_s7_begin_accepts_an_empty_body(signed_in_api, walker):
    response = signed_in_api.post("request_surveys/616/user_request_surveys")
    assert response.status_code == 200, response.content
    assert response.json()["user_request_survey"]["id"] == UserRequestSurvey.objects.get().id


@pytest.mark.parametrize("survey_id", ["999999", "0", str(2**70)])
def test_s7_begin_unknown_survey_is_404(signed_in_api, walker, survey_id):
    response = signed_in_api.post(
        f"request_surveys/{survey_id}/user_request_surveys", {"for_alpha": True}
    )
    assert response.status_code == 404
    assert response.json() == {"success": False, "error": "We couldn't find that request."}
    assert not UserRequestSurvey.objects.exists()


def test_s4_request_drawer_begin_again_resumes_with_answers_kept(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    ok(answer(signed_in_api, run_id, q["schedule"], "Mornings"))

    assert begin(signed_in_api, 616) == run_id
    assert UserRequestSurvey.objects.count() == 1
    assert next_item(signed_in_api, run_id)["item"]["id"] == q["phone"].id
    review = ok(signed_in_api.get(f"user_request_surveys/{run_id}"))
    assert [a["value"] for a in review["answers"]] == ["small", "Mornings"]


def test_s4_request_drawer_begin_after_submit_starts_a_new_run(signed_in_api, walker):
    run_id = begin(signed_in_api, 616)
    answer_all(signed_in_api, run_id, walker["q"])
    ok(submit(signed_in_api, run_id))
    new_id = begin(signed_in_api, 616)
    assert new_id != run_id
    assert next_item(signed_in_api, new_id)["item"]["id"] == walker["q"]["size"].id


def test_guided_survey_resumed_run_reports_its_answers(signed_in_api, walker):
    """Issue 'The guided survey': begin says how many answers a resumed run has, so the app can
    ask 'Continue where you left off?'; a new run has none."""
    q = walker["q"]
    first = ok(signed_in_api.post("request_surveys/616/user_request_surveys", {}))
    assert first["resumed_answers"] == 0
    run_id = first["user_request_survey"]["id"]
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    again = ok(signed_in_api.post("request_surveys/616/user_request_surveys", {}))
    assert again["user_request_survey"]["id"] == run_id
    assert again["resumed_answers"] == 1


def test_guided_survey_start_over_discards_the_unsubmitted_run(signed_in_api, walker):
    """Issue 'The guided survey': 'Start over' begins a new run without the old answers."""
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    fresh = ok(signed_in_api.post("request_surveys/616/user_request_surveys", {"start_over": True}))
    new_id = fresh["user_request_survey"]["id"]
    assert new_id != run_id
    assert fresh["resumed_answers"] == 0
    assert not UserRequestSurvey.objects.filter(pk=run_id).exists()
    assert next_item(signed_in_api, new_id)["item"]["id"] == q["size"].id


def test_guided_survey_cancel_discards_the_run_so_the_next_begin_is_fresh(
    signed_in_api, other_api, walker
):
    """Issue 'The guided survey': after 'Yes, cancel' the run is discarded; the next begin starts
    fresh. Another person's run is a 404 and is kept; a submitted run is kept."""
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    assert other_api.delete(f"user_request_surveys/{run_id}").status_code == 404
    assert UserRequestSurvey.objects.filter(pk=run_id).exists()
    ok(signed_in_api.delete(f"user_request_surveys/{run_id}"))
    assert signed_in_api.delete(f"user_request_surveys/{run_id}").status_code == 404
    fresh = ok(signed_in_api.post("request_surveys/616/user_request_surveys", {}))
    assert fresh["user_request_survey"]["id"] != run_id
    assert fresh["resumed_answers"] == 0

    done = fresh["user_request_survey"]["id"]
    answer_all(signed_in_api, done, q)
    ok(submit(signed_in_api, done))
    ok(signed_in_api.delete(f"user_request_surveys/{done}"))
    assert UserRequestSurvey.objects.filter(pk=done, submitted_at__isnull=False).exists()


def test_guided_survey_progress_question_n_of_m_and_whether_the_count_is_final(
    signed_in_api, walker
):
    """Issue 'The guided survey': each next item says 'Question n of m'; while a branching
    question is undecided the count is not final (the app shows a bar)."""
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    first = ok(signed_in_api.get(f"user_request_surveys/{run_id}/next_screen_item"))["next_item"]
    assert (first["question_number"], first["question_count"], first["count_is_final"]) == (
        1,
        7,
        False,
    )
    ok(answer(signed_in_api, run_id, q["size"], "small"))  # the leash question is now hidden
    second = ok(signed_in_api.get(f"user_request_surveys/{run_id}/next_screen_item"))["next_item"]
    assert second["item"]["id"] == q["schedule"].id
    assert (second["question_number"], second["question_count"], second["count_is_final"]) == (
        2,
        6,
        True,
    )
    ok(answer(signed_in_api, run_id, q["size"], "large"))  # now it is asked next
    third = ok(signed_in_api.get(f"user_request_surveys/{run_id}/next_screen_item"))["next_item"]
    assert third["item"]["id"] == q["strength"].id
    assert (third["question_number"], third["question_count"]) == (2, 7)


def test_s4_one_unsubmitted_run_per_user_and_survey_in_the_database(user, walker):
    UserRequestSurvey.objects.create(user=user, survey=walker["survey"])
    with pytest.raises(IntegrityError), transaction.atomic():
        UserRequestSurvey.objects.create(user=user, survey=walker["survey"])
    # One per offering too: the constraint treats "no offering" as one value.
    UserRequestSurvey.objects.create(user=user, survey=walker["survey"], offering_id=7)
    with pytest.raises(IntegrityError), transaction.atomic():
        UserRequestSurvey.objects.create(user=user, survey=walker["survey"], offering_id=7)


def offering_for(survey, slug, *, type=Offering.Type.PRODUCT, companies=()) -> Offering:
    """An offering whose 'Get help' starts `survey`; a partner offer for everyone by default."""
    offering = Offering.objects.create(
        slug=slug,
        type=type,
        provider_name=f"{slug} Inc",
        heading=slug,
        name=slug,
        request_survey=survey,
        request_survey_cta="Get help",
    )
    offering.companies.set(companies)
    return offering


@pytest.fixture
def offers(walker, company, company_factory):
    """Offerings whose 'Get help' starts the dog-walker survey: two partner offers for everyone
    (x, y), a benefit of the user's company Acme, and a benefit of another company, Globex."""
    survey = walker["survey"]
    globex = company_factory(slug="globex", name="Globex")
    benefit = Offering.Type.BENEFIT
    return {
        "x": offering_for(survey, "walkies"),
        "y": offering_for(survey, "pawsome"),
        "acme": offering_for(survey, "acme-pet-care", type=benefit, companies=[company]),
        "globex": offering_for(survey, "globex-pet-care", type=benefit, companies=[globex]),
    }


def begin_for(api, survey_id, offering_id=None, **extra):
    return ok(begin_response(api, survey_id, offering_id, **extra))


def begin_response(api, survey_id, offering_id=None, **extra):
    body = {"for_alpha": True, **extra}
    if offering_id is not None:
        body["offering_id"] = offering_id
    return api.post(f"request_surveys/{survey_id}/user_request_surveys", body)


def refused(response, message):
    assert response.status_code == 404, response.content
    assert response.json() == {"success": False, "error": message}


def test_guided_survey_get_help_for_another_offering_starts_fresh(signed_in_api, walker, offers):
    """Issue 'The guided survey': 'Get help' from an offering always carries that offering, never
    the answers given for another one: an unsubmitted run begun for offering X is not resumed
    by a begin for offering Y (nor by one from outside any offering)."""
    q = walker["q"]
    for_x = begin_for(signed_in_api, 616, offering_id=offers["x"].pk)
    x_id = for_x["user_request_survey"]["id"]
    ok(answer(signed_in_api, x_id, q["size"], "small"))

    for_y = begin_for(signed_in_api, 616, offering_id=offers["y"].pk)
    y_id = for_y["user_request_survey"]["id"]
    assert y_id != x_id
    assert for_y["resumed_answers"] == 0
    assert next_item(signed_in_api, y_id)["item"]["id"] == q["size"].id
    assert ok(signed_in_api.get(f"user_request_surveys/{y_id}"))["answers"] == []
    assert UserRequestSurvey.objects.get(pk=y_id).offering_id == offers["y"].pk

    elsewhere = begin_for(signed_in_api, 616)
    assert elsewhere["user_request_survey"]["id"] not in {x_id, y_id}
    assert elsewhere["resumed_answers"] == 0
    assert (
        UserRequestSurvey.objects.get(pk=elsewhere["user_request_survey"]["id"]).offering_id is None
    )

    # X's answers are still X's: its run is kept for when the user comes back to X.
    assert UserRequestAnswer.objects.get(user_request_survey_id=x_id).value == "small"


def test_guided_survey_get_help_for_the_same_offering_resumes(signed_in_api, walker, offers):
    """Issue 'The guided survey': 'Get help' on the same offering again offers to continue the
    run begun for it ('Continue where you left off?'); 'Start over' discards only that run."""
    q = walker["q"]
    x_id = begin_for(signed_in_api, 616, offering_id=offers["x"].pk)["user_request_survey"]["id"]
    ok(answer(signed_in_api, x_id, q["size"], "small"))
    y_id = begin_for(signed_in_api, 616, offering_id=offers["y"].pk)["user_request_survey"]["id"]
    ok(answer(signed_in_api, y_id, q["size"], "large"))

    again = begin_for(signed_in_api, 616, offering_id=offers["x"].pk)
    assert (again["user_request_survey"]["id"], again["resumed_answers"]) == (x_id, 1)
    review = ok(signed_in_api.get(f"user_request_surveys/{x_id}"))
    assert [a["value"] for a in review["answers"]] == ["small"]

    fresh = begin_for(signed_in_api, 616, offering_id=offers["x"].pk, start_over=True)
    assert fresh["user_request_survey"]["id"] not in {x_id, y_id}
    assert fresh["resumed_answers"] == 0
    assert not UserRequestSurvey.objects.filter(pk=x_id).exists()
    assert UserRequestSurvey.objects.filter(pk=y_id).exists()


def test_guided_survey_offering_runs_are_the_users_own(signed_in_api, other_api, walker, offers):
    """Issue 'The guided survey': another person's run for the same offering is never resumed,
    read or answered by the user (404)."""
    q = walker["q"]
    theirs = begin_for(other_api, 616, offering_id=offers["x"].pk)["user_request_survey"]["id"]
    ok(answer(other_api, theirs, q["size"], "small"))

    mine = begin_for(signed_in_api, 616, offering_id=offers["x"].pk)
    assert mine["user_request_survey"]["id"] != theirs
    assert mine["resumed_answers"] == 0
    assert signed_in_api.get(f"user_request_surveys/{theirs}").status_code == 404
    assert answer(signed_in_api, theirs, q["size"], "large").status_code == 404


@pytest.mark.parametrize("offering_id", [0, -3, 2**70, "eleven"])
def test_guided_survey_begin_refuses_a_bad_offering_id(signed_in_api, walker, offering_id):
    """Issue 'The guided survey': a malformed offering id is a 422, never a 500."""
    response = signed_in_api.post(
        "request_surveys/616/user_request_surveys", {"offering_id": offering_id}
    )
    assert response.status_code == 422
    assert not UserRequestSurvey.objects.exists()


def test_guided_survey_get_help_request_is_the_offerings_survey(signed_in_api, walker, offers):
    """Issue 'The guided survey': the request submitted from the run begun for an offering holds
    that run's answers only and the run keeps the offering."""
    q = walker["q"]
    other = begin_for(signed_in_api, 616, offering_id=offers["y"].pk)["user_request_survey"]["id"]
    ok(answer(signed_in_api, other, q["size"], "large"))
    run_id = begin_for(signed_in_api, 616, offering_id=offers["x"].pk)["user_request_survey"]["id"]
    answer_all(signed_in_api, run_id, q)
    ok(submit(signed_in_api, run_id))
    run = UserRequestSurvey.objects.get(pk=run_id)
    assert run.offering_id == offers["x"].pk
    assert run.service_request is not None
    assert UserRequestSurvey.objects.get(pk=other).submitted_at is None


def test_get_help_for_an_offering_that_does_not_exist_is_refused(signed_in_api, walker, offers):
    """Robustness: 'Get help' for an offering id that no offering has is a 404 in the API's error
    shape, worded as the offering's own 404, and begins no run (it used to be stored)."""
    missing = max(o.pk for o in offers.values()) + 1
    refused(begin_response(signed_in_api, 616, missing), OFFERING_NOT_FOUND)
    assert not UserRequestSurvey.objects.exists()


def test_security_get_help_for_another_companys_benefit_is_refused(signed_in_api, walker, offers):
    """Security: 'Get help' for another company's benefit is refused exactly like an offering that
    does not exist, whatever survey is asked for, so nothing tells the employee it exists."""
    globex = offers["globex"].pk
    refused(begin_response(signed_in_api, 616, globex), OFFERING_NOT_FOUND)
    babysitter = walker["babysitter"].pk
    refused(begin_response(signed_in_api, babysitter, globex), OFFERING_NOT_FOUND)
    assert not UserRequestSurvey.objects.exists()


def test_security_get_help_for_an_offer_taken_off_the_users_company_is_refused(
    signed_in_api, company_factory, offers
):
    """Security: once an admin takes the user's company off a benefit, or aims a partner offer at
    another company only, its 'Get help' no longer begins a survey."""
    offers["acme"].companies.clear()
    offers["x"].companies.set([company_factory(slug="initech", name="Initech")])
    refused(begin_response(signed_in_api, 616, offers["acme"].pk), OFFERING_NOT_FOUND)
    refused(begin_response(signed_in_api, 616, offers["x"].pk), OFFERING_NOT_FOUND)
    assert not UserRequestSurvey.objects.exists()


def test_get_help_begins_only_the_survey_of_the_offerings_get_help(signed_in_api, walker, offers):
    """An offering's 'Get help' begins its own request survey only: another survey, or any survey
    once an admin took the offering's 'Get help' away, is refused."""
    acme = offers["acme"]
    refused(begin_response(signed_in_api, walker["babysitter"].pk, acme.pk), HELP_NOT_OFFERED)
    Offering.objects.filter(pk=acme.pk).update(request_survey=None)
    refused(begin_response(signed_in_api, 616, acme.pk), HELP_NOT_OFFERED)
    assert not UserRequestSurvey.objects.exists()


def test_get_help_without_a_button_label_begins_nothing(signed_in_api, walker, offers):
    """§ Benefits & Offers: the 'Get help' block shows only when the offering has a button label
    (request_survey_cta), so an offering with a survey but no label begins no survey either."""
    acme = offers["acme"]
    Offering.objects.filter(pk=acme.pk).update(request_survey_cta="")
    refused(begin_response(signed_in_api, 616, acme.pk), HELP_NOT_OFFERED)
    assert not UserRequestSurvey.objects.exists()
    Offering.objects.filter(pk=acme.pk).update(request_survey_cta="Help me walk the dog")
    assert begin_for(signed_in_api, 616, offering_id=acme.pk)["user_request_survey"]["id"]


def test_get_help_run_of_an_offer_turned_off_since_is_not_begun_again(
    signed_in_api, walker, offers
):
    """A run begun from 'Get help' before the offer was turned off for the user is not resumed,
    nor discarded by 'Start over': beginning again is refused and the run keeps its answers."""
    acme = offers["acme"]
    run_id = begin_for(signed_in_api, 616, offering_id=acme.pk)["user_request_survey"]["id"]
    ok(answer(signed_in_api, run_id, walker["q"]["size"], "small"))
    acme.companies.clear()

    refused(begin_response(signed_in_api, 616, acme.pk), OFFERING_NOT_FOUND)
    refused(begin_response(signed_in_api, 616, acme.pk, start_over=True), OFFERING_NOT_FOUND)
    assert UserRequestAnswer.objects.get(user_request_survey_id=run_id).value == "small"


# --------------------------------------------------------------------------- §3 next question item


def test_s3_next_question_item_shape(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    assert next_item(signed_in_api, run_id) == {
        "item": {
            "id": q["size"].id,
            "label": "How big is your dog?",
            "type": "SingleSelectInput",
            "select_options": [
                {"label": "Small (under 25 lb)", "value": "small"},
                {"label": "Large (25 lb or more)", "value": "large"},
            ],
            "universal_answer": None,
        },
        "optional": False,
        "last_question": False,
        "question_number": 1,
        "question_count": 7,
        "count_is_final": False,
    }


def test_s4_request_drawer_questions_one_at_a_time_in_order_then_null(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    values = {
        "size": "small",
        "schedule": "Noon",
        "phone": "5551234567",
        "email": "a@example.com",
        "photo": None,
        "notes": "Thanks",
    }
    seen = []
    while (item := next_item(signed_in_api, run_id)) is not None:
        key = next(k for k, question in q.items() if question.id == item["item"]["id"])
        seen.append((key, item["item"]["type"], item["optional"], item["last_question"]))
        ok(answer(signed_in_api, run_id, q[key], values[key]))
    assert seen == [
        ("size", "SingleSelectInput", False, False),
        # 'strength' is hidden: the dog is small.
        ("schedule", "MultilineTextInput", False, False),
        ("phone", "PhoneNumberInput", False, False),
        ("email", "ManagedEmailInput", False, False),
        ("photo", "SingleUploadInput", True, False),
        ("notes", "TextInput", True, True),
    ]
    assert signed_in_api.get(f"user_request_surveys/{run_id}/next_screen_item").json() == {
        "next_item": None
    }


def test_s4_branching_follow_up_shown_when_the_earlier_answer_matches(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    ok(answer(signed_in_api, run_id, q["size"], "large"))
    item = next_item(signed_in_api, run_id)
    assert item["item"]["label"] == "Does your dog pull on the leash?"
    assert item["item"]["select_options"] == []


def test_s4_branching_hidden_question_cannot_be_answered(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    # Not shown before the size is known, nor once the dog is small.
    response = answer(signed_in_api, run_id, q["strength"], "Yes")
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "object_satisfied_id": ["That question doesn't apply to your earlier answers."]
    }
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    assert answer(signed_in_api, run_id, q["strength"], "Yes").status_code == 422
    assert not UserRequestAnswer.objects.filter(question=q["strength"]).exists()


def test_s4_branching_editing_the_earlier_answer_hides_the_follow_up(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    ok(answer(signed_in_api, run_id, q["size"], "large"))
    ok(answer(signed_in_api, run_id, q["strength"], "Pulls hard"))
    ok(answer(signed_in_api, run_id, q["size"], "small"))  # edit
    review = ok(signed_in_api.get(f"user_request_surveys/{run_id}"))
    assert [a["question_id"] for a in review["answers"]] == [q["size"].id]
    assert next_item(signed_in_api, run_id)["item"]["id"] == q["schedule"].id
    # Back to large: the kept answer applies again.
    ok(answer(signed_in_api, run_id, q["size"], "large"))
    review = ok(signed_in_api.get(f"user_request_surveys/{run_id}"))
    assert [a["display_value"] for a in review["answers"]] == [
        "Large (25 lb or more)",
        "Pulls hard",
    ]


def test_s3_last_question_is_false_while_a_follow_up_may_still_appear(signed_in_api):
    category = SurveyCategory.objects.create(name="Travel", icon="travel")
    survey = RequestSurvey.objects.create(name="Book a trip", slug="trip", category=category)
    flying = add_question(
        survey, 1, "Are you flying?", T.SINGLE_SELECT, options=[("Yes", "yes"), ("No", "no")]
    )
    add_question(survey, 2, "Which airport?", T.TEXT, show_if_question=flying, show_if_value="yes")
    run_id = begin(signed_in_api, survey.id)
    item = next_item(signed_in_api, run_id)
    assert (item["item"]["id"], item["last_question"]) == (flying.id, False)
    ok(answer(signed_in_api, run_id, flying, "no"))
    assert next_item(signed_in_api, run_id) is None
    ok(answer(signed_in_api, run_id, flying, "yes"))
    item = next_item(signed_in_api, run_id)
    assert (item["item"]["label"], item["last_question"]) == ("Which airport?", True)


def test_s3_branching_compares_values_as_strings():
    assert selectors.answer_value_text("large") == "large"
    assert selectors.answer_value_text(2) == "2"
    assert selectors.answer_value_text(True) == "true"
    assert selectors.answer_value_text(None) is None


def test_s3_a_survey_without_questions_is_complete_at_once(signed_in_api, walker):
    empty = RequestSurvey.objects.create(
        name="Something else", slug="other", category=walker["survey"].category
    )
    run_id = begin(signed_in_api, empty.id)
    assert next_item(signed_in_api, run_id) is None


# --------------------------------------------------------------------------- universal answers


def test_s3_universal_answer_prefilled_from_onboarding(signed_in_api, user, walker):
    q = walker["q"]
    OnboardingAnswer.objects.create(user=user, answer_id=104, value="(555) 123-4567")
    OnboardingAnswer.objects.create(user=user, answer_id=165, value="ada.home@example.com")
    run_id = begin(signed_in_api, 616)
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    ok(answer(signed_in_api, run_id, q["schedule"], "Noon"))
    phone = next_item(signed_in_api, run_id)
    assert (phone["item"]["id"], phone["item"]["universal_answer"]) == (q["phone"].id, "5551234567")
    ok(answer(signed_in_api, run_id, q["phone"], phone["item"]["universal_answer"]))
    email = next_item(signed_in_api, run_id)
    assert email["item"]["universal_answer"] == "ada.home@example.com"


def test_s3_universal_answer_email_falls_back_to_the_account_email(signed_in_api, user, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    for key, value in [("size", "small"), ("schedule", "Noon")]:
        ok(answer(signed_in_api, run_id, q[key], value))
    assert next_item(signed_in_api, run_id)["item"]["universal_answer"] is None  # no phone given
    ok(answer(signed_in_api, run_id, q["phone"], "5551234567"))
    assert next_item(signed_in_api, run_id)["item"]["universal_answer"] == "ada@example.com"


def test_s3_universal_answer_address_group_is_one_line(user, walker):
    for answer_id, value in [(148, "1 Main St"), (149, ""), (150, "Springfield"), (151, "IL")]:
        OnboardingAnswer.objects.create(user=user, answer_id=answer_id, value=value)
    OnboardingAnswer.objects.create(user=user, answer_id=311, value="62701")
    OnboardingAnswer.objects.create(user=user, answer_id=313, value="US")
    address = add_question(walker["survey"], 8, "Where?", T.TEXT, universal_answer=611)
    city = add_question(walker["survey"], 9, "City?", T.TEXT, universal_answer=150)
    prefill = selectors.universal_answer_for_user
    assert prefill(user=user, question=address) == "1 Main St, Springfield, IL, 62701, US"
    assert prefill(user=user, question=city) == "Springfield"


def test_s3_universal_answer_ignores_other_users_onboarding(signed_in_api, other_api, walker):
    OnboardingAnswer.objects.create(user=other_api.user, answer_id=104, value="5559876543")
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    for key, value in [("size", "small"), ("schedule", "Noon")]:
        ok(answer(signed_in_api, run_id, q[key], value))
    assert next_item(signed_in_api, run_id)["item"]["universal_answer"] is None


# --------------------------------------------------------------------------- §5 survey answers


def test_s3_answer_payload_response_shape(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    body = ok(answer(signed_in_api, run_id, q["size"], "large"))
    stored = UserRequestAnswer.objects.get()
    assert body == {
        "success": True,
        "user_request_answer": {"id": stored.id, "question_id": q["size"].id, "value": "large"},
    }
    assert stored.value == "large"


@pytest.mark.parametrize(
    ("key", "value", "stored"),
    [
        ("size", "small", "small"),
        ("phone", "(555) 123-4567", "5551234567"),
        ("phone", "555.123.4567", "5551234567"),
        ("email", "  ada.home@example.com ", "ada.home@example.com"),
        ("schedule", "  Weekdays\nat noon  ", "Weekdays\nat noon"),
        ("schedule", "x" * 5000, "x" * 5000),
        ("notes", "Thanks!", "Thanks!"),
    ],
)
def test_s5_survey_answers_valid_values_are_stored_normalised(
    signed_in_api, walker, key, value, stored
):
    run_id = begin(signed_in_api, 616)
    body = ok(answer(signed_in_api, run_id, walker["q"][key], value))
    assert body["user_request_answer"]["value"] == stored
    assert UserRequestAnswer.objects.get().value == stored


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("size", "medium", "Please choose one of the options."),
        ("size", "Small (under 25 lb)", "Please choose one of the options."),
        ("size", None, "Please answer this question."),
        ("phone", "555-1234", "Please enter a valid phone number"),
        ("phone", "1 (555) 123-4567", "Please enter a valid phone number"),
        ("phone", "555123456a7", "Please enter a valid phone number"),
        ("email", "not-an-email", "Please enter a valid email address"),
        ("email", "ada@", "Please enter a valid email address"),
        ("schedule", "", "Please answer this question."),
        ("schedule", "   \n ", "Please answer this question."),
        ("schedule", None, "Please answer this question."),
        ("schedule", "x" * 5001, "Please use at most 5,000 characters."),
        ("phone", None, "Please answer this question."),
    ],
)
def test_s5_survey_answers_invalid_values_are_422(signed_in_api, walker, key, value, message):
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"][key], value)
    assert response.status_code == 422
    assert response.json() == {"success": False, "error": message, "errors": {"value": [message]}}
    assert not UserRequestAnswer.objects.exists()


@pytest.mark.parametrize("value", ["٥٥٥١٢٣٤٥٦٧", "５５５１２３４５６７", "(555) 123-45٦٧"])
def test_s5_survey_answers_phone_takes_only_the_digits_0_to_9(signed_in_api, walker, value):
    """§5 phone mask (999) 999-9999: digits of other scripts are no phone number."""
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"]["phone"], value)
    assert response.status_code == 422
    assert response.json()["errors"] == {"value": ["Please enter a valid phone number"]}
    assert not UserRequestAnswer.objects.exists()


def test_s5_survey_answers_value_must_be_text_or_null(signed_in_api, walker):
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"]["phone"], 5551234567)
    assert response.status_code == 422
    assert response.json()["success"] is False
    assert not UserRequestAnswer.objects.exists()


def test_s3_answer_payload_object_satisfied_type_must_be_datum(signed_in_api, walker):
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"]["size"], "small", object_type="Question")
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "object_satisfied_type": ["object_satisfied_type must be 'Datum'."]
    }
    assert not UserRequestAnswer.objects.exists()


@pytest.mark.parametrize("which", ["other_survey", "unknown"])
def test_s7_answer_for_a_question_not_in_the_survey_is_422(signed_in_api, walker, which):
    run_id = begin(signed_in_api, 616)
    question_id = walker["q"]["elsewhere"].id if which == "other_survey" else 999999
    response = answer(signed_in_api, run_id, question_id, "Two")
    assert response.status_code == 422
    assert response.json() == {
        "success": False,
        "error": "That question isn't part of this request.",
        "errors": {"object_satisfied_id": ["That question isn't part of this request."]},
    }
    assert not UserRequestAnswer.objects.exists()


def test_s4_request_drawer_answered_question_can_be_edited(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    first = ok(answer(signed_in_api, run_id, q["schedule"], "Mornings"))
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    edited = ok(answer(signed_in_api, run_id, q["schedule"], "Evenings"))
    assert edited["user_request_answer"]["id"] == first["user_request_answer"]["id"]
    assert UserRequestAnswer.objects.get(question=q["schedule"]).value == "Evenings"
    assert UserRequestAnswer.objects.count() == 2
    # An edit is checked like a first answer.
    assert answer(signed_in_api, run_id, q["schedule"], "").status_code == 422
    assert UserRequestAnswer.objects.get(question=q["schedule"]).value == "Evenings"


def test_s4_request_drawer_optional_question_skipped_with_null(signed_in_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    body = ok(answer(signed_in_api, run_id, q["notes"], None))
    assert body["user_request_answer"]["value"] is None
    assert UserRequestAnswer.objects.get(question=q["notes"]).value is None
    review = ok(signed_in_api.get(f"user_request_surveys/{run_id}"))
    assert review["answers"] == [
        {
            "question_id": q["notes"].id,
            "label": "Anything else?",
            "type": "TextInput",
            "optional": True,
            "select_options": [],
            "value": None,
            "display_value": "Question Skipped",
            "skipped": True,
        }
    ]
    # A skipped question is answered: it is not asked again.
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    for key in ("schedule", "phone", "email", "photo"):
        assert next_item(signed_in_api, run_id)["item"]["id"] == q[key].id
        ok(
            answer(
                signed_in_api,
                run_id,
                q[key],
                {"schedule": "Noon", "phone": "5551234567", "email": "a@b.co", "photo": None}[key],
            )
        )
    assert next_item(signed_in_api, run_id) is None


def test_s4_request_drawer_required_question_cannot_be_skipped(signed_in_api, walker):
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"]["schedule"], None)
    assert response.status_code == 422
    assert response.json()["error"] == "Please answer this question."


# --------------------------------------------------------------------------- §4 file upload answers


def test_s4_upload_answer_with_own_uploaded_file(signed_in_api, walker):
    q = walker["q"]
    key = upload_via_api(signed_in_api, "rex.png", png_bytes())
    run_id = begin(signed_in_api, 616)
    body = ok(answer(signed_in_api, run_id, q["photo"], key))
    assert body["user_request_answer"]["value"] == key
    stored = UserRequestAnswer.objects.get()
    assert (stored.value, stored.upload.key) == (key, key)
    review = ok(signed_in_api.get(f"user_request_surveys/{run_id}"))
    assert review["answers"][0]["display_value"] == "rex.png"
    assert review["answers"][0]["type"] == "SingleUploadInput"


def test_s4_upload_answer_with_someone_elses_upload_is_422(signed_in_api, other_api, walker):
    key = upload_via_api(other_api, "their-dog.png", png_bytes())
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"]["photo"], key)
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "value": ["We couldn't find that file. Please upload it again."]
    }
    assert not UserRequestAnswer.objects.exists()


def test_s4_upload_answer_with_an_unknown_key_is_422(signed_in_api, walker):
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"]["photo"], "uploads/nope/rex.png")
    assert response.status_code == 422
    assert response.json()["error"] == "We couldn't find that file. Please upload it again."


def test_s4_upload_answer_before_the_file_is_uploaded_is_422(signed_in_api, walker):
    presigned = presign(signed_in_api, "rex.png")
    key = presigned.json()["key"]
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"]["photo"], key)
    assert response.status_code == 422
    assert response.json()["error"] == "'rex.png' hasn't finished uploading. Please try again."
    assert not UserRequestAnswer.objects.exists()


def test_s4_upload_answer_cannot_reuse_a_message_attachment(signed_in_api, user, walker):
    service_request = request_services.request_create(user=user, name="Earlier request")
    key = upload_via_api(signed_in_api, "scan.png", png_bytes(), request_id=service_request.id)
    run_id = begin(signed_in_api, 616)
    response = answer(signed_in_api, run_id, walker["q"]["photo"], key)
    assert response.status_code == 422
    assert not UserRequestAnswer.objects.exists()


# --------------------------------------------------------------------------- §4 summary and submit


def test_s4_request_drawer_summary_review_lists_answers_in_order(signed_in_api, walker):
    q = walker["q"]
    key = upload_via_api(signed_in_api, "rex.png", png_bytes())
    run_id = begin(signed_in_api, 616)
    answer_all(signed_in_api, run_id, q, size="large", photo=key)
    review = ok(signed_in_api.get(f"user_request_surveys/{run_id}"))
    assert review["id"] == run_id
    assert review["survey"] == {"id": 616, "name": "Find a dog walker"}
    assert (review["submitted"], review["request_id"]) == (False, None)
    assert [
        (a["label"], a["value"], a["display_value"], a["skipped"]) for a in review["answers"]
    ] == [
        ("How big is your dog?", "large", "Large (25 lb or more)", False),
        ("Does your dog pull on the leash?", "A little", "A little", False),
        (
            "When do you need walks?",
            "Weekdays at noon\nSaturday mornings",
            "Weekdays at noon\nSaturday mornings",
            False,
        ),
        ("Best phone number", "5551234567", "(555) 123-4567", False),
        ("Email for updates", "ada.home@example.com", "ada.home@example.com", False),
        ("A photo of your dog", key, "rex.png", False),
        ("Anything else?", "He loves squirrels", "He loves squirrels", False),
    ]


def test_s7_submit_incomplete_survey_is_422_naming_the_question(signed_in_api, user, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    ok(answer(signed_in_api, run_id, q["size"], "large"))
    ok(answer(signed_in_api, run_id, q["schedule"], "Noon"))
    response = submit(signed_in_api, run_id)
    assert response.status_code == 422
    body = response.json()
    assert body["success"] is False
    assert body["error"] == "Please answer: Does your dog pull on the leash?"
    assert body["errors"] == {
        str(q["strength"].id): ["Please answer: Does your dog pull on the leash?"],
        str(q["phone"].id): ["Please answer: Best phone number"],
        str(q["email"].id): ["Please answer: Email for updates"],
    }
    assert not ServiceRequest.objects.exists()
    user.refresh_from_db()
    assert user.request_count == 0
    assert UserRequestSurvey.objects.get().submitted_at is None


def test_s4_request_drawer_submit_creates_the_request(signed_in_api, user, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    answer_all(signed_in_api, run_id, q)  # small dog, no photo (skipped)
    response = submit(signed_in_api, run_id)
    assert response.status_code == 200
    service_request = ServiceRequest.objects.get()
    assert response.json() == {"success": True, "request_id": service_request.id}
    assert service_request.user == user
    assert service_request.name == "Find a dog walker"
    assert service_request.status == "open"
    assert service_request.survey_category == walker["survey"].category
    assert service_request.issued_at is not None
    # The summary reads naturally (issue 'The guided survey'): no '?:' and no skipped question.
    assert service_request.details == (
        "How big is your dog? Small (under 25 lb)\n"
        "When do you need walks? Weekdays at noon\nSaturday mornings\n"
        "Best phone number: (555) 123-4567\n"
        "Email for updates: ada.home@example.com\n"
        "Anything else? He loves squirrels"
    )
    user.refresh_from_db()
    assert user.request_count == 1
    run = UserRequestSurvey.objects.get()
    assert run.submitted_at is not None
    assert run.service_request == service_request
    assert selectors.user_request_survey_for_request(service_request_id=service_request.id) == run
    review = ok(signed_in_api.get(f"user_request_surveys/{run_id}"))
    assert (review["submitted"], review["request_id"]) == (True, service_request.id)
    # The employee finds it among the open requests.
    opened = ok(signed_in_api.get("requests/open"))["requests"]
    assert [(r["id"], r["name"]) for r in opened] == [(service_request.id, "Find a dog walker")]


def test_s4_submit_summary_names_the_uploaded_file(signed_in_api, walker):
    key = upload_via_api(signed_in_api, "rex.png", png_bytes())
    run_id = begin(signed_in_api, 616)
    answer_all(signed_in_api, run_id, walker["q"], photo=key)
    ok(submit(signed_in_api, run_id))
    assert "A photo of your dog: rex.png\n" in ServiceRequest.objects.get().details


def test_guided_survey_request_summary_links_the_uploaded_file(signed_in_api, walker):
    """Issue 'The guided survey': the request summary reads naturally (skipped questions left
    out) and names the uploaded file with its upload, so the employee can open it too."""
    key = upload_via_api(signed_in_api, "rex.png", png_bytes())
    run_id = begin(signed_in_api, 616)
    q = walker["q"]
    ok(answer(signed_in_api, run_id, q["size"], "small"))
    ok(answer(signed_in_api, run_id, q["schedule"], "Mornings"))
    ok(answer(signed_in_api, run_id, q["phone"], "(555) 123-4567"))
    ok(answer(signed_in_api, run_id, q["email"], "ada.home@example.com"))
    ok(answer(signed_in_api, run_id, q["photo"], key))
    ok(answer(signed_in_api, run_id, q["notes"], None))
    request_id = ok(submit(signed_in_api, run_id))["request_id"]

    summary = ok(signed_in_api.get(f"requests/{request_id}/summary"))
    assert summary["lines"] == [
        {"label": "How big is your dog?", "answer": "Small (under 25 lb)", "file": None},
        {"label": "When do you need walks?", "answer": "Mornings", "file": None},
        {"label": "Best phone number:", "answer": "(555) 123-4567", "file": None},
        {"label": "Email for updates:", "answer": "ada.home@example.com", "file": None},
        {
            "label": "A photo of your dog:",
            "answer": "rex.png",
            "file": {
                "key": key,
                "filename": "rex.png",
                "content_type": "image/png",
                "size": len(png_bytes()),
            },
        },
    ]
    # The employee may open that file (the server checks it is theirs).
    assert signed_in_api.get(f"uploads/expiring_url?key={quote(key)}").status_code == 200


def test_guided_survey_request_summary_is_the_owners_only(
    signed_in_api, other_api, walker, concierge_api
):
    """Issue 'The guided survey': another person's request summary is a 404 (for a concierge
    too: the desk has its own view); their file cannot be opened; bad ids are 404s."""
    key = upload_via_api(signed_in_api, "rex.png", png_bytes())
    run_id = begin(signed_in_api, 616)
    answer_all(signed_in_api, run_id, walker["q"], photo=key)
    request_id = ok(submit(signed_in_api, run_id))["request_id"]
    assert other_api.get(f"requests/{request_id}/summary").status_code == 404
    assert concierge_api.get(f"requests/{request_id}/summary").status_code == 404
    assert other_api.get(f"uploads/expiring_url?key={quote(key)}").status_code in {403, 404}
    for bad in ("0", "999999", str(2**70), "-1", "abc"):
        assert signed_in_api.get(f"requests/{bad}/summary").status_code == 404


def test_guided_survey_request_summary_without_a_survey_is_empty(signed_in_api, user):
    """Issue 'The guided survey': a request made without a survey has no summary lines."""
    service_request = request_services.request_create(user=user, name="Help", details="Please")
    assert ok(signed_in_api.get(f"requests/{service_request.id}/summary")) == {
        "success": True,
        "lines": [],
    }


def test_s7_double_submit_creates_one_request(signed_in_api, user, walker):
    run_id = begin(signed_in_api, 616)
    answer_all(signed_in_api, run_id, walker["q"])
    first = ok(submit(signed_in_api, run_id))
    second = ok(submit(signed_in_api, run_id))
    assert first == second
    assert ServiceRequest.objects.count() == 1
    user.refresh_from_db()
    assert user.request_count == 1


def test_s7_submitted_survey_takes_no_more_answers(signed_in_api, walker):
    """§7: a submitted run takes no more answers: a 409 (sent meanwhile, from another tab or
    device), which the drawer answers by showing the request that was sent."""
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    answer_all(signed_in_api, run_id, q)
    ok(submit(signed_in_api, run_id))
    response = answer(signed_in_api, run_id, q["notes"], "One more thing")
    assert response.status_code == 409
    assert response.json() == {"success": False, "error": ALREADY_SUBMITTED}
    assert UserRequestAnswer.objects.get(question=q["notes"]).value == "He loves squirrels"
    assert next_item(signed_in_api, run_id) is None


# --------------------------------------------------------------------------- ownership and auth


def test_s7_another_users_survey_is_404_everywhere(signed_in_api, other_api, walker):
    q = walker["q"]
    run_id = begin(signed_in_api, 616)
    answer_all(signed_in_api, run_id, q)
    not_found = {"success": False, "error": "We couldn't find that request survey."}
    for response in [
        other_api.get(f"user_request_surveys/{run_id}"),
        other_api.get(f"user_request_surveys/{run_id}/next_screen_item"),
        answer(other_api, run_id, q["notes"], "Hijacked"),
        submit(other_api, run_id),
    ]:
        assert response.status_code == 404
        assert response.json() == not_found
    assert UserRequestAnswer.objects.get(question=q["notes"]).value == "He loves squirrels"
    assert not ServiceRequest.objects.exists()
    # Grace's own begin makes her own run, not a resume of Ada's.
    assert begin(other_api, 616) != run_id


@pytest.mark.parametrize("run_id", ["999999", "0", str(2**70)])
def test_s7_unknown_user_request_survey_is_404(signed_in_api, walker, run_id):
    assert signed_in_api.get(f"user_request_surveys/{run_id}").status_code == 404
    assert signed_in_api.get(f"user_request_surveys/{run_id}/next_screen_item").status_code == 404
    assert answer(signed_in_api, run_id, walker["q"]["size"], "small").status_code == 404
    assert submit(signed_in_api, run_id).status_code == 404


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "request_surveys/616/user_request_surveys"),
        ("get", "user_request_surveys/1"),
        ("get", "user_request_surveys/1/next_screen_item"),
        ("post", "user_request_surveys/1/user_request_answers"),
        ("post", "user_request_surveys/1/submit"),
    ],
)
def test_s4_survey_flow_needs_sign_in(api, walker, method, path):
    response = getattr(api, method)(path)
    assert response.status_code == 401
    assert response.json()["success"] is False


# --------------------------------------------------------------------------- query counts


def _queries(api, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert api.get(path).status_code == 200
    return len(captured)


@pytest.mark.parametrize("endpoint", ["next_screen_item", "summary"])
def test_s4_next_item_and_summary_use_a_fixed_number_of_queries(
    signed_in_api, user, walker, endpoint, django_assert_max_num_queries
):
    q = walker["q"]
    OnboardingAnswer.objects.create(user=user, answer_id=104, value="5551234567")
    run_id = begin(signed_in_api, 616)
    for key, value in [("size", "small"), ("schedule", "Noon")]:
        ok(answer(signed_in_api, run_id, q[key], value))
    path = {
        "next_screen_item": f"user_request_surveys/{run_id}/next_screen_item",
        "summary": f"user_request_surveys/{run_id}",
    }[endpoint]
    few = _queries(signed_in_api, path)

    # Twenty more answered questions (selects with options, uploads) ahead of the phone one.
    survey = walker["survey"]
    run = UserRequestSurvey.objects.get(pk=run_id)
    Question.objects.filter(survey=survey, position__gte=4).update(position=100)
    for n in range(20):
        kind = T.SINGLE_SELECT if n % 2 else T.SINGLE_UPLOAD
        extra = add_question(
            survey, 10 + n, f"Extra {n}", kind, options=[("A", "a"), ("B", "b")] if n % 2 else ()
        )
        if n % 2:
            UserRequestAnswer.objects.create(user_request_survey=run, question=extra, value="a")
        else:
            key = upload_via_api(signed_in_api, f"extra-{n}.png", png_bytes())
            ok(answer(signed_in_api, run_id, extra, key))
    many = _queries(signed_in_api, path)
    assert many == few
    if endpoint == "next_screen_item":
        assert next_item(signed_in_api, run_id)["item"]["universal_answer"] == "5551234567"
    with django_assert_max_num_queries(8):
        signed_in_api.get(path)
