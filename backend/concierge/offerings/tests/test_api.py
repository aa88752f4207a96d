"""Spec §7 'Offerings' and §2 OfferingsLanding / OfferingsFull / details drawer."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from concierge.offerings.models import Offering, OfferingCategory, Section, SectionItem
from concierge.surveys.models import Question, RequestSurvey, SelectOption, SurveyCategory

pytestmark = pytest.mark.django_db

BENEFIT, PRODUCT = Offering.Type.BENEFIT, Offering.Type.PRODUCT


def make_offering(heading: str, type: str, *, companies=(), categories=(), **kw) -> Offering:
    offering = Offering.objects.create(
        slug=kw.pop("slug", heading.lower().replace(" ", "-")),
        type=type,
        provider_name=kw.pop("provider_name", f"{heading} Inc"),
        heading=heading,
        subheading=kw.pop("subheading", f"About {heading}"),
        name=kw.pop("name", f"{heading} plan"),
        **kw,
    )
    offering.companies.set(companies)
    offering.categories.set(categories)
    return offering


@pytest.fixture
def globex(company_factory):
    return company_factory(slug="globex", name="Globex")


@pytest.fixture
def health(db):
    return OfferingCategory.objects.create(external_id="health", name="Health", position=1)


@pytest.fixture
def travel(db):
    return OfferingCategory.objects.create(external_id="travel", name="Travel", position=2)


@pytest.fixture
def catalogue(company, globex, health, travel):
    """`company` is Acme Corp, the signed-in user's employer."""
    return {
        "acme_benefit": make_offering(
            "Acme medical", BENEFIT, companies=[company], categories=[health], position=2
        ),
        "globex_benefit": make_offering(
            "Globex medical", BENEFIT, companies=[globex], categories=[health], position=1
        ),
        "nobody_benefit": make_offering("Unassigned benefit", BENEFIT, position=1),
        "everyone_product": make_offering("Pet insurance", PRODUCT, position=1),
        "acme_product": make_offering(
            "Acme auto", PRODUCT, companies=[company], categories=[travel], position=2
        ),
        "globex_product": make_offering(
            "Globex travel", PRODUCT, companies=[globex], categories=[travel], position=3
        ),
    }


def headings(body: dict) -> list[str]:
    return [o["heading"] for o in body["offerings"]]


# --------------------------------------------------------------------------- visibility


def test_s7_offerings_list_shows_own_benefits_and_offers_for_everyone_or_own_company(
    signed_in_api, catalogue
):
    response = signed_in_api.get("offerings", query={"types": "benefit,product"})
    assert response.status_code == 200
    assert headings(response.json()) == ["Acme medical", "Pet insurance", "Acme auto"]


def test_s7_acme_employee_never_sees_a_globex_only_benefit_or_offer(signed_in_api, catalogue):
    listed = headings(signed_in_api.get("offerings").json())
    assert "Globex medical" not in listed
    assert "Globex travel" not in listed
    for key in ("globex_benefit", "globex_product", "nobody_benefit"):
        response = signed_in_api.get(f"offerings/{catalogue[key].id}")
        assert response.status_code == 404
        assert response.json() == {
            "success": False,
            "error": "We couldn't find that benefit or offer.",
        }


def test_s7_employee_of_two_companies_sees_both_companies_benefits(
    signed_in_api, user, globex, catalogue
):
    user.companies.add(globex)
    body = signed_in_api.get("offerings", query={"types": "benefit"}).json()
    assert headings(body) == ["Globex medical", "Acme medical"]
    assert signed_in_api.get(f"offerings/{catalogue['globex_benefit'].id}").status_code == 200


def test_s7_offerings_of_one_type(signed_in_api, catalogue):
    benefits = signed_in_api.get("offerings", query={"types": "benefit"}).json()
    assert headings(benefits) == ["Acme medical"]
    products = signed_in_api.get("offerings", query={"types": "product"}).json()
    assert headings(products) == ["Pet insurance", "Acme auto"]
    assert {o["type"] for o in products["offerings"]} == {"product"}


def test_s7_offerings_without_types_lists_both(signed_in_api, catalogue):
    assert len(signed_in_api.get("offerings").json()["offerings"]) == 3


@pytest.mark.parametrize("types", ["offer", "benefit,offer", "", " , "])
def test_s7_offerings_unknown_types_is_422(signed_in_api, catalogue, types):
    response = signed_in_api.get("offerings", query={"types": types})
    assert response.status_code == 422
    body = response.json()
    assert body["success"] is False
    assert list(body["errors"]) == ["types"]
    assert "benefit or product" in body["error"]


@pytest.mark.parametrize("limit", ["0", "-3", "many", "101"])
def test_s7_offerings_bad_limit_is_422(signed_in_api, catalogue, limit):
    response = signed_in_api.get("offerings", query={"limit": limit})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["limit"]


def test_s7_offering_list_item_fields(signed_in_api, catalogue, health):
    body = signed_in_api.get("offerings", query={"types": "benefit"}).json()
    assert body["offerings"] == [
        {
            "id": catalogue["acme_benefit"].id,
            "type": "benefit",
            "provider_name": "Acme medical Inc",
            "provider_logo_url": None,
            "heading": "Acme medical",
            "subheading": "About Acme medical",
            "name": "Acme medical plan",
            "featured": False,
            "categories": ["Health"],
        }
    ]


def test_s2_offering_logo_file_wins_over_logo_url(signed_in_api, catalogue):
    acme_benefit, acme_product = catalogue["acme_benefit"], catalogue["acme_product"]
    acme_benefit.provider_logo.save("acme.svg", ContentFile(b"<svg/>"), save=False)
    acme_benefit.provider_logo_url = "https://cdn.example.com/ignored.png"
    acme_benefit.save()
    acme_product.provider_logo_url = "/static/logos/roadsafe.svg"
    acme_product.save()
    logos = {
        o["heading"]: o["provider_logo_url"]
        for o in signed_in_api.get("offerings").json()["offerings"]
    }
    assert logos["Acme medical"].startswith("http://testserver/media/offering-logos/acme")
    assert logos["Acme auto"] == "/static/logos/roadsafe.svg"
    assert logos["Pet insurance"] is None


def test_s7_offerings_need_sign_in(api, catalogue):
    assert api.get("offerings").status_code == 401
    assert api.get(f"offerings/{catalogue['acme_benefit'].id}").status_code == 401
    assert api.get("offering_categories").status_code == 401


# --------------------------------------------------------------------------- featured


def test_s9_prefer_featured_returns_featured_only_up_to_the_limit(signed_in_api, company):
    for n in range(8):
        make_offering(f"Featured {n}", PRODUCT, featured=True, position=n)
    make_offering("Plain first", PRODUCT, position=0)
    body = signed_in_api.get(
        "offerings", query={"types": "product", "prefer_featured": "true", "limit": 6}
    ).json()
    assert headings(body) == [f"Featured {n}" for n in range(6)]
    assert all(o["featured"] for o in body["offerings"])


def test_s7_prefer_featured_with_few_featured_returns_just_those(signed_in_api, company):
    make_offering("Plain", PRODUCT, position=0)
    make_offering("Featured", PRODUCT, featured=True, position=5)
    body = signed_in_api.get(
        "offerings", query={"types": "product", "prefer_featured": "true", "limit": 6}
    ).json()
    assert headings(body) == ["Featured"]


def test_s7_prefer_featured_falls_back_to_all_when_none_is_featured(signed_in_api, company, globex):
    # Globex's featured benefit does not count: the user cannot see it.
    make_offering("Globex featured", BENEFIT, companies=[globex], featured=True)
    for n in range(8):
        make_offering(f"Benefit {n}", BENEFIT, companies=[company], position=n)
    body = signed_in_api.get(
        "offerings", query={"types": "benefit", "prefer_featured": "true", "limit": 6}
    ).json()
    assert headings(body) == [f"Benefit {n}" for n in range(6)]
    assert not any(o["featured"] for o in body["offerings"])


def test_s7_limit_without_prefer_featured_keeps_list_order(signed_in_api, company):
    make_offering("Featured late", PRODUCT, featured=True, position=9)
    for n in range(4):
        make_offering(f"Offer {n}", PRODUCT, position=n)
    body = signed_in_api.get("offerings", query={"types": "product", "limit": 3}).json()
    assert headings(body) == ["Offer 0", "Offer 1", "Offer 2"]


# --------------------------------------------------------------------------- details


@pytest.fixture
def detailed(company, health):
    category = SurveyCategory.objects.create(name="Health", icon="medical")
    survey = RequestSurvey.objects.create(
        id=720, name="Help me with my benefits", slug="help-with-benefits", category=category
    )
    offering = make_offering(
        "Dental",
        BENEFIT,
        companies=[company],
        categories=[health],
        request_survey=survey,
        request_survey_cta="Help me enroll",
    )
    text = Section.objects.create(
        offering=offering,
        section_type="text",
        heading="About",
        position=3,
        cta_url="https://dental.example/plan",
        cta_text="Read more",
    )
    SectionItem.objects.create(section=text, value="Cleanings covered at 100%.")
    contact = Section.objects.create(
        offering=offering, section_type="key_value", heading="Contact", position=1
    )
    SectionItem.objects.create(section=contact, key="phone", value="1 (800) 555-0100", position=1)
    SectionItem.objects.create(
        section=contact,
        key="download",
        value="Summary (PDF)",
        position=3,
        external_url="/media/summary.pdf",
    )
    SectionItem.objects.create(section=contact, key="Group", value="ACME-1", position=2)
    steps = Section.objects.create(offering=offering, section_type="numbered", position=2)
    SectionItem.objects.create(section=steps, value="Second", position=2)
    SectionItem.objects.create(section=steps, value="First", position=1)
    return offering


def test_s2_offering_details_carry_sections_in_order_and_get_help(signed_in_api, detailed):
    response = signed_in_api.get(f"offerings/{detailed.id}")
    assert response.status_code == 200
    offering = response.json()["offering"]
    assert offering["heading"] == "Dental"
    assert offering["categories"] == ["Health"]
    assert offering["request_survey_cta"] == "Help me enroll"
    assert offering["request_survey_id"] == 720
    assert offering["request_survey_name"] == "Help me with my benefits"
    sections = offering["sections"]
    assert [s["section_type"] for s in sections] == ["key_value", "numbered", "text"]
    assert sections[0]["items"] == [
        {"key": "phone", "value": "1 (800) 555-0100", "external_url": None},
        {"key": "Group", "value": "ACME-1", "external_url": None},
        {"key": "download", "value": "Summary (PDF)", "external_url": "/media/summary.pdf"},
    ]
    assert sections[0]["cta_url"] is None and sections[0]["cta_text"] is None
    assert [i["value"] for i in sections[1]["items"]] == ["First", "Second"]
    assert sections[1]["heading"] is None
    assert sections[2] == {
        "id": sections[2]["id"],
        "section_type": "text",
        "heading": "About",
        "items": [{"key": None, "value": "Cleanings covered at 100%.", "external_url": None}],
        "cta_url": "https://dental.example/plan",
        "cta_text": "Read more",
    }


def test_s2_no_get_help_block_without_a_request_survey(signed_in_api, detailed):
    detailed.request_survey = None
    detailed.save()
    offering = signed_in_api.get(f"offerings/{detailed.id}").json()["offering"]
    assert offering["request_survey_cta"] is None
    assert offering["request_survey_id"] is None
    assert offering["request_survey_name"] is None


@pytest.mark.parametrize("label", ["", "   "])
def test_s2_no_get_help_block_without_a_button_label(signed_in_api, detailed, label):
    """§ Benefits & Offers 'Offering details drawer': the 'Get help' block shows only if
    request_survey_cta exists; without one, no button offers a survey the server would refuse."""
    detailed.request_survey_cta = label
    detailed.save()
    offering = signed_in_api.get(f"offerings/{detailed.id}").json()["offering"]
    assert offering["request_survey_cta"] is None
    assert offering["request_survey_id"] is None
    assert offering["request_survey_name"] is None
    assert offering["request_survey_answer"] is None


@pytest.mark.parametrize("label", ["", "Help me enroll"])
def test_s2_get_help_shown_in_the_details_is_the_get_help_that_begins(
    signed_in_api, detailed, label
):
    """§ Benefits & Offers 'Offering details drawer': a 'Get help' button the details show always
    begins its survey, and one they do not show never does."""
    detailed.request_survey_cta = label
    detailed.save()
    shown = signed_in_api.get(f"offerings/{detailed.id}").json()["offering"]["request_survey_id"]
    begin = signed_in_api.post(
        "request_surveys/720/user_request_surveys", {"for_alpha": True, "offering_id": detailed.id}
    )
    assert (shown is not None) == (begin.status_code == 200), begin.content


def _benefit_question(survey: RequestSurvey) -> Question:
    question = Question.objects.create(
        survey=survey,
        position=1,
        label="Which benefit do you need help with?",
        input_type=Question.InputType.SINGLE_SELECT,
    )
    for position, (label, value) in enumerate(
        [("Medical insurance", "medical"), ("Dental or vision", "dental_vision")], start=1
    ):
        SelectOption.objects.create(question=question, label=label, value=value, position=position)
    return question


def test_issue_29_intake_get_help_carries_the_answer_it_starts_with(signed_in_api, detailed):
    """Issue 29 'The intake': the offering names the survey answer its 'Get help' pre-selects
    ('Which benefit do you need help with?' → 'Dental or vision'), by question and value."""
    question = _benefit_question(detailed.request_survey)
    detailed.request_survey_answer = question.select_options.get(value="dental_vision")
    detailed.save()
    offering = signed_in_api.get(f"offerings/{detailed.id}").json()["offering"]
    assert offering["request_survey_answer"] == {
        "question_id": question.id,
        "value": "dental_vision",
    }


def test_issue_29_intake_no_answer_without_one_or_from_another_survey(signed_in_api, detailed):
    """Issue 29 'The intake': no pre-selected answer when none is set, or when the offering's
    survey changed to one the answer is not part of."""
    offering = signed_in_api.get(f"offerings/{detailed.id}").json()["offering"]
    assert offering["request_survey_answer"] is None
    detailed.request_survey_answer = _benefit_question(
        detailed.request_survey
    ).select_options.first()
    detailed.request_survey = RequestSurvey.objects.create(
        name="Other", slug="other", category=detailed.request_survey.category
    )
    detailed.save()
    offering = signed_in_api.get(f"offerings/{detailed.id}").json()["offering"]
    assert offering["request_survey_answer"] is None


@pytest.mark.parametrize("offering_id", ["999999", "0", str(2**70)])
def test_s7_unknown_offering_is_404(signed_in_api, catalogue, offering_id):
    assert signed_in_api.get(f"offerings/{offering_id}").status_code == 404


# --------------------------------------------------------------------------- categories


def test_s7_offering_categories_with_something_the_user_can_see(
    signed_in_api, catalogue, company, globex
):
    OfferingCategory.objects.create(external_id="empty", name="Empty", position=0)
    wellness = OfferingCategory.objects.create(external_id="wellness", name="Wellness", position=3)
    make_offering("Globex gym", BENEFIT, companies=[globex], categories=[wellness])
    response = signed_in_api.get("offering_categories")
    assert response.status_code == 200
    assert response.json() == {
        "offering_categories": [
            {"external_id": "health", "name": "Health", "image_url": None},
            {"external_id": "travel", "name": "Travel", "image_url": None},
        ]
    }


# --------------------------------------------------------------------------- query counts


def _count_queries(api, path: str, query: dict | None = None) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert api.get(path, query=query).status_code == 200
    return len(queries)


def _grow(company, categories, n: int, prefix: str = "More") -> None:
    for i in range(n):
        offering = make_offering(
            f"{prefix} {i}",
            BENEFIT if i % 2 else PRODUCT,
            companies=[company] if i % 2 else [],
            categories=categories,
            featured=i % 3 == 0,
        )
        section = Section.objects.create(offering=offering, section_type="numbered")
        SectionItem.objects.create(section=section, value="step")


@pytest.mark.parametrize(
    "query",
    [{}, {"types": "benefit"}, {"types": "product", "prefer_featured": "true", "limit": "6"}],
)
def test_s4_offering_list_uses_a_fixed_number_of_queries(
    signed_in_api, catalogue, company, health, travel, query, django_assert_max_num_queries
):
    few = _count_queries(signed_in_api, "offerings", query)
    _grow(company, [health, travel], 20)
    assert _count_queries(signed_in_api, "offerings", query) == few
    with django_assert_max_num_queries(5):
        signed_in_api.get("offerings", query=query)


def test_s4_offering_categories_use_a_fixed_number_of_queries(
    signed_in_api, catalogue, company, health, django_assert_max_num_queries
):
    few = _count_queries(signed_in_api, "offering_categories")
    for i in range(10):
        category = OfferingCategory.objects.create(external_id=f"c{i}", name=f"C{i}")
        _grow(company, [category], 2, prefix=f"C{i}")
    assert _count_queries(signed_in_api, "offering_categories") == few
    with django_assert_max_num_queries(4):
        signed_in_api.get("offering_categories")


def test_s4_offering_details_use_a_fixed_number_of_queries(
    signed_in_api, detailed, django_assert_max_num_queries
):
    few = _count_queries(signed_in_api, f"offerings/{detailed.id}")
    for position in range(10):
        section = Section.objects.create(
            offering=detailed, section_type="key_value", position=10 + position
        )
        for key in ("phone", "email", "link"):
            SectionItem.objects.create(section=section, key=key, value="x")
    assert _count_queries(signed_in_api, f"offerings/{detailed.id}") == few
    with django_assert_max_num_queries(7):
        signed_in_api.get(f"offerings/{detailed.id}")
