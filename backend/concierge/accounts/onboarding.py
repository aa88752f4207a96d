"""The onboarding answers (spec §3): the one place that knows their ids.

An employee's answers are stored by id (`OnboardingAnswer.answer_id`); other apps name them
through `Answer` (a survey question pre-filled from the phone answer, the categories a pet
owner sees first) and read them through `accounts.selectors.onboarding.employee_profile`.
"""

from __future__ import annotations

from django.db import models


class Answer(models.IntegerChoices):
    """An onboarding answer by its spec §3 id; the label is how a concierge reads it."""

    OWNS_HOME = 132, "Owns a home"
    HAS_CAR = 134, "Has a car"
    IS_PARENT = 121, "Is a parent"
    HAS_PET = 122, "Has a pet"
    HAS_PARTNER = 120, "Has a partner"
    PHONE = 104, "Phone"
    PREFERRED_EMAIL = 165, "Preferred email"
    ADDRESS = 611, "Address"
    ADDRESS_LINE_1 = 148, "Address line 1"
    ADDRESS_LINE_2 = 149, "Address line 2"
    CITY = 150, "City"
    STATE = 151, "State"
    POSTAL_CODE = 311, "Postal code"
    COUNTRY = 313, "Country"


# Yes/no questions, in the order a concierge reads them.
YES_NO = (Answer.OWNS_HOME, Answer.HAS_CAR, Answer.IS_PARENT, Answer.HAS_PET, Answer.HAS_PARTNER)
# The address group (611) is entered as these parts; one line joins them in this order.
ADDRESS_PARTS = (
    Answer.ADDRESS_LINE_1,
    Answer.ADDRESS_LINE_2,
    Answer.CITY,
    Answer.STATE,
    Answer.POSTAL_CODE,
    Answer.COUNTRY,
)
# The parts an address needs once any part is given, by the name the error message uses.
ADDRESS_REQUIRED = {
    Answer.ADDRESS_LINE_1: "address",
    Answer.CITY: "city",
    Answer.STATE: "state",
    Answer.POSTAL_CODE: "postal code",
    Answer.COUNTRY: "country",
}
# Text answers, in the order a concierge reads them; a survey question can be pre-filled
# from any of them.
TEXT = (Answer.PHONE, Answer.PREFERRED_EMAIL, Answer.ADDRESS, *ADDRESS_PARTS)
ALL = frozenset(Answer.values)
