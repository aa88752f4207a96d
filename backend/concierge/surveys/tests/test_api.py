"""Spec §7 'Requests and surveys': survey categories and the Dashboard's recommended categories."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.accounts.models import OnboardingAnswer
from concierge.surveys.models import Question, RequestSurvey, SurveyCategory

pytestmark = pytest.mark.django_db

Icon = SurveyCategory.Icon


def make_category(name: str, icon: str, position: int, *, recommended: bool = False):
    return SurveyCategory.objects.create(
        name=name, icon=icon, position=position, recommended=recommended
    )


def make_survey(category, name: str, *, for_alpha: bool = True, position: int = 0, **kw):
    slug = kw.pop("slug", name.lower().replace(" ", "-"))
    return RequestSurvey.objects.create(
        category=category, name=name, slug=slug, for_alpha=for_alpha, position=position, **kw
    )


@pytest.fixture
def catalogue():
    """Home (1), Pet (2), Family (3), Car (4) and an empty category; a couple non-alpha surveys."""
    home = make_category("Home", Icon.HOME, 1, recommended=True)
    pet = make_category("Pet", Icon.PET, 2)
    family = make_category("Family", Icon.FAMILY, 3)
    car = make_category("Car", Icon.CAR, 4)
    make_category("Empty", Icon.WILDCARD, 5)
    make_survey(home, "Find a house cleaner", position=2)
    make_survey(home, "Get a handyman", position=1)
    make_survey(home, "Set up home internet", for_alpha=False, position=3)
    make_survey(pet, "Find a dog walker", position=1)
    make_survey(family, "Find a babysitter", position=1)
    make_survey(car, "Renew my registration", for_alpha=False)
    return {"home": home, "pet": pet, "family": family, "car": car}


def answer(user, answer_id: int, value) -> None:
    OnboardingAnswer.objects.create(user=user, answer_id=answer_id, value=value)


def names(categories: list[dict]) -> list[str]:
    return [c["name"] for c in categories]


# --------------------------------------------------------------------------- survey categories


def test_s7_survey_categories_lists_categories_with_surveys_in_order(signed_in_api, catalogue):
    response = signed_in_api.get("survey_categories")
    assert response.status_code == 200
    body = response.json()
    assert names(body["survey_categories"]) == ["Home", "Pet", "Family", "Car"]
    assert body["survey_categories"][0] == {
        "id": catalogue["home"].id,
        "name": "Home",
        "image_url": None,
        "icon": "home",
    }


def test_s3_survey_category_image_url_is_absolute(signed_in_api, catalogue):
    home = catalogue["home"]
    home.image.save("home.svg", ContentFile(b"<svg/>"), save=True)
    body = signed_in_api.get("survey_categories").json()
    image_url = body["survey_categories"][0]["image_url"]
    assert image_url.startswith("http://testserver/media/survey-categories/")
    assert image_url.endswith(".svg")


def test_s7_category_request_surveys_lists_all_its_surveys_in_order(signed_in_api, catalogue):
    home = catalogue["home"]
    response = signed_in_api.get(f"survey_categories/{home.id}/request_surveys")
    assert response.status_code == 200
    body = response.json()
    assert body["survey_category"]["name"] == "Home"
    assert body["survey_category"]["icon"] == "home"
    assert [(s["name"], s["for_alpha"]) for s in body["request_surveys"]] == [
        ("Get a handyman", True),
        ("Find a house cleaner", True),
        ("Set up home internet", False),
    ]
    assert set(body["request_surveys"][0]) == {"id", "name", "slug", "for_alpha"}
    assert body["request_surveys"][0]["slug"] == "get-a-handyman"


@pytest.mark.parametrize("category_id", ["999999", "0", "-1", str(2**70)])
def test_s7_unknown_survey_category_is_404(signed_in_api, catalogue, category_id):
    response = signed_in_api.get(f"survey_categories/{category_id}/request_surveys")
    assert response.status_code == 404
    assert response.json() == {"success": False, "error": "We couldn't find that category."}


@pytest.mark.parametrize(
    "path",
    ["survey_categories", "survey_categories/1/request_surveys", "recommended_request_categories"],
)
def test_s4_survey_endpoints_need_sign_in(api, path):
    response = api.get(path)
    assert response.status_code == 401
    assert response.json()["success"] is False


def test_s9_survey_720_and_603_keep_their_ids(catalogue):
    benefits = make_survey(catalogue["home"], "Help me with my benefits", id=720)
    intro = make_survey(catalogue["home"], "Tell us what you need", slug="intro", id=603)
    assert RequestSurvey.objects.get(pk=720) == benefits
    assert RequestSurvey.objects.get(pk=603) == intro


# --------------------------------------------------------------------------- recommendations


def test_s7_recommended_categories_keep_only_for_alpha_surveys(signed_in_api, catalogue):
    response = signed_in_api.get("recommended_request_categories")
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True
    categories = {c["name"]: c for c in body["recommended_request_categories"]}
    # Car has only a non-alpha survey and the empty category has none: both are left out.
    assert set(categories) == {"Home", "Pet", "Family"}
    home = categories["Home"]
    assert [s["name"] for s in home["request_surveys"]] == [
        "Get a handyman",
        "Find a house cleaner",
    ]
    assert all(s["for_alpha"] for c in categories.values() for s in c["request_surveys"])
    assert set(home) == {"id", "name", "image_url", "icon", "request_surveys"}
    assert home["icon"] == "home"


def test_s7_recommended_without_answers_follows_admin_order(signed_in_api, catalogue):
    # Home is marked recommended; the rest follow their position.
    body = signed_in_api.get("recommended_request_categories").json()
    assert names(body["recommended_request_categories"]) == ["Home", "Pet", "Family"]


def test_s7_recommended_pet_owner_sees_pet_first(signed_in_api, user, catalogue):
    answer(user, 122, True)
    body = signed_in_api.get("recommended_request_categories").json()
    assert names(body["recommended_request_categories"]) == ["Pet", "Home", "Family"]


def test_s7_recommended_parent_sees_family_first(signed_in_api, user, catalogue):
    answer(user, 121, True)
    answer(user, 122, False)
    body = signed_in_api.get("recommended_request_categories").json()
    assert names(body["recommended_request_categories"]) == ["Family", "Home", "Pet"]


def test_s7_recommended_car_and_home_owners(signed_in_api, user, catalogue):
    make_survey(catalogue["car"], "Get my car serviced")
    answer(user, 134, True)
    body = signed_in_api.get("recommended_request_categories").json()
    assert names(body["recommended_request_categories"]) == ["Car", "Home", "Pet", "Family"]
    answer(user, 132, True)
    body = signed_in_api.get("recommended_request_categories").json()
    # Both match: they keep their own order (Home before Car), ahead of the rest.
    assert names(body["recommended_request_categories"]) == ["Home", "Car", "Pet", "Family"]


def test_s7_recommended_ranking_ignores_other_users_answers(signed_in_api, user_factory, catalogue):
    someone_else = user_factory()
    answer(someone_else, 122, True)
    body = signed_in_api.get("recommended_request_categories").json()
    assert names(body["recommended_request_categories"])[0] == "Home"


# --------------------------------------------------------------------------- query counts


def _count_queries(api, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert api.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize("endpoint", ["categories", "category_surveys", "recommended"])
def test_s4_survey_lists_use_a_fixed_number_of_queries(
    signed_in_api, catalogue, endpoint, django_assert_max_num_queries
):
    path = {
        "categories": "survey_categories",
        "category_surveys": f"survey_categories/{catalogue['home'].id}/request_surveys",
        "recommended": "recommended_request_categories",
    }[endpoint]
    few = _count_queries(signed_in_api, path)
    for n in range(12):
        category = make_category(f"Extra {n}", Icon.WILDCARD, 10 + n)
        for m in range(4):
            make_survey(category, f"Extra {n} {m}", for_alpha=m != 3)
            make_survey(catalogue["home"], f"Home extra {n} {m}")
    assert _count_queries(signed_in_api, path) == few
    with django_assert_max_num_queries(7):
        signed_in_api.get(path)


# --------------------------------------------------------------------------- branching rules


def test_s4_branching_question_must_follow_an_earlier_question_of_its_survey(catalogue):
    survey = make_survey(catalogue["pet"], "Book a vet")
    other = make_survey(catalogue["pet"], "Find a sitter")
    kind = Question.objects.create(
        survey=survey, position=1, label="What pet?", input_type="SingleSelectInput"
    )
    elsewhere = Question.objects.create(
        survey=other, position=1, label="When?", input_type="TextInput"
    )
    follow_up = Question(
        survey=survey,
        position=2,
        label="What kind of animal?",
        input_type="TextInput",
        show_if_question=kind,
        show_if_value="other",
    )
    follow_up.full_clean()

    follow_up.show_if_question = elsewhere
    with pytest.raises(ValidationError) as error:
        follow_up.full_clean()
    assert "show_if_question" in error.value.message_dict

    follow_up.show_if_question = kind
    follow_up.show_if_value = ""
    with pytest.raises(ValidationError) as error:
        follow_up.full_clean()
    assert "show_if_value" in error.value.message_dict

    kind.show_if_question = follow_up
    follow_up.save()
    kind.show_if_value = "x"
    with pytest.raises(ValidationError):
        kind.full_clean()  # depends on a later question
