"""Onboarding answers: spec §2 Onboarding (AboutUs, AboutYou, ContactInfo), §3 'Onboarding
answers' ids, §5 'Onboarding contact info', §7 'POST {token} answers list'."""

from __future__ import annotations

import pytest

from concierge.accounts.models import OnboardingAnswer

pytestmark = pytest.mark.django_db

FULL_ADDRESS = [
    {"answer_id": 611, "value": None},
    {"answer_id": 148, "value": "1 Main Street"},
    {"answer_id": 149, "value": "Apt 2"},
    {"answer_id": 150, "value": "Springfield"},
    {"answer_id": 151, "value": "IL"},
    {"answer_id": 311, "value": "62701"},
    {"answer_id": 313, "value": "US"},
]


def _save(api, answers):
    return api.post("users/onboarding", {"answers": answers})


def test_answers_saved_and_read_back(signed_in_api, user):
    """§3 onboarding answers: booleans (home, car, parent, pet, partner), phone, preferred
    email and the address group are stored and read back by id"""
    answers = [
        {"answer_id": 132, "value": True},
        {"answer_id": 134, "value": False},
        {"answer_id": 121, "value": True},
        {"answer_id": 122, "value": False},
        {"answer_id": 120, "value": True},
        {"answer_id": 104, "value": "(555) 123-4567"},
        {"answer_id": 165, "value": "ada.personal@example.com"},
        *FULL_ADDRESS,
    ]

    response = _save(signed_in_api, answers)

    assert response.status_code == 200, response.content
    assert response.json()["success"] is True
    read = signed_in_api.get("users/onboarding")
    assert read.status_code == 200
    got = {a["answer_id"]: a["value"] for a in read.json()["answers"]}
    assert got == {a["answer_id"]: a["value"] for a in answers}
    assert OnboardingAnswer.objects.filter(user=user).count() == len(answers)


def test_answers_are_updated_not_duplicated(signed_in_api, user):
    """§2 onboarding steps can be revisited: a second answer replaces the first"""
    _save(signed_in_api, [{"answer_id": 132, "value": True}])
    _save(signed_in_api, [{"answer_id": 132, "value": False}])

    got = signed_in_api.get("users/onboarding").json()["answers"]
    assert got == [{"answer_id": 132, "value": False}]
    assert OnboardingAnswer.objects.filter(user=user, answer_id=132).count() == 1


def test_steps_saved_separately_accumulate(signed_in_api):
    """§2 onboarding has 3 steps: answers of each step add to the earlier ones"""
    _save(signed_in_api, [{"answer_id": 132, "value": True}])
    _save(signed_in_api, [{"answer_id": 104, "value": "5551234567"}])
    ids = {a["answer_id"] for a in signed_in_api.get("users/onboarding").json()["answers"]}
    assert ids == {132, 104}


def test_empty_answers_for_new_user(signed_in_api):
    """§2 onboarding: a new user has no answers yet"""
    response = signed_in_api.get("users/onboarding")
    assert response.status_code == 200
    assert response.json() == {"answers": []}


def test_answers_belong_to_their_user(signed_in_api, user_factory, make_api):
    """ARCHITECTURE §4 ownership: one user never sees another's onboarding answers"""
    _save(signed_in_api, [{"answer_id": 132, "value": True}])
    other = user_factory(email="other@example.com")
    other_api = make_api()
    other_api.sign_in(other.email)
    assert other_api.get("users/onboarding").json() == {"answers": []}


def test_unknown_answer_id_is_422(signed_in_api, user):
    """§3 onboarding answer ids are a fixed set: an unknown id is a 422 and nothing is saved"""
    response = _save(
        signed_in_api, [{"answer_id": 132, "value": True}, {"answer_id": 999, "value": "x"}]
    )

    assert response.status_code == 422
    assert response.json()["success"] is False
    assert "999" in response.json()["error"]
    assert not OnboardingAnswer.objects.filter(user=user).exists()


def test_partial_address_is_422_naming_missing_fields(signed_in_api, user):
    """§5 onboarding contact info: if any address field is filled, line 1, city, state,
    postal code and country are required"""
    response = _save(
        signed_in_api,
        [{"answer_id": 148, "value": "1 Main Street"}, {"answer_id": 150, "value": "Springfield"}],
    )

    assert response.status_code == 422
    errors = response.json()["errors"]
    assert set(errors) == {"151", "311", "313"}
    assert errors["151"] == ["Please enter your state"]
    assert errors["311"] == ["Please enter your postal code"]
    assert errors["313"] == ["Please enter your country"]
    assert not OnboardingAnswer.objects.filter(user=user).exists()


def test_only_line_two_filled_requires_the_rest(signed_in_api):
    """§5 onboarding contact info: even line 2 alone makes the required fields required"""
    response = _save(signed_in_api, [{"answer_id": 149, "value": "Apt 2"}])
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"148", "150", "151", "311", "313"}


def test_blank_address_is_fine(signed_in_api):
    """§5 onboarding contact info: an address left entirely blank is allowed"""
    response = _save(
        signed_in_api,
        [
            {"answer_id": 148, "value": ""},
            {"answer_id": 150, "value": "  "},
            {"answer_id": 104, "value": ""},
        ],
    )
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("phone", ["555123", "555-123-45678", "(555) 123-456", "phone"])
def test_phone_must_have_ten_digits(signed_in_api, user, phone):
    """§5 onboarding phone mask (999) 999-9999: anything but 10 digits is a 422"""
    response = _save(signed_in_api, [{"answer_id": 104, "value": phone}])

    assert response.status_code == 422
    assert response.json()["errors"]["104"] == ["Please enter a valid phone number"]
    assert not OnboardingAnswer.objects.filter(user=user).exists()


def test_preferred_email_must_be_valid(signed_in_api):
    """§5 email rules apply to the preferred email (165)"""
    response = _save(signed_in_api, [{"answer_id": 165, "value": "not-an-email"}])
    assert response.status_code == 422
    assert response.json()["errors"]["165"] == ["Please enter a valid email address"]


def test_boolean_answers_must_be_booleans(signed_in_api):
    """§3 onboarding ids 132/134/121/122/120 are booleans"""
    response = _save(signed_in_api, [{"answer_id": 132, "value": "maybe"}])
    assert response.status_code == 422
    assert "132" in response.json()["errors"]


def test_onboarding_requires_sign_in(api):
    """§2 onboarding steps require sign-in"""
    assert api.get("users/onboarding").status_code == 401
    assert _save(api, [{"answer_id": 132, "value": True}]).status_code == 401


def test_saving_answers_completes_onboarding(signed_in_api):
    """§4 MFA enrollment success goes to AboutUs only if onboarding is still required"""
    assert signed_in_api.get("users/current").json()["onboarding_required"] is True
    _save(signed_in_api, FULL_ADDRESS)
    assert signed_in_api.get("users/current").json()["onboarding_required"] is False


def test_failed_save_does_not_complete_onboarding(signed_in_api):
    """§5: a refused step leaves onboarding still required"""
    _save(signed_in_api, [{"answer_id": 104, "value": "123"}])
    assert signed_in_api.get("users/current").json()["onboarding_required"] is True


def test_address_group_611_is_the_one_line_address(signed_in_api, user):
    """§3 onboarding answers: the 611 address group is sent with its parts (148–313) as the
    address on one line, and that line is what a concierge and a survey pre-fill read"""
    from concierge.accounts.selectors.onboarding import employee_profile

    line = "1 Main Street, Apt 2, Springfield, IL, 62701, US"
    answers = [{**a, "value": line} if a["answer_id"] == 611 else a for a in FULL_ADDRESS]

    response = _save(signed_in_api, answers)

    assert response.status_code == 200, response.content
    got = {
        a["answer_id"]: a["value"] for a in signed_in_api.get("users/onboarding").json()["answers"]
    }
    assert got[611] == line
    assert employee_profile(user=user).address == line


@pytest.mark.parametrize("value", [{"148": "1 Main Street"}, ["1 Main Street"], 7, True])
def test_address_group_611_must_be_text(signed_in_api, user, value):
    """§3 onboarding answers: the 611 group is text (or null), anything else is a 422"""
    response = _save(signed_in_api, [*FULL_ADDRESS[1:], {"answer_id": 611, "value": value}])

    assert response.status_code == 422
    assert response.json()["errors"] == {"611": ["Please enter your address as text"]}
    assert not OnboardingAnswer.objects.filter(user=user).exists()


@pytest.mark.parametrize(
    ("answer_id", "value", "message"),
    [
        (150, {"name": "Springfield"}, "Please enter your city as text"),
        (311, ["62701"], "Please enter your postal code as text"),
        (149, True, "Please enter your address line 2 as text"),
    ],
    ids=["city-object", "postal-code-list", "line-2-boolean"],
)
def test_address_parts_must_be_text(signed_in_api, user, answer_id, value, message):
    """§3 onboarding answers: the address parts (148–313) are text like the 611 group, so a
    non-text part never counts as filled and is never stored"""
    answers = [{**a, "value": value} if a["answer_id"] == answer_id else a for a in FULL_ADDRESS]

    response = _save(signed_in_api, answers)

    assert response.status_code == 422
    assert response.json()["errors"] == {str(answer_id): [message]}
    assert not OnboardingAnswer.objects.filter(user=user).exists()


def test_address_parts_have_a_length_limit(signed_in_api, user):
    """§5 onboarding contact info: an address line of a whole page is refused on its field, not
    stored for the desk to show"""
    answers = [
        {**a, "value": "1 Main Street " * 1000} if a["answer_id"] == 148 else a
        for a in FULL_ADDRESS
    ]

    response = _save(signed_in_api, answers)

    assert response.status_code == 422
    assert response.json()["errors"] == {"148": ["Please use at most 200 characters."]}
    assert not OnboardingAnswer.objects.filter(user=user).exists()
