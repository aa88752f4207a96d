"""Browser tests for issue 4 'Benefits & Offers': spec §2 OfferingsLanding, OfferingsFull,
Offering card and Offering details drawer; §4 Offerings; §7 Offerings; §9 (survey 720, grid).

The catalogue is the demo one (`manage.py seed_demo`); the employee is demo@example.com, who
works for Acme Corp and sees 5 Acme benefits and 8 partner offers (13 offerings, 7 categories),
never the 3 Globex-only benefits.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from concierge.offerings.models import Offering, SectionItem
from e2e.conftest import DEMO_PASSWORD, SCREENSHOT_DIR, expect_no_sideways_scroll
from e2e.journeys import sign_in_to

pytestmark = pytest.mark.django_db(transaction=True)

DEMO_EMAIL = "demo@example.com"

# Card labels: '<provider>, <heading>, <subheading>, View details (benefit|offer)' (spec §2
# 'Offering card', with the visible 'View details' in the name: WCAG 2.5.3 Label in Name).
BLUEHARBOR = "BlueHarbor Health, Medical coverage, PPO plan with a nationwide network, View details (benefit)"
BRIGHTSMILE = (
    "BrightSmile Dental, Dental & vision, Cleanings covered at 100%, View details (benefit)"
)
NESTWELL = (
    "Nestwell Retirement, 401(k) retirement plan, Acme matches 100% of the first 4% you save, "
    "View details (benefit)"
)
KINDER = "Kinder Backup Care, Backup child care, 10 subsidized days a year, View details (benefit)"
CALMMINDS = "CalmMinds, Employee assistance program, Free, confidential counseling, 24/7, View details (benefit)"
PAWSURE = "Pawsure, Pet insurance, Up to 15% off for members, View details (offer)"
EVERGREEN = "Evergreen Life, Term life insurance, Coverage in minutes, no medical exam for most, View details (offer)"
HEARTHSTONE = (
    "Hearthstone, Home warranty, Appliance and system repairs, one fixed fee, View details (offer)"
)
LEGACYDOCS = (
    "LegacyDocs, Wills & trusts, Attorney-reviewed estate plan, 25% off, View details (offer)"
)
WANDERLY = "Wanderly, Travel perks, Members-only hotel rates, View details (offer)"
FITFLEX = "FitFlex, Gym network, $15 a month off 8,000 gyms, View details (offer)"
COZYCOVER = "CozyCover, Renters insurance, Policies from $9 a month, View details (offer)"
ROADSAFE = "RoadSafe Auto, Auto insurance, Group rate for Acme Corp employees, View details (offer)"

ACME_BENEFITS = [BLUEHARBOR, BRIGHTSMILE, NESTWELL, KINDER, CALMMINDS]
ALL_FOR_ACME = [
    *ACME_BENEFITS,
    PAWSURE,
    EVERGREEN,
    HEARTHSTONE,
    LEGACYDOCS,
    WANDERLY,
    FITFLEX,
    COZYCOVER,
    ROADSAFE,
]
# Globex-only benefits: provider names an Acme employee must never see.
GLOBEX_PROVIDERS = ["Summit Care", "Ledgerline", "RideWise"]
# Links that open in a new tab say so to screen readers (design-system Link).
NEW_TAB = " (opens in a new tab)"
GLOBEX_SLUGS = ["globex-summit-medical", "globex-ledgerline-coaching", "globex-ridewise-commuter"]


def cards(page: Page, list_name: str) -> Locator:
    return page.get_by_role("list", name=list_name, exact=True).get_by_role("button")


def expect_cards(page: Page, list_name: str, labels: list[str]) -> None:
    """The list shows exactly these cards, in this order (waits out the 0.4 s list animation)."""
    locator = cards(page, list_name)
    expect(locator).to_have_count(len(labels))
    for index, label in enumerate(labels):
        expect(locator.nth(index)).to_have_attribute("aria-label", label)


def choose_category(page: Page, name: str) -> None:
    page.get_by_role("radiogroup", name="Filter by category").get_by_text(name, exact=True).click()
    expect(page.get_by_role("radio", name=name, exact=True)).to_be_checked()


def settle(page: Page) -> None:
    """Waits until no finite CSS or motion animation is running (drawer slide, list animation)."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect?.getTiming().iterations === Infinity)"
    )


def viewport_shot(page: Page, name: str, viewport_name: str) -> None:
    """What the viewport shows (the full-page shot misplaces fixed drawers on a scrolled page)."""
    page.screenshot(path=str(SCREENSHOT_DIR / f"{name}-viewport-{viewport_name}.png"))


# --------------------------------------------------------------------------- landing


@pytest.mark.both_viewports
def test_landing_page_sections_and_texts(page: Page, demo, screenshot, viewport_name) -> None:
    """§2 OfferingsLanding: title, intro, benefits help, featured benefits and offers, disclaimer."""
    sign_in_to(page, "/benefits-and-offers", DEMO_EMAIL, DEMO_PASSWORD)
    expect(page).to_have_title("Concierge | Benefits & Offers")
    expect(
        page.get_by_role("heading", level=1, name="Benefits & Offers", exact=True)
    ).to_be_visible()
    expect(
        page.get_by_text("Your benefits and exclusive partner offers, all in one place.")
    ).to_be_visible()
    expect(
        page.get_by_role("heading", name="Need help with your benefits?", exact=True)
    ).to_be_visible()
    expect(page.get_by_role("button", name="Request help", exact=True)).to_be_visible()

    # Featured benefits (Acme's three featured ones) and featured partner offers (§7: featured
    # variant, limit 6); each section has its 'View all' link.
    expect(page.get_by_role("heading", name="Your Benefits", exact=True)).to_be_visible()
    expect_cards(page, "Your Benefits", [BLUEHARBOR, BRIGHTSMILE, NESTWELL])
    expect(page.get_by_role("heading", name="Exclusive Partner Offers", exact=True)).to_be_visible()
    expect_cards(page, "Exclusive Partner Offers", [PAWSURE, EVERGREEN, WANDERLY, ROADSAFE])
    view_all = page.get_by_role("link", name=re.compile(r"^View all"))
    expect(view_all).to_have_count(2)
    expect(page.get_by_role("link", name="View all benefits", exact=True)).to_have_attribute(
        "href", "/benefits-and-offers/all?type=benefit"
    )
    expect(page.get_by_role("link", name="View all partner offers", exact=True)).to_have_attribute(
        "href", "/benefits-and-offers/all"
    )
    # §9 grid: 1 column on small screens, 2 from sm (640 px) up to 2xl (1536 px).
    columns = page.get_by_role("list", name="Your Benefits", exact=True).evaluate(
        "ul => getComputedStyle(ul).gridTemplateColumns.split(' ').length"
    )
    assert columns == {"desktop": 2, "mobile": 1}[viewport_name]
    # The landing cards carry no benefit icon (that is the all page's), but show provider logos.
    expect(page.locator("[data-benefit-icon]")).to_have_count(0)
    logo = cards(page, "Your Benefits").first.locator("img")
    expect(logo).to_have_attribute("src", re.compile(r"/media/offering-logos/.+\.svg$"))
    page.wait_for_function(
        "() => [...document.querySelectorAll('ul img')].every(i => i.complete && i.naturalWidth > 0)"
    )
    expect(page.get_by_text("Partner offers are provided by third parties.")).to_be_visible()
    expect_no_sideways_scroll(page)
    screenshot("offerings-landing")


# --------------------------------------------------------------------------- all page


@pytest.mark.phone_screenshots
def test_view_all_filter_and_toggle_mirror_the_url(page: Page, demo, screenshot) -> None:
    """§2 OfferingsFull, §4 Offerings: 'View all', the category filter and the benefits toggle
    live in the URL query, replaced rather than pushed; the grid follows them."""
    sign_in_to(page, "/benefits-and-offers", DEMO_EMAIL, DEMO_PASSWORD)

    # 'View all' benefits → the all page, type=benefit: only the employee's 5 benefits.
    page.get_by_role("link", name="View all benefits", exact=True).click()
    expect(page).to_have_url(re.compile(r"/benefits-and-offers/all\?type=benefit$"))
    expect(page).to_have_title("Concierge | All Benefits & Offers")
    expect(
        page.get_by_role("heading", level=1, name="All benefits & offers", exact=True)
    ).to_be_visible()
    toggle = page.get_by_role("switch", name="Show only my benefits", exact=True)
    expect(toggle).to_be_checked()
    expect_cards(page, "Benefits and offers", ACME_BENEFITS)
    expect(page.get_by_text("5 results")).to_be_visible()
    # Benefit cards carry the benefit icon on the all page.
    expect(page.locator("[data-benefit-icon]")).to_have_count(5)

    # The back link returns to the landing page; 'View all' partner offers → everything.
    page.get_by_role("main").get_by_role("link", name="Benefits & Offers", exact=True).click()
    expect(page).to_have_url(re.compile(r"/benefits-and-offers$"))
    page.get_by_role("link", name="View all partner offers", exact=True).click()
    expect(page).to_have_url(re.compile(r"/benefits-and-offers/all$"))
    expect(toggle).not_to_be_checked()
    expect_cards(page, "Benefits and offers", ALL_FOR_ACME)
    expect(page.locator("[data-benefit-icon]")).to_have_count(5)
    categories = page.get_by_role("radiogroup", name="Filter by category").get_by_role("radio")
    expect(categories).to_have_count(8)  # 'All' + the 7 categories holding Acme offerings
    expect(page.get_by_role("radio", name="All", exact=True)).to_be_checked()

    # Filter by a category: URL query and grid follow.
    choose_category(page, "Health")
    expect(page).to_have_url(re.compile(r"/benefits-and-offers/all\?type=all&filter=Health$"))
    expect_cards(page, "Benefits and offers", [BLUEHARBOR, BRIGHTSMILE, CALMMINDS])
    choose_category(page, "Family")
    expect(page).to_have_url(re.compile(r"\?type=all&filter=Family$"))
    expect_cards(page, "Benefits and offers", [KINDER, EVERGREEN, LEGACYDOCS])
    expect_no_sideways_scroll(page)
    screenshot("offerings-all-filtered")

    # Toggle 'Show only my benefits': type changes, only benefit cards remain.
    page.get_by_text("Show only my benefits").click()
    expect(toggle).to_be_checked()
    expect(page).to_have_url(re.compile(r"\?type=benefit&filter=Family$"))
    expect_cards(page, "Benefits and offers", [KINDER])
    choose_category(page, "Financial")
    expect(page).to_have_url(re.compile(r"\?type=benefit&filter=Financial$"))
    expect_cards(page, "Benefits and offers", [NESTWELL])

    # Acme has no Home benefit (only partner offers there): the empty state.
    choose_category(page, "Home")
    expect(page).to_have_url(re.compile(r"\?type=benefit&filter=Home$"))
    expect(
        page.get_by_role("heading", name="Sorry, no results have been found", exact=True)
    ).to_be_visible()
    expect(cards(page, "Benefits and offers")).to_have_count(0)
    page.get_by_text("Show only my benefits").click()
    expect(page).to_have_url(re.compile(r"\?type=all&filter=Home$"))
    expect_cards(page, "Benefits and offers", [HEARTHSTONE, COZYCOVER])
    expect(page.get_by_text("Sorry, no results have been found")).to_have_count(0)

    # Replaced, not pushed: Back leaves the all page instead of stepping through the filters.
    page.go_back()
    expect(page).to_have_url(re.compile(r"/benefits-and-offers$"))
    expect(
        page.get_by_role("heading", level=1, name="Benefits & Offers", exact=True)
    ).to_be_visible()

    # A shared link with the filters opens them; unknown values fall back to the defaults.
    page.goto("/benefits-and-offers/all?type=benefit&filter=wellness")
    expect(page.get_by_role("radio", name="Wellness", exact=True)).to_be_checked()
    expect_cards(page, "Benefits and offers", [CALMMINDS])
    page.goto("/benefits-and-offers/all?type=bogus&filter=Nope")
    expect(page.get_by_role("radio", name="All", exact=True)).to_be_checked()
    expect(toggle).not_to_be_checked()
    expect_cards(page, "Benefits and offers", ALL_FOR_ACME)


# --------------------------------------------------------------------------- details drawer


def item(slug: str, key: str) -> SectionItem:
    return SectionItem.objects.get(section__offering__slug=slug, key=key)


@pytest.mark.phone_screenshots
def test_details_drawer_sections_and_link_rules(
    page: Page, demo, screenshot, viewport_name
) -> None:
    """§2 Offering details drawer: header, every section type, and each key_value link rule."""
    sign_in_to(page, "/benefits-and-offers", DEMO_EMAIL, DEMO_PASSWORD)

    # A benefit: logo, heading and name, no 'Partner offer'; key_value, numbered and text.
    page.get_by_role("button", name=BLUEHARBOR, exact=True).click()
    drawer = page.get_by_role("dialog", name="Medical coverage", exact=True)
    expect(drawer).to_be_visible()
    expect(drawer.get_by_role("img", name="BlueHarbor Health", exact=True)).to_be_visible()
    expect(
        drawer.get_by_role("heading", level=2, name="Medical coverage", exact=True)
    ).to_be_visible()
    expect(drawer.get_by_text("BlueHarbor PPO 500", exact=True)).to_be_visible()
    expect(drawer.get_by_text("Partner offer", exact=True)).to_have_count(0)
    sections = drawer.locator("section[data-section-type]")
    expect(sections).to_have_count(3)
    types = [sections.nth(i).get_attribute("data-section-type") for i in range(3)]
    assert types == ["key_value", "numbered", "text"]

    key_value = drawer.get_by_role("region", name="Contact BlueHarbor", exact=True)
    # phone → tel: with the digits and plus signs only.
    expect(key_value.get_by_role("link", name="1 (800) 555-0142", exact=True)).to_have_attribute(
        "href", "tel:18005550142"
    )
    # email → mailto: the address.
    expect(
        key_value.get_by_role("link", name="members@blueharbor.example", exact=True)
    ).to_have_attribute("href", "mailto:members@blueharbor.example")
    # link without a scheme → https:// prepended; it opens in a new tab without the opener.
    website = key_value.get_by_role(
        "link", name="www.blueharbor.example/find-care" + NEW_TAB, exact=True
    )
    expect(website).to_have_attribute("href", "https://www.blueharbor.example/find-care")
    expect(website).to_have_attribute("target", "_blank")
    expect(website).to_have_attribute("rel", "noopener noreferrer")
    # Other keys are a label and a value, not links.
    expect(key_value.locator("dt", has_text="Phone")).to_be_visible()
    expect(key_value.locator("dt", has_text="Group number")).to_be_visible()
    expect(key_value.locator("dd", has_text="ACME-4471")).to_be_visible()
    expect(key_value.get_by_role("link", name="ACME-4471", exact=True)).to_have_count(0)
    expect(key_value.get_by_role("link")).to_have_count(3)

    numbered = drawer.get_by_role("region", name="Find an in-network doctor", exact=True)
    steps = numbered.locator("ol > li")
    expect(steps).to_have_count(3)
    expect(steps.first).to_have_text("Sign in to the BlueHarbor member site with your member ID.")
    expect(
        numbered.get_by_role("link", name="Search doctors" + NEW_TAB, exact=True)
    ).to_have_attribute("href", "https://www.blueharbor.example/find-care")
    text = drawer.get_by_role("region", name="Your plan at a glance", exact=True)
    expect(text.get_by_text(re.compile(r"^\$500 individual deductible"))).to_be_visible()
    expect(text.get_by_role("link")).to_have_count(0)
    expect(drawer.get_by_role("heading", name="Get help", exact=True)).to_be_visible()
    expect(
        drawer.get_by_role("button", name="Help me with my benefits", exact=True)
    ).to_be_visible()
    settle(page)
    screenshot("offerings-details-drawer")
    viewport_shot(page, "offerings-details-drawer", viewport_name)
    drawer.get_by_role("heading", name="Get help", exact=True).scroll_into_view_if_needed()
    viewport_shot(page, "offerings-details-drawer-get-help", viewport_name)
    drawer.get_by_role("button", name="Close", exact=True).click()
    expect(drawer).to_be_hidden()

    # download → the item's external_url (a PDF in storage); no 'Get help' without a survey.
    page.get_by_role("button", name=BRIGHTSMILE, exact=True).click()
    drawer = page.get_by_role("dialog", name="Dental & vision", exact=True)
    download = drawer.get_by_role("link", name="Summary of benefits (PDF)" + NEW_TAB, exact=True)
    pdf_url = item("acme-brightsmile-dental", "download").external_url
    assert pdf_url.endswith(".pdf")
    expect(download).to_have_attribute("href", pdf_url)
    expect(drawer.get_by_role("link", name="1 (800) 555-0177", exact=True)).to_have_attribute(
        "href", "tel:18005550177"
    )
    expect(drawer.get_by_role("heading", name="Get help", exact=True)).to_have_count(0)
    response = page.request.get(pdf_url)
    assert response.ok and response.body().startswith(b"%PDF")
    page.keyboard.press("Escape")
    expect(drawer).to_be_hidden()

    # email with an external_url → that address; link with a scheme stays as it is.
    page.get_by_role("button", name=NESTWELL, exact=True).click()
    drawer = page.get_by_role("dialog", name="401(k) retirement plan", exact=True)
    expect(drawer.get_by_role("link", name="help@nestwell.example", exact=True)).to_have_attribute(
        "href", "mailto:help@nestwell.example?subject=Acme%20401k"
    )
    expect(
        drawer.get_by_role("link", name="www.nestwell.example" + NEW_TAB, exact=True)
    ).to_have_attribute("href", "https://www.nestwell.example")
    expect(
        drawer.get_by_role("link", name="Start enrollment" + NEW_TAB, exact=True)
    ).to_have_attribute("href", "https://www.nestwell.example/enroll")
    page.keyboard.press("Escape")
    expect(drawer).to_be_hidden()

    # A partner offer: 'Partner offer' label; phone keeps its plus sign; text section link.
    page.get_by_role("button", name=EVERGREEN, exact=True).click()
    drawer = page.get_by_role("dialog", name="Term life insurance", exact=True)
    expect(drawer.get_by_text("Partner offer", exact=True)).to_be_visible()
    expect(drawer.get_by_text("Evergreen Term 20", exact=True)).to_be_visible()
    expect(drawer.get_by_role("link", name="+1 (844) 555-0133", exact=True)).to_have_attribute(
        "href", "tel:+18445550133"
    )
    expect(
        drawer.get_by_role("link", name="agents@evergreenlife.example", exact=True)
    ).to_have_attribute("href", "mailto:agents@evergreenlife.example")
    text = drawer.get_by_role("region", name="Protect the people who count on you", exact=True)
    expect(text.get_by_role("link", name="Get a quote" + NEW_TAB, exact=True)).to_have_attribute(
        "href", "/products/term-life-insurance"
    )
    page.keyboard.press("Escape")
    expect(drawer).to_be_hidden()

    # phone with an external_url → that address.
    page.get_by_role("button", name=ROADSAFE, exact=True).click()
    drawer = page.get_by_role("dialog", name="Auto insurance", exact=True)
    expect(drawer.get_by_text("Partner offer", exact=True)).to_be_visible()
    expect(drawer.get_by_role("link", name="1 (800) 555-0188", exact=True)).to_have_attribute(
        "href", "tel:+18005550188"
    )
    expect(drawer.locator("dd", has_text="ACME-AUTO-22")).to_be_visible()


# --------------------------------------------------------------------------- into a request


@pytest.mark.phone_screenshots
def test_back_after_a_reload_with_the_drawer_open_leaves_the_page(page: Page, demo) -> None:
    """§2 Offering details drawer: Back closes the drawer; after a reload with it open (its
    history entry stays, its drawer cannot come back), the page shows alone and the next Back
    leaves the page instead of seeming to do nothing."""
    sign_in_to(page, "/dashboard", DEMO_EMAIL, DEMO_PASSWORD)
    page.goto("/benefits-and-offers")
    page.get_by_role("button", name=BLUEHARBOR, exact=True).click()
    expect(page.get_by_role("dialog", name="Medical coverage", exact=True)).to_be_visible()

    page.reload()
    expect(page.get_by_role("button", name=BLUEHARBOR, exact=True)).to_be_visible()
    expect(page.get_by_role("dialog")).to_have_count(0)
    page.go_back()
    expect(page).to_have_url(re.compile(r"/dashboard$"))


def test_get_help_and_request_help_open_the_request_drawer(
    page: Page, demo, screenshot, viewport_name
) -> None:
    """§2: 'Get help' closes the details drawer and opens the request drawer on the offering's
    survey; 'Request help' starts survey 720 'Help me with my benefits' (§9)."""
    sign_in_to(page, "/benefits-and-offers", DEMO_EMAIL, DEMO_PASSWORD)

    page.get_by_role("button", name=ROADSAFE, exact=True).click()
    details = page.get_by_role("dialog", name="Auto insurance", exact=True)
    compare = details.get_by_role("button", name="Help me compare quotes", exact=True)
    survey_id = Offering.objects.get(slug="roadsafe-auto-acme").request_survey_id
    with page.expect_request(
        lambda r: r.method == "POST" and f"/api/v1/request_surveys/{survey_id}/" in r.url
    ):
        compare.click()
    expect(details).to_be_hidden()
    request_drawer = page.get_by_role("dialog", name="Compare insurance quotes", exact=True)
    expect(request_drawer).to_be_visible()
    expect(
        request_drawer.get_by_role("heading", name="Compare insurance quotes", exact=True)
    ).to_be_visible()
    settle(page)
    screenshot("offerings-get-help-request-drawer")
    viewport_shot(page, "offerings-get-help-request-drawer", viewport_name)
    request_drawer.get_by_role("button", name="Close", exact=True).first.click()
    expect(request_drawer).to_be_hidden()

    with page.expect_request(
        lambda r: r.method == "POST" and "/api/v1/request_surveys/720/" in r.url
    ):
        page.get_by_role("button", name="Request help", exact=True).click()
    benefits_help = page.get_by_role("dialog", name="Help me with my benefits", exact=True)
    expect(benefits_help).to_be_visible()


# --------------------------------------------------------------------------- isolation


def test_acme_employee_never_sees_globex_benefits(page: Page, demo) -> None:
    """§4 catalogue visibility: Globex-only benefits appear nowhere for an Acme employee, and
    their details answer 404 through the API."""
    sign_in_to(page, "/benefits-and-offers", DEMO_EMAIL, DEMO_PASSWORD)
    expect_cards(page, "Your Benefits", [BLUEHARBOR, BRIGHTSMILE, NESTWELL])
    page.goto("/benefits-and-offers/all")
    expect_cards(page, "Benefits and offers", ALL_FOR_ACME)
    for provider in GLOBEX_PROVIDERS:
        expect(page.get_by_text(provider)).to_have_count(0)
        expect(page.get_by_role("button", name=re.compile(re.escape(provider)))).to_have_count(0)

    token = page.evaluate("() => window.localStorage.getItem('session.token')")
    assert token
    headers = {"Authorization": f"Bearer {token}"}
    listed = page.request.get("/api/v1/offerings?types=benefit,product", headers=headers)
    assert listed.status == 200
    names = {o["provider_name"] for o in listed.json()["offerings"]}
    assert names.isdisjoint(GLOBEX_PROVIDERS) and len(names) == 13
    for slug in GLOBEX_SLUGS:
        offering_id = Offering.objects.get(slug=slug).id
        detail = page.request.get(f"/api/v1/offerings/{offering_id}", headers=headers)
        assert detail.status == 404, (slug, detail.status)
    own = Offering.objects.get(slug="acme-blueharbor-medical").id
    assert page.request.get(f"/api/v1/offerings/{own}", headers=headers).status == 200


# --------------------------------------------------------------------------- admins' texts

LONG_WORD = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 3


@pytest.mark.phone_screenshots
def test_long_words_from_the_admin_wrap_in_cards_the_drawer_and_the_survey(
    page: Page, demo, screenshot, viewport_name
) -> None:
    """Benefits & Offers as admins write it: a heading, plan name, call to action and survey
    name with a long unbroken word wrap where they stand; no page scrolls sideways (the
    screenshots check it) and the button's label stays readable."""
    offering = Offering.objects.get(slug="roadsafe-auto-acme")
    offering.heading = f"Auto {LONG_WORD}"
    offering.name = f"Plan {LONG_WORD}"
    offering.request_survey_cta = f"Compare {LONG_WORD}"[:100]
    offering.save()
    survey = offering.request_survey
    survey.name = f"Quotes {LONG_WORD}"[:200]
    survey.save()

    sign_in_to(page, "/benefits-and-offers", DEMO_EMAIL, DEMO_PASSWORD)
    card = page.locator(f'[data-offering-id="{offering.pk}"]')
    expect(card).to_be_visible()
    screenshot("offerings-long-words")  # also fails on any sideways scroll
    card.click()
    details = page.get_by_role("dialog", name=offering.heading, exact=True)
    expect(details).to_be_visible()
    settle(page)
    cta = details.get_by_role("button", name=offering.request_survey_cta, exact=True)
    cta.scroll_into_view_if_needed()
    box, drawer_box = cta.bounding_box(), details.bounding_box()
    assert box and drawer_box and box["x"] + box["width"] <= drawer_box["x"] + drawer_box["width"]
    viewport_shot(page, "offerings-long-words-drawer", viewport_name)
    cta.click()
    survey_drawer = page.get_by_role("dialog", name=survey.name, exact=True)
    expect(survey_drawer).to_be_visible()
    settle(page)  # the drawer has slid in
    title = survey_drawer.get_by_role("heading", name=survey.name, exact=True)
    close = survey_drawer.get_by_role("button", name="Close", exact=True).first
    title_box, close_box = title.bounding_box(), close.bounding_box()
    assert title_box and close_box and title_box["x"] + title_box["width"] <= close_box["x"]
    viewport_shot(page, "offerings-long-words-survey", viewport_name)
