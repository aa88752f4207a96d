"""`manage.py seed_demo`: the demo a person clicks through after `make run`."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.files.storage import default_storage
from django.core.management import CommandError

from concierge.accounts.models import Company, OnboardingAnswer, User
from concierge.demo.tests.seeding import PASSWORD, seed
from concierge.offerings.models import Offering, OfferingCategory, Section, SectionItem
from concierge.surveys.models import Question, RequestSurvey, SelectOption, SurveyCategory

pytestmark = pytest.mark.django_db

MODELS = [
    Company,
    User,
    Group,
    OnboardingAnswer,
    SurveyCategory,
    RequestSurvey,
    Question,
    SelectOption,
    OfferingCategory,
    Offering,
    Section,
    SectionItem,
    User.companies.through,
    User.groups.through,
    Offering.categories.through,
    Offering.companies.through,
]


def snapshot() -> dict[str, object]:
    state: dict[str, object] = {m._meta.label: m.objects.count() for m in MODELS}
    state["users"] = sorted(User.objects.values_list("email", "password", "onboarded_at"))
    state["surveys"] = sorted(RequestSurvey.objects.values_list("id", "slug"))
    state["logos"] = sorted(Offering.objects.values_list("slug", "provider_logo"))
    state["items"] = sorted(SectionItem.objects.values_list("id", "key", "value", "external_url"))
    return state


def test_seed_demo_needs_demo_password(monkeypatch):
    monkeypatch.delenv("DEMO_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="DEMO_PASSWORD is not set"):
        seed()
    assert not User.objects.exists()


def test_seed_demo_refuses_a_password_the_sign_in_form_would_reject(monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", "abc")
    with pytest.raises(CommandError, match="6 to 128 characters"):
        seed()


def test_seed_demo_is_idempotent(seeded):
    before = snapshot()
    seed("--requests")
    assert snapshot() == before


def test_seed_demo_prints_the_accounts_but_not_the_password(seeded):
    for email in (
        "demo@example.com",
        "hr@example.com",
        "concierge@example.com",
        "admin@example.com",
        "globex@example.com",
    ):
        assert email in seeded
    assert PASSWORD not in seeded


def test_demo_make_run_prints_one_list_of_every_account_with_the_real_password(seeded):
    """`make run` and `make demo` print the seed's list (--show-password): every account the
    seed creates that can sign in, with the password itself, never a placeholder."""
    printed = seed("--requests", "--show-password")
    assert f"Demo accounts (password: {PASSWORD}):" in printed
    assert "DEMO_PASSWORD" not in printed
    assert printed.count("Demo accounts") == 1
    can_sign_in = [user.email for user in User.objects.all() if user.has_usable_password()]
    assert {"demo@example.com", "hr@example.com", "admin@example.com"} <= set(can_sign_in)
    for email in can_sign_in:
        assert email in printed


def test_seed_demo_accounts_and_companies(seeded):
    acme, globex, hq = (Company.objects.get(slug=s) for s in ("acme", "globex", "concierge-hq"))
    assert (acme.name, acme.requires_mfa) == ("Acme Corp", False)
    assert (globex.name, globex.requires_mfa) == ("Globex", True)
    assert hq.name == "Concierge HQ" and hq.is_internal

    dana = User.objects.get(email="demo@example.com")
    assert (dana.full_name, list(dana.companies.all())) == ("Dana Demo", [acme])
    assert dana.onboarded_at is not None and dana.check_password(PASSWORD)

    casey = User.objects.get(email="concierge@example.com")
    assert casey.full_name == "Casey Concierge" and casey.is_staff
    assert casey.groups.filter(name="Concierges").exists()

    admin = User.objects.get(email="admin@example.com")
    assert admin.is_superuser and admin.is_staff

    gina = User.objects.get(email="globex@example.com")
    assert (gina.full_name, list(gina.companies.all()), gina.mfa_phone) == (
        "Gina Globex",
        [globex],
        "",
    )


def test_seed_demo_password_follows_demo_password(seeded, monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", "another-password-7")
    seed()
    assert User.objects.get(email="admin@example.com").check_password("another-password-7")


def test_s9_seed_demo_surveys(seeded):
    benefits = RequestSurvey.objects.get(pk=720)
    assert (benefits.name, benefits.slug, benefits.for_alpha) == (
        "Help me with my benefits",
        "help-with-benefits",
        True,
    )
    intro = RequestSurvey.objects.get(pk=603)
    assert (intro.name, intro.slug) == ("Tell us what you need", "intro")

    assert set(SurveyCategory.objects.values_list("icon", flat=True)) == set(SurveyCategory.Icon)
    for category in SurveyCategory.objects.all():
        assert 2 <= category.request_surveys.count() <= 4, category
    assert RequestSurvey.objects.filter(for_alpha=False).count() >= 2
    assert set(Question.objects.values_list("input_type", flat=True)) == set(Question.InputType)

    walker = RequestSurvey.objects.get(slug="find-dog-walker")
    types = set(walker.questions.values_list("input_type", flat=True))
    assert types == set(Question.InputType)
    assert walker.questions.get(input_type="PhoneNumberInput").universal_answer == 104
    assert walker.questions.get(input_type="ManagedEmailInput").universal_answer == 165
    size = walker.questions.get(position=1)
    assert size.select_options.count() == 3

    branching = Question.objects.filter(show_if_question__isnull=False)
    assert branching.exists()
    for question in branching:
        question.full_clean()
        assert question.show_if_question.select_options.filter(
            value=question.show_if_value
        ).exists()


def test_seed_demo_new_surveys_get_ids_after_the_fixed_ones(seeded):
    category = SurveyCategory.objects.first()
    new = RequestSurvey.objects.create(name="New", slug="new-survey", category=category)
    assert new.id > 720


def test_s2_seed_demo_offerings(seeded):
    assert OfferingCategory.objects.count() >= 5
    assert Offering.objects.count() >= 12
    assert set(Section.objects.values_list("section_type", flat=True)) == {
        "numbered",
        "key_value",
        "text",
    }
    keys = set(
        SectionItem.objects.filter(section__section_type="key_value").values_list("key", flat=True)
    )
    assert {"phone", "email", "download", "link"} <= keys
    assert keys - {"phone", "email", "download", "link"}, "plain label keys too"
    assert Offering.objects.filter(type="benefit", featured=True).exists()
    assert Offering.objects.filter(type="product", featured=True).exists()
    helped = Offering.objects.filter(request_survey__isnull=False).exclude(request_survey_cta="")
    assert helped.filter(request_survey_id=720).exists()
    # Issue 29 'The intake': 'Get help' on Medical coverage starts with 'Medical insurance'.
    medical = Offering.objects.get(slug="acme-blueharbor-medical")
    assert medical.request_survey_answer is not None
    assert medical.request_survey_answer.label == "Medical insurance"
    assert medical.request_survey_answer.question.survey_id == medical.request_survey_id
    for offering in Offering.objects.exclude(request_survey_answer=None):
        offering.full_clean()

    acme_only = Offering.objects.filter(type="benefit", companies__slug="acme")
    globex_only = Offering.objects.filter(type="benefit", companies__slug="globex")
    assert acme_only.exists() and globex_only.exists()
    assert not acme_only.filter(companies__slug="globex").exists()
    assert Offering.objects.filter(type="product", companies__isnull=True).exists()
    assert Offering.objects.filter(type="product", companies__slug="acme").exists()

    for offering in Offering.objects.all():
        assert offering.provider_logo.name == f"offering-logos/{offering.slug}.svg"
        with offering.provider_logo.open("rb") as logo:
            assert logo.read().startswith(b"<svg")
    for item in SectionItem.objects.filter(key="download"):
        path = item.external_url.removeprefix("/media/")
        with default_storage.open(path, "rb") as document:
            assert document.read().startswith(b"%PDF-1.4")


def test_s7_seeded_acme_employee_sees_no_globex_benefit(seeded, api):
    assert api.sign_in("demo@example.com", PASSWORD).status_code == 200
    offerings = api.get("offerings", query={"types": "benefit,product"}).json()["offerings"]
    seen = {o["id"] for o in offerings}
    globex_only = set(
        Offering.objects.filter(companies__slug="globex").values_list("id", flat=True)
    )
    assert seen and not seen & globex_only
    assert {o["type"] for o in offerings} == {"benefit", "product"}
    featured = api.get(
        "offerings", query={"types": "benefit", "prefer_featured": "true", "limit": 6}
    ).json()["offerings"]
    assert featured and all(o["featured"] for o in featured)
    for offering_id in globex_only:
        assert api.get(f"offerings/{offering_id}").status_code == 404


def test_s7_seeded_pet_owning_parent_gets_home_pet_family_first(seeded, api):
    assert api.sign_in("demo@example.com", PASSWORD).status_code == 200
    body = api.get("recommended_request_categories").json()
    names = [c["name"] for c in body["recommended_request_categories"]]
    assert names[:3] == ["Home", "Pet", "Family"]


def test_seeded_globex_employee_must_enrol_a_phone(seeded, api):
    response = api.sign_in("globex@example.com", PASSWORD)
    assert response.status_code == 200
    assert response.json()["mfa_requires_verification"] is True


def test_seed_demo_gives_acme_a_reply_time_promise(seeded):
    """Issue 'Reply-time promises': the demo's Acme has a business calendar and targets."""
    from concierge.service_levels.models import ServiceLevel

    level = ServiceLevel.objects.get(company__slug="acme")
    assert (level.first_response_minutes, level.resolution_minutes) == (240, 960)
    assert level.time_zone == "America/New_York"
    assert level.holidays.count() == 2


def test_seed_demo_gives_the_desk_saved_replies(seeded):
    """Issue 'Saved replies': the demo desk has shared saved replies with placeholders."""
    from concierge.saved_replies.models import SavedReply

    titles = set(SavedReply.objects.values_list("title", flat=True))
    assert {"Got it, on it", "A few questions first", "All done"} <= titles
    assert "{first_name}" in SavedReply.objects.get(title="Got it, on it").body
