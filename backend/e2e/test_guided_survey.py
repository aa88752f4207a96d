"""Browser tests for the issue's 'The guided survey': progress ('Question n of m'), a text
question pre-filled from its universal answer (the address), and a request summary that reads
naturally (no doubled punctuation, skipped questions left out, an uploaded photo a thumbnail
that opens in the thread's image viewer), and 'Get help' from an offering that never carries the
answers given for another one. Starting fresh after 'Yes, cancel' and 'Continue where you
left off?' are in test_requests.py.

The demo data (`seed_demo`) provides Dana (demo@example.com) and survey 628 'Renew my passport':
a select, an optional text question and the phone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from concierge.accounts.models import OnboardingAnswer, User
from concierge.offerings.models import Offering
from concierge.servicerequests.models import ServiceRequest
from concierge.surveys.models import (
    Question,
    RequestSurvey,
    SurveyCategory,
    UserRequestAnswer,
    UserRequestSurvey,
)
from concierge.uploads.tests.samples import png_bytes
from e2e.a11y import expect_axe_clean, focus_ring
from e2e.conftest import asked, continue_button, save_screenshot, settle
from e2e.journeys import sign_in
from e2e.test_accessibility import (
    DEMO_PASSWORD,
    PASSPORT,
    Q_PASSPORT,
    Q_PHONE,
    Q_TRIP,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

ADDRESS_QUESTION = "Where should the locksmith come?"
PHOTO_QUESTION = "A photo of the damage"
KIND_QUESTION = "What kind of insurance?"
MEDICAL = (
    "BlueHarbor Health, Medical coverage, PPO plan with a nationwide network, "
    "View details (benefit)"
)
BENEFITS_HELP = "Help me with my benefits"
Q_BENEFIT = "Which benefit do you need help with?"
PASSPORT_OPTIONS = [
    "Still valid",
    "Expired less than 5 years ago",
    "Expired more than 5 years ago",
    "Lost or stolen",
]
ROADSAFE = "RoadSafe Auto, Auto insurance, Group rate for Acme Corp employees, View details (offer)"
EVERGREEN = (
    "Evergreen Life, Term life insurance, Coverage in minutes, no medical exam for most, "
    "View details (offer)"
)


def shot(page: Page, name: str, viewport_name: str) -> None:
    save_screenshot(page, f"survey-{name}-{viewport_name}")


def progress(page: Page, name: str):
    return page.get_by_role("progressbar", name=name, exact=True)


def test_progress_and_a_summary_that_reads_naturally(page: Page, demo, viewport_name: str) -> None:
    """The guided survey: 'Question n of 3' on each question; the submitted request's details
    read 'Your current passport is… Expired…' with the skipped trip question left out."""
    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")
    travel = SurveyCategory.objects.get(icon=SurveyCategory.Icon.TRAVEL)
    page.goto(f"/requests/category/{travel.pk}")
    page.get_by_role("button", name=PASSPORT).click()

    asked(page, Q_PASSPORT)
    expect(progress(page, "Question 1 of 3")).to_be_visible()
    shot(page, "progress", viewport_name)
    radio = page.get_by_role("radio", name="Expired less than 5 years ago")
    radio.locator("xpath=ancestor::label[1]").click()
    continue_button(page).click()
    asked(page, Q_TRIP)
    expect(progress(page, "Question 2 of 3")).to_be_visible()
    page.get_by_role("button", name="Skip", exact=True).click()
    asked(page, Q_PHONE)
    expect(progress(page, "Question 3 of 3")).to_be_visible()
    continue_button(page).click()

    review = page.get_by_role("region", name="Review your request")
    settle(page)
    review.get_by_role("button", name="Submit", exact=True).click()
    expect(page.get_by_role("heading", name="We've received your request")).to_be_visible()

    request = ServiceRequest.objects.get(user__email="demo@example.com")
    assert request.details == (
        f"{Q_PASSPORT} Expired less than 5 years ago\n{Q_PHONE} (555) 010-2030"
    ), request.details

    page.goto(f"/requests/{request.pk}")
    first = page.get_by_role("list", name="Messages").get_by_role("listitem").first
    expect(first).to_contain_text(f"{Q_PASSPORT} Expired less than 5 years ago")
    expect(first).not_to_contain_text("Question Skipped")
    expect(first).not_to_contain_text("?:")
    shot(page, "summary-in-thread", viewport_name)


def test_text_question_prefilled_from_the_address(page: Page, demo, viewport_name: str) -> None:
    """The guided survey: a text question whose universal answer is the address (611) starts
    with the address from onboarding, as phone and email questions do."""
    dana = User.objects.get(email="demo@example.com")
    for answer_id, value in ((148, "12 Elm Street"), (150, "Springfield"), (151, "IL")):
        OnboardingAnswer.objects.create(user=dana, answer_id=answer_id, value=value)
    for answer_id, value in ((311, "62701"), (313, "United States")):
        OnboardingAnswer.objects.create(user=dana, answer_id=answer_id, value=value)
    home = SurveyCategory.objects.get(icon=SurveyCategory.Icon.HOME)
    survey = RequestSurvey.objects.create(
        name="Call a locksmith", slug="locksmith", category=home, for_alpha=True
    )
    Question.objects.create(
        survey=survey,
        position=1,
        label=ADDRESS_QUESTION,
        input_type=Question.InputType.TEXT,
        universal_answer=611,
    )

    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")
    page.goto(f"/requests/category/{home.pk}")
    page.get_by_role("button", name="Call a locksmith").click()
    asked(page, ADDRESS_QUESTION)
    field = page.get_by_role("textbox", name=ADDRESS_QUESTION, exact=True)
    expect(field).to_have_value(re.compile(r"^12 Elm Street.*Springfield.*62701"))
    shot(page, "address-prefilled", viewport_name)


def get_help(
    page: Page,
    card: str,
    heading: str,
    cta: str = "Help me compare quotes",
    survey: str = "Compare insurance quotes",
):
    """Opens an offering's details from the all-offerings page and presses its 'Get help'
    button ('Help me compare quotes'); returns the request drawer."""
    page.goto("/benefits-and-offers/all")
    page.get_by_role("button", name=card, exact=True).click()
    details = page.get_by_role("dialog", name=heading, exact=True)
    details.get_by_role("button", name=cta, exact=True).click()
    expect(details).to_be_hidden()
    request_drawer = page.get_by_role("dialog", name=survey, exact=True)
    expect(request_drawer).to_be_visible()
    return request_drawer


def answer_bubble(scope, text: str):
    """The user's answer bubble in the conversation."""
    return scope.locator('[data-message="user"]').filter(has_text=text)


def pick(page: Page, option: str) -> None:
    radio = page.get_by_role("radio", name=option, exact=True)
    settle(page)
    radio.locator("xpath=ancestor::label[1]").click()
    expect(radio).to_be_checked()


def test_get_help_carries_its_own_offering_never_another_ones_answers(
    page: Page, demo, viewport_name: str
) -> None:
    """The guided survey: 'Get help' from an offering always carries that offering. Both
    RoadSafe Auto and Evergreen Life start 'Compare insurance quotes'; the answer given from
    RoadSafe is not offered on Evergreen (fresh start, no 'Continue where you left off?'), and
    RoadSafe's own 'Get help' later asks to continue with its answer."""
    roadsafe = Offering.objects.get(slug="roadsafe-auto-acme")
    evergreen = Offering.objects.get(slug="evergreen-term-life")
    assert roadsafe.request_survey_id == evergreen.request_survey_id
    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")

    request_drawer = get_help(page, ROADSAFE, "Auto insurance")
    asked(page, KIND_QUESTION)
    pick(page, "Auto")
    continue_button(page).click()
    expect(answer_bubble(request_drawer, "Auto")).to_be_visible()
    page.reload()  # the page is left without cancelling: the run waits for RoadSafe

    request_drawer = get_help(page, EVERGREEN, "Term life insurance")
    asked(page, KIND_QUESTION)
    expect(page.get_by_text("Continue where you left off?")).to_have_count(0)
    expect(answer_bubble(request_drawer, "Auto")).to_have_count(0)
    shot(page, "get-help-other-offering-fresh", viewport_name)
    runs = UserRequestSurvey.objects.filter(user__email="demo@example.com", submitted_at=None)
    assert sorted(r.offering_id for r in runs) == sorted([roadsafe.pk, evergreen.pk])
    page.reload()

    request_drawer = get_help(page, ROADSAFE, "Auto insurance")
    expect(page.get_by_text("Continue where you left off?")).to_be_visible()
    shot(page, "get-help-same-offering-continue", viewport_name)
    request_drawer.get_by_role("button", name="Continue", exact=True).click()
    expect(answer_bubble(request_drawer, "Auto")).to_be_visible()
    roadsafe_run = runs.get(offering_id=roadsafe.pk)
    assert UserRequestAnswer.objects.get(user_request_survey=roadsafe_run).value == "auto"


def test_summary_shows_an_uploaded_photo_as_a_thumbnail_that_opens_the_viewer(
    page: Page, demo, viewport_name: str, tmp_path
) -> None:
    """The guided survey: in the employee's request the first message shows the uploaded
    photo as a thumbnail under its question, like the thread's image attachments; it opens the
    thread's image viewer (the file's address is checked on the server)."""
    home = SurveyCategory.objects.get(icon=SurveyCategory.Icon.HOME)
    survey = RequestSurvey.objects.create(
        name="Fix a leaking roof", slug="leaking-roof", category=home, for_alpha=True
    )
    Question.objects.create(
        survey=survey,
        position=1,
        label=PHOTO_QUESTION,
        input_type=Question.InputType.SINGLE_UPLOAD,
    )
    photo = tmp_path / "roof.png"
    photo.write_bytes(png_bytes(24, 16, (180, 60, 40)))

    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")
    page.goto(f"/requests/category/{home.pk}")
    page.get_by_role("button", name="Fix a leaking roof").click()
    asked(page, PHOTO_QUESTION)
    request_drawer = page.get_by_role("dialog", name="Fix a leaking roof", exact=True)
    request_drawer.locator('input[type="file"]').set_input_files(photo)
    expect(request_drawer.get_by_text("Uploaded", exact=True)).to_be_visible()
    continue_button(page).click()
    review = page.get_by_role("region", name="Review your request")
    settle(page)
    review.get_by_role("button", name="Submit", exact=True).click()
    expect(page.get_by_role("heading", name="We've received your request")).to_be_visible()

    request = ServiceRequest.objects.get(user__email="demo@example.com")
    page.goto(f"/requests/{request.pk}")
    first = page.get_by_role("list", name="Messages").get_by_role("listitem").first
    link = first.get_by_role("button", name="View image roof.png")
    expect(link).to_be_visible()
    expect(first).to_contain_text(PHOTO_QUESTION)
    expect(first.get_by_role("button", name=re.compile(r"\(view image\)"))).to_have_count(0)
    thumbnail = link.locator("img[data-thumbnail]")
    expect(thumbnail).to_be_visible()
    page.wait_for_function("img => img.naturalWidth === 24", arg=thumbnail.element_handle())
    box = link.bounding_box()
    assert box is not None and box["width"] >= 120 and box["height"] >= 90, box
    first.scroll_into_view_if_needed()
    shot(page, "summary-photo-thumbnail", viewport_name)
    expect_axe_clean(page, "the request summary with a photo thumbnail")
    link.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(link).to_be_focused()
    assert focus_ring(page)["ring"], focus_ring(page)
    page.keyboard.press("Enter")
    viewer = page.get_by_role("dialog", name=re.compile("roof\\.png"))
    expect(viewer).to_be_visible()
    image = viewer.get_by_role("img", name=re.compile("roof"))
    expect(image).to_be_visible()
    expect(image).to_have_js_property("complete", True)
    assert image.evaluate("img => img.naturalWidth") == 24
    shot(page, "summary-file-viewer", viewport_name)
    expect_axe_clean(page, "the image viewer opened from the summary")
    page.keyboard.press("Escape")
    expect(viewer).to_be_hidden()
    expect(link).to_be_focused()


def _boxes(page: Page, selector: str) -> list[dict]:
    return page.locator(selector).evaluate_all(
        "els => els.map(el => el.getBoundingClientRect().toJSON())"
    )


@pytest.mark.both_viewports
def test_choice_options_fill_a_phone_and_number_keys_choose(
    page: Page, browser, browser_context_args: dict, demo, viewport_name: str
) -> None:
    """Issue 29 'The intake': the survey's options keep the spec's 9rem x 3.5rem chip box on
    wide screens and fill the row on a phone (no blank second line), each with its radio circle
    level with its title; the keys 1–9 choose an option, as on Typeform, shown as key hints
    where there is a keyboard (not on a touch screen), never in the option's name."""
    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")
    travel = SurveyCategory.objects.get(icon=SurveyCategory.Icon.TRAVEL)
    page.goto(f"/requests/category/{travel.pk}")
    page.get_by_role("button", name=PASSPORT).click()
    asked(page, Q_PASSPORT)
    form = page.get_by_role("form", name=Q_PASSPORT)
    radios = form.get_by_role("radio")
    expect(radios).to_have_count(4)
    for name in PASSPORT_OPTIONS:
        expect(form.get_by_role("radio", name=name, exact=True)).to_be_visible()
    chips = form.locator("label:has(input[type=radio])")
    rem = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)")
    form_box = form.bounding_box()
    assert form_box is not None
    chip_boxes = _boxes(page, "form label:has(input[type=radio])")
    text_boxes = _boxes(page, "form label:has(input[type=radio]) [data-chip-text]")
    if viewport_name == "mobile":
        for chip in chip_boxes:  # one option per row, as wide as the form
            assert abs(chip["width"] - form_box["width"]) <= 1, (chip, form_box)
        assert len({round(chip["x"]) for chip in chip_boxes}) == 1
        for text in text_boxes:  # one line of title, no blank line under it
            assert text["height"] < 2 * rem, text
    else:
        assert {(round(t["width"]), round(t["height"])) for t in text_boxes} == {
            (round(9 * rem), round(3.5 * rem))
        }
    for index in range(4):
        chip = chips.nth(index)
        title = chip.get_by_text(PASSPORT_OPTIONS[index], exact=True).bounding_box()
        circle = chip.locator("span.rounded-full").first.bounding_box()
        assert title is not None and circle is not None
        title_middle = title["y"] + title["height"] / 2
        circle_middle = circle["y"] + circle["height"] / 2
        assert abs(title_middle - circle_middle) <= 2, (index, title, circle)

    hints = form.locator("[data-key-hint]")
    expect(hints).to_have_count(4)
    expect(hints.first).to_be_visible()
    expect(hints).to_have_text(["1", "2", "3", "4"])
    expect(form.get_by_role("radio", name="Lost or stolen", exact=True)).to_have_accessible_name(
        "Lost or stolen"
    )
    settle(page)
    shot(page, "choice-options", viewport_name)

    page.keyboard.press("3")
    third = form.get_by_role("radio", name=PASSPORT_OPTIONS[2], exact=True)
    expect(third).to_be_checked()
    expect(third).to_be_focused()
    page.keyboard.press("1")
    first = form.get_by_role("radio", name=PASSPORT_OPTIONS[0], exact=True)
    expect(first).to_be_checked()
    expect(third).not_to_be_checked()
    page.keyboard.press("9")  # no ninth option
    expect(first).to_be_checked()
    settle(page)
    shot(page, "choice-options-key-chosen", viewport_name)
    page.keyboard.press("Enter")  # continues, as Continue does
    asked(page, Q_TRIP)
    expect(answer_bubble(page, PASSPORT_OPTIONS[0])).to_be_visible()
    # Digits typed into a text answer stay text.
    trip = page.get_by_role("textbox", name=re.compile("^" + re.escape(Q_TRIP)))
    trip.press_sequentially("June 12")
    expect(trip).to_have_value("June 12")

    if viewport_name == "mobile":
        # On a touch screen the key hints are not shown.
        touch = browser.new_context(
            **{**browser_context_args, "has_touch": True, "is_mobile": True}
        )
        phone = touch.new_page()
        sign_in(phone, "demo@example.com", DEMO_PASSWORD, "/dashboard")
        phone.goto(f"/requests/category/{travel.pk}")
        phone.get_by_role("button", name=PASSPORT).click()
        expect(phone.get_by_text("Continue where you left off?")).to_be_visible()
        phone.get_by_role("button", name="Start over", exact=True).click()
        asked(phone, Q_PASSPORT)
        touch_form = phone.get_by_role("form", name=Q_PASSPORT)
        expect(touch_form.get_by_role("radio")).to_have_count(4)
        expect(touch_form.locator("[data-key-hint]").first).to_be_hidden()
        settle(phone)
        shot(phone, "choice-options-touch", viewport_name)
        touch.close()


def test_get_help_on_medical_coverage_starts_with_medical_insurance_chosen(
    page: Page, demo, viewport_name: str
) -> None:
    """Issue 29 'The intake': 'Get help' on Medical coverage starts 'Help me with my benefits',
    whose 'Which benefit do you need help with?' is asked with 'Medical insurance' already
    chosen; the employee can change it ('Dental or vision'), and the answer given is stored."""
    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")
    request_drawer = get_help(page, MEDICAL, "Medical coverage", BENEFITS_HELP, BENEFITS_HELP)
    asked(page, Q_BENEFIT)
    expect(page.get_by_role("progressbar", name=re.compile(r"^Question 1\b"))).to_be_visible()
    medical = request_drawer.get_by_role("radio", name="Medical insurance", exact=True)
    expect(medical).to_be_checked()
    expect(medical).to_be_focused()
    expect(continue_button(page)).to_be_enabled()
    settle(page)
    shot(page, "get-help-prefilled", viewport_name)

    pick(page, "Dental or vision")
    expect(medical).not_to_be_checked()
    continue_button(page).click()
    expect(answer_bubble(request_drawer, "Dental or vision")).to_be_visible()
    run = UserRequestSurvey.objects.get(
        user__email="demo@example.com",
        offering_id=Offering.objects.get(slug="acme-blueharbor-medical").pk,
        submitted_at=None,
    )
    assert UserRequestAnswer.objects.get(user_request_survey=run).value == "dental_vision"
    expect_axe_clean(page, "a survey question with an answer chosen by 'Get help'")
