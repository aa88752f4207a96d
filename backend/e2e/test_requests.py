"""Browser tests for issue 3 'Requests end to end': spec §2 Dashboard, Requests, Request,
RequestCategory and Request drawer; §4 Request drawer flow, Request thread, File upload; §5
survey answers and message composer; §9 constants (confetti, 'Just now').

The demo data (`seed_demo`) provides the surveys; survey 616 'Find a dog walker' asks every
input type: two selects, a text, an optional multiline, an upload, a phone and an email.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from concierge.accounts.models import Company, OnboardingAnswer, User
from concierge.demo.management.commands.seed_demo import simple_pdf
from concierge.servicerequests import services as request_services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.surveys.models import RequestSurvey, SurveyCategory
from concierge.surveys.selectors import summary_line
from concierge.uploads.tests.samples import png_bytes
from e2e.conftest import DEMO_PASSWORD, PASSWORD, asked, continue_button, settle, wait_until
from e2e.journeys import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

DOG_WALKER = "Find a dog walker"
CLOSE_CONFIRM = "Wait! You're almost there. Are you sure you want to stop now?"
DISCARD_EDIT = "Are you sure you want to cancel your edit and discard any changes you've made?"
RECEIVED = "We've received your request"
FIRST_REQUEST_INTRO = "Let's get your first request started"
THREAD_RECEIVED = (
    "We've received your request and a concierge will be in touch soon. Here's what you told us:"
)

# Survey 616's questions, in order.
Q_SIZE = "How big is your dog?"
Q_OFTEN = "How often do you need walks?"
Q_WHERE = "Which neighborhood do you live in?"
Q_ABOUT = "Tell us about your dog: name, temperament, anything the walker should know"
Q_PHOTO = "Add a photo of your dog"
Q_PHONE = "What's the best phone number to reach you?"
Q_EMAIL = "Which email should we send updates to?"

# Counts <canvas> elements added straight under <body> (canvas-confetti adds one per burst and
# removes it when the pieces have settled), for the whole life of the document. It observes
# `document`: init scripts run before <html> exists.
CONFETTI_PROBE = """
window.__confettiCanvases = 0;
new MutationObserver((records) => {
  for (const record of records)
    for (const node of record.addedNodes)
      if (node.nodeName === 'CANVAS' && node.parentNode === document.body)
        window.__confettiCanvases += 1;
}).observe(document, { childList: true, subtree: true });
"""


# --------------------------------------------------------------------------- files


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """Real files to upload: a PNG photo, a second PNG image and a one-page PDF."""
    out = tmp_path / "files"
    out.mkdir()
    paths = {
        "dog": out / "rex.png",
        "photo": out / "backyard.png",
        "pdf": out / "walker-agreement.pdf",
    }
    paths["dog"].write_bytes(png_bytes(8, 8, (200, 120, 40)))
    paths["photo"].write_bytes(png_bytes(16, 12, (30, 90, 200)))
    paths["pdf"].write_bytes(simple_pdf("Walker agreement", ("Signed by Dana",)))
    return paths


# --------------------------------------------------------------------------- data and sign-in


@pytest.fixture
def demo_user(demo) -> User:
    return User.objects.get(email="demo@example.com")


@pytest.fixture
def new_employee(demo, make_employee) -> User:
    """A brand-new, onboarded Acme employee (request_count 0) who has a pet and no phone on
    file, so the phone question starts empty and the email question shows the account email."""
    user = make_employee("sam@example.com", company=Company.objects.get(slug="acme"))
    user.first_name = "Sam"
    user.save(update_fields=["first_name"])
    OnboardingAnswer.objects.create(user=user, answer_id=122, value=True)
    assert user.request_count == 0
    return user


def category(icon: str) -> SurveyCategory:
    return SurveyCategory.objects.get(icon=icon)


def dog_walker_request(user: User) -> ServiceRequest:
    details = "\n".join(  # as a submitted survey words them (surveys.selectors.summary_line)
        [
            summary_line(Q_SIZE, "Medium (20 to 50 lb)"),
            summary_line(Q_OFTEN, "Every weekday"),
            summary_line(Q_WHERE, "Riverside"),
        ]
    )
    return request_services.request_create(
        user=user,
        name=DOG_WALKER,
        details=details,
        survey_category_id=category(SurveyCategory.Icon.PET).pk,
    )


# --------------------------------------------------------------------------- drawer helpers


def drawer(page: Page, name: str = DOG_WALKER) -> Locator:
    return page.get_by_role("dialog", name=name)


def pick(page: Page, option: str) -> None:
    """Selects a chip: a click on the chip (the label around its visually hidden radio)."""
    radio = page.get_by_role("radio", name=option)
    settle(page)
    radio.locator("xpath=ancestor::label[1]").click()
    expect(radio).to_be_checked()


def choose_chip(page: Page, question: str, option: str) -> None:
    asked(page, question)
    expect(continue_button(page)).to_be_disabled()
    pick(page, option)
    expect(continue_button(page)).to_be_enabled()
    continue_button(page).click()


def answer_bubble(page: Page, text: str) -> Locator:
    """The user's answer bubble in the conversation ('Your answer: …')."""
    return page.locator('[data-message="user"]').filter(has_text=text)


def open_dog_walker_from_dashboard(page: Page, viewport_name: str) -> None:
    """Request ideas: Pet is a column on wide screens and a tab on small ones."""
    if viewport_name == "mobile":
        page.get_by_role("tab", name="Pet").click()
    page.get_by_role("button", name=DOG_WALKER).click()
    expect(drawer(page)).to_be_visible()


def confetti_count(page: Page) -> int:
    return page.evaluate("window.__confettiCanvases")


# --------------------------------------------------------------------------- 1. the first request


def test_first_request_through_drawer_every_input_type(
    page: Page, new_employee: User, files, viewport_name: str, screenshot
) -> None:
    """§4 Request drawer flow with every §3 input type (select chips, text, skipped optional
    multiline, upload, masked phone, prefilled email), an edit, a refused close, the summary,
    Submit, the confirmation, confetti on the first request only (§9); then the request on the
    Dashboard ('Your latest request') and in Requests ('To do (1)', '1 request is in queue')."""
    page.add_init_script(CONFETTI_PROBE)
    sign_in(page, "sam@example.com", PASSWORD)
    expect(page.get_by_role("heading", name=FIRST_REQUEST_INTRO)).to_be_visible()
    expect(page.get_by_text("3-4 hours per task")).to_be_visible()
    expect(page.get_by_role("heading", name="Request ideas")).to_be_visible()
    screenshot("dashboard-first-request")

    open_dog_walker_from_dashboard(page, viewport_name)
    expect(page.get_by_text("Hi Sam!")).to_be_visible()

    # Two select chips.
    choose_chip(page, Q_SIZE, "Small (under 20 lb)")
    expect(answer_bubble(page, "Small (under 20 lb)")).to_be_visible()
    screenshot("drawer-question")
    choose_chip(page, Q_OFTEN, "A few times a week")

    # Text; the progress says which question this is.
    asked(page, Q_WHERE)
    expect(
        page.get_by_role("progressbar", name=re.compile(r"^Question 3( of \d+)?$"))
    ).to_be_visible()
    where = page.get_by_role("textbox", name=Q_WHERE, exact=True)
    where.fill("   ")
    expect(continue_button(page)).to_be_disabled()
    where.fill("Riverside")
    continue_button(page).click()
    expect(answer_bubble(page, "Riverside")).to_be_visible()

    # Edit an earlier answer in the conversation: Edit → change → Save.
    settle(page)
    page.get_by_role("button", name=f"Edit answer: {Q_SIZE}").click()
    pick(page, "Medium (20 to 50 lb)")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(answer_bubble(page, "Medium (20 to 50 lb)")).to_be_visible()
    expect(answer_bubble(page, "Small (under 20 lb)")).to_have_count(0)

    # The optional multiline question is skipped.
    asked(page, Q_ABOUT)
    expect(page.get_by_role("form", name=Q_ABOUT)).to_contain_text("(optional)")
    page.get_by_role("button", name="Skip", exact=True).click()
    expect(answer_bubble(page, "Question Skipped")).to_be_visible()

    # Closing mid-flow asks first; 'No, stay' keeps the drawer and the answers.
    drawer(page).get_by_role("button", name="Close", exact=True).click()
    confirm = page.get_by_role("alertdialog", name=CLOSE_CONFIRM)
    expect(confirm).to_be_visible()
    screenshot("drawer-close-confirm")
    confirm.get_by_role("button", name="No, stay").click()
    expect(confirm).to_be_hidden()
    expect(drawer(page)).to_be_visible()

    # Upload: a real PNG, Pending → Uploading n% → Uploaded; Continue waits for the upload.
    asked(page, Q_PHOTO)
    expect(continue_button(page)).to_be_disabled()
    drawer(page).locator('input[type="file"]').set_input_files(files["dog"])
    expect(drawer(page).get_by_text("rex.png", exact=True)).to_be_visible()
    expect(drawer(page).get_by_text("Uploaded", exact=True)).to_be_visible()
    expect(continue_button(page)).to_be_enabled()
    continue_button(page).click()
    expect(answer_bubble(page, "rex.png")).to_be_visible()

    # Phone: typed into the (999) 999-9999 mask; Continue needs all ten digits.
    asked(page, Q_PHONE)
    phone = page.get_by_role("textbox", name=Q_PHONE, exact=True)
    expect(phone).to_have_value("")
    phone.press_sequentially("55512")
    expect(continue_button(page)).to_be_disabled()
    phone.press_sequentially("34567")
    expect(phone).to_have_value("(555) 123-4567")
    continue_button(page).click()

    # Email: prefilled with the account email; changed.
    asked(page, Q_EMAIL)
    email = page.get_by_role("textbox", name=Q_EMAIL, exact=True)
    expect(email).to_have_value("sam@example.com")
    email.fill("walks@example.com")
    continue_button(page).click()

    # The summary review, where focus goes once the last answer's form is gone.
    review = page.get_by_role("region", name="Review your request")
    expect(review).to_be_visible()
    expect(review.get_by_role("heading", name="Review your request")).to_be_focused()
    for shown in (
        "Medium (20 to 50 lb)",
        "A few times a week",
        "Riverside",
        "Question Skipped",
        "rex.png",
        "(555) 123-4567",
        "walks@example.com",
    ):
        expect(review.get_by_text(shown, exact=True)).to_be_visible()
    submit = review.get_by_role("button", name="Submit", exact=True)
    expect(submit).to_be_enabled()

    # Editing in the summary locks Submit ('Finish editing above'); cancelling a change asks.
    settle(page)
    review.get_by_role("button", name=f"Edit answer: {Q_WHERE}").click()
    expect(review.get_by_role("button", name="Finish editing above")).to_be_disabled()
    review.get_by_role("textbox", name=Q_WHERE, exact=True).fill("Somewhere else")
    review.get_by_role("button", name="Cancel", exact=True).click()
    discard = page.get_by_role("alertdialog", name=DISCARD_EDIT)
    expect(discard).to_be_visible()
    discard.get_by_role("button", name="Yes, discard").click()
    expect(review.get_by_text("Riverside", exact=True)).to_be_visible()
    review.get_by_role("button", name=f"Edit answer: {Q_WHERE}").click()
    # The editor opens with the caret after the answer: typing goes on from there.
    editor = review.get_by_role("textbox", name=Q_WHERE, exact=True)
    expect(editor).to_be_focused()
    page.keyboard.type(" Park")
    expect(editor).to_have_value("Riverside Park")
    review.get_by_role("button", name="Save", exact=True).click()
    expect(review.get_by_text("Riverside Park", exact=True)).to_be_visible()
    screenshot("drawer-summary")

    assert confetti_count(page) == 0
    review.get_by_role("button", name="Submit", exact=True).click()
    expect(page.get_by_role("heading", name=RECEIVED)).to_be_visible()
    expect(page.get_by_text(f"Your request “{DOG_WALKER}” is now in our queue.")).to_be_visible()
    # Confetti: canvas-confetti's canvas over the page, for the first-ever request.
    wait_until(page, lambda: confetti_count(page) > 0, timeout_ms=3000)
    expect(page.locator("body > canvas")).to_have_count(1)
    screenshot("drawer-received")

    # The request is stored: open, named after the survey, details summarising the answers.
    request = ServiceRequest.objects.get(user=new_employee)
    assert request.name == DOG_WALKER
    assert request.status == ServiceRequest.Status.OPEN
    assert request.survey_category == category(SurveyCategory.Icon.PET)
    # It reads naturally: no '?:', and the skipped question is left out.
    for line in (
        f"{Q_SIZE} Medium (20 to 50 lb)",
        f"{Q_OFTEN} A few times a week",
        f"{Q_WHERE} Riverside Park",
        f"{Q_PHOTO}: rex.png",
        f"{Q_PHONE} (555) 123-4567",
        f"{Q_EMAIL} walks@example.com",
    ):
        assert line in request.details, (line, request.details)
    assert Q_ABOUT not in request.details
    assert "?:" not in request.details
    new_employee.refresh_from_db()
    assert new_employee.request_count == 1

    # Requests: the To do tab with the queued request.
    page.get_by_role("link", name="View my requests").click()
    expect(page).to_have_url(re.compile(r"/requests$"))
    expect(drawer(page)).to_be_hidden()
    expect(page.get_by_role("tab", name="To do (1)")).to_be_visible()
    expect(page.get_by_role("tab", name=re.compile("Completed"))).to_have_count(0)
    expect(page.get_by_role("heading", name="1 request is in queue")).to_be_visible()
    card = page.get_by_role("link", name=re.compile(DOG_WALKER))
    expect(card).to_contain_text("In Queue")
    expect(card).to_contain_text("Requested just now")
    screenshot("requests-list")

    # Dashboard: 'Your latest request' replaces the first-request introduction.
    page.goto("/dashboard")
    expect(page.get_by_role("heading", name="Your latest request")).to_be_visible()
    latest = page.get_by_role("link", name=re.compile(DOG_WALKER))
    expect(latest).to_contain_text("In Queue")
    expect(page.get_by_role("heading", name=FIRST_REQUEST_INTRO)).to_have_count(0)
    screenshot("dashboard-latest-request")

    # A second request: received, but no confetti this time.
    finances = category(SurveyCategory.Icon.FINANCES)
    page.goto(f"/requests/category/{finances.pk}")
    page.get_by_role("button", name="Compare insurance quotes").click()
    expect(drawer(page, "Compare insurance quotes")).to_be_visible()
    choose_chip(page, "What kind of insurance?", "Pet")
    page.get_by_role("button", name="Skip", exact=True).click()
    asked(page, Q_EMAIL)
    expect(page.get_by_role("textbox", name=Q_EMAIL, exact=True)).to_have_value("sam@example.com")
    continue_button(page).click()
    page.get_by_role("button", name="Submit", exact=True).click()
    expect(page.get_by_role("heading", name=RECEIVED)).to_be_visible()
    page.wait_for_timeout(600)
    assert confetti_count(page) == 0
    expect(page.locator("body > canvas")).to_have_count(0)
    assert ServiceRequest.objects.filter(user=new_employee).count() == 2
    page.get_by_role("link", name="View my requests").click()
    expect(page.get_by_role("tab", name="To do (2)")).to_be_visible()
    expect(page.get_by_role("heading", name="2 requests are in queue")).to_be_visible()


# --------------------------------------------------------------------------- 2. the thread


def test_request_thread_messages_with_attachments(
    page: Page, demo_user: User, files, screenshot
) -> None:
    """§2 Request and §4 Request thread: header (name, 'In Queue', 'Just now'), the synthetic
    first message with the details; §5 composer (whitespace-only is not sent, one image or PDF);
    §4 File upload states; the Attachment route sends the browser to the file's bytes."""
    request = dog_walker_request(demo_user)
    sign_in(page, "demo@example.com", DEMO_PASSWORD)
    page.get_by_role("link", name=re.compile(DOG_WALKER)).click()
    expect(page).to_have_url(re.compile(rf"/requests/{request.pk}$"))

    expect(page.get_by_role("heading", level=1, name=DOG_WALKER)).to_be_visible()
    header = page.locator("header").filter(has=page.get_by_role("heading", name=DOG_WALKER))
    expect(header.get_by_text("In Queue", exact=True)).to_be_visible()
    expect(header.get_by_text("Requested just now")).to_be_visible()

    thread = page.get_by_role("list", name="Messages")
    first = thread.get_by_role("listitem").first
    expect(first).to_contain_text(THREAD_RECEIVED)
    expect(first).to_contain_text(f"{Q_WHERE} Riverside")
    expect(first).to_contain_text(f"{Q_SIZE} Medium (20 to 50 lb)")

    # Whitespace only: not sent.
    composer = page.get_by_role("form", name="Send a message")
    message = composer.get_by_label("Message")
    message.fill("   \n  ")
    composer.get_by_role("button", name="Send").click()
    expect(composer.get_by_text("Please enter a message")).to_be_visible()
    assert not Message.objects.filter(request=request).exists()

    # A message with a PDF.
    message.fill("Here is the signed walker agreement.")
    composer.locator('input[type="file"]').set_input_files(files["pdf"])
    expect(composer.get_by_text("walker-agreement.pdf", exact=True)).to_be_visible()
    expect(composer.get_by_text("Uploaded", exact=True)).to_be_visible()
    composer.get_by_role("button", name="Send").click()
    mine = thread.get_by_role("article", name="Message from You", exact=True)
    expect(mine).to_have_count(1)
    expect(mine.first).to_contain_text("Here is the signed walker agreement.")
    expect(mine.first.get_by_role("link", name=re.compile("walker-agreement.pdf"))).to_be_visible()
    expect(message).to_have_value("")
    expect(composer.get_by_text("walker-agreement.pdf")).to_have_count(0)

    # A message with an image.
    message.fill("And a photo of the backyard gate.")
    composer.locator('input[type="file"]').set_input_files(files["photo"])
    expect(composer.get_by_text("Uploaded", exact=True)).to_be_visible()
    composer.get_by_role("button", name="Send").click()
    expect(mine).to_have_count(2)
    expect(mine.nth(1)).to_contain_text("And a photo of the backyard gate.")
    expect(mine.nth(1).get_by_role("button", name="View image backyard.png")).to_be_visible()
    screenshot("request-thread")

    stored = list(Message.objects.filter(request=request).order_by("id"))
    assert [m.source for m in stored] == ["user", "user"]
    assert [[a.filename for a in m.attachments.all()] for m in stored] == [
        ["walker-agreement.pdf"],
        ["backyard.png"],
    ]

    # In the thread the image is a thumbnail (it opens the image viewer) and the PDF opens in
    # the browser's viewer in a new tab (issue 10; see test_conversation.py). The address in
    # emails, /attachments/{key}, resolves a short-lived address and the browser goes there,
    # which downloads the very bytes that were uploaded; the page then says so and leads back.
    expect(mine.nth(1).get_by_role("button", name="View image backyard.png")).to_be_visible()
    expect(
        mine.first.get_by_role("link", name=re.compile("walker-agreement.pdf"))
    ).to_have_attribute("target", "_blank")
    page.goto("/requests")
    for name, path in (("backyard.png", files["photo"]), ("walker-agreement.pdf", files["pdf"])):
        key = stored[0 if name.endswith(".pdf") else 1].attachments.get().key
        with page.expect_download() as download_info:
            page.goto(f"/attachments/{key.replace('/', '%2F')}")
        download = download_info.value
        assert download.suggested_filename == name
        assert Path(download.path()).read_bytes() == path.read_bytes()
        expect(page).to_have_url(re.compile(r"/attachments/"))
        expect(page.get_by_role("heading", name="Your download has started")).to_be_visible()
        page.get_by_role("button", name="Go back").click()
        expect(page).to_have_url(re.compile(r"/requests$"))


# --------------------------------------------------------------------------- 3. a concierge reply


def test_concierge_reply_shows_in_thread(page: Page, demo_user: User, screenshot) -> None:
    """§4 Request thread: a reply from the concierge side (source 'life_concierge'), created
    through the services, shows after a reload; a request without details says 'No messages
    yet'."""
    request = request_services.request_create(user=demo_user, name="Book a restaurant")
    sign_in(page, "demo@example.com", DEMO_PASSWORD)
    page.goto(f"/requests/{request.pk}")
    expect(page.get_by_role("heading", level=1, name="Book a restaurant")).to_be_visible()
    expect(page.get_by_text("No messages yet")).to_be_visible()

    concierge = User.objects.get(email="concierge@example.com")
    request_services.message_create(
        request=request,
        author=concierge,
        body="Hi Dana! I found three places with a table for four on Friday.\nWhich do you like?",
        source=Message.Source.LIFE_CONCIERGE,
        source_name="Casey from Concierge",
    )
    page.reload()
    reply = page.get_by_role("article", name="Message from Casey from Concierge")
    expect(reply).to_be_visible()
    expect(reply).to_contain_text("I found three places with a table for four on Friday.")
    expect(reply).to_contain_text("Which do you like?")
    expect(page.get_by_text("No messages yet")).to_have_count(0)
    expect(
        page.get_by_role("list", name="Messages").get_by_role("listitem").first
    ).to_have_attribute("data-from", "concierge")
    screenshot("request-concierge-reply")


LONG_LINK = (
    "https://shop.example.com/products/standing-desk-oak-160x80?utm_source=newsletter"
    "&utm_medium=email&utm_campaign=spring&ref=" + "a1b2c3d4e5" * 12
)


def expect_within_window(page: Page, element: Locator) -> None:
    """`element` lies inside the window's width: nothing of it is cut off at either side."""
    box = element.bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (box, width)


@pytest.mark.both_viewports
def test_long_unbroken_text_wraps_in_its_bubble_and_heading(
    page: Page, demo_user: User, screenshot
) -> None:
    """§2 Request and §4 Request thread: a long link in the request's details, in the
    employee's message and in the concierge's reply wraps inside its bubble, so the page never
    scrolls sideways (the screenshot checks it) and a phone's bottom bar stays on screen; §2
    Dashboard: a first name without spaces wraps in the welcome."""
    request = request_services.request_create(
        user=demo_user, name="Buy a standing desk", details=summary_line("Which desk?", LONG_LINK)
    )
    request_services.message_create(request=request, author=demo_user, body=f"Or {LONG_LINK}")
    concierge = User.objects.get(email="concierge@example.com")
    request_services.concierge_reply_create(request=request, author=concierge, body=LONG_LINK)
    User.objects.filter(pk=demo_user.pk).update(first_name="Bartholomew" * 8)
    sign_in(page, "demo@example.com", DEMO_PASSWORD)

    welcome = page.get_by_role("heading", level=1, name=re.compile("Welcome, Bartholomew"))
    expect_within_window(page, welcome)
    screenshot("dashboard-long-name")

    page.goto(f"/requests/{request.pk}")
    bubbles = page.get_by_role("list", name="Messages").get_by_role("listitem")
    expect(bubbles).to_have_count(3)
    for index in range(3):
        expect(bubbles.nth(index)).to_contain_text("a1b2c3d4e5" * 12)
        expect_within_window(page, bubbles.nth(index))
    if page.viewport_size and page.viewport_size["width"] < 640:
        expect(page.get_by_role("navigation", name="Main")).to_be_in_viewport()
    screenshot("request-thread-long-link")


# --------------------------------------------------------------------------- 4. a category


@pytest.mark.both_viewports
def test_request_category_lists_surveys_and_opens_drawer(
    page: Page, demo_user: User, viewport_name: str, screenshot
) -> None:
    """§2 RequestCategory: the Dashboard's 'View all' goes to /requests/category/{id}, which lists
    the category's request surveys; one of them opens the drawer titled with its name."""
    pet = category(SurveyCategory.Icon.PET)
    sign_in(page, "demo@example.com", DEMO_PASSWORD)
    expect(page.get_by_role("heading", name="Request ideas")).to_be_visible()
    if viewport_name == "mobile":
        page.get_by_role("tab", name="Pet").click()
    screenshot("dashboard-request-ideas")
    page.get_by_role("link", name="View all Pet requests").click()
    expect(page).to_have_url(re.compile(rf"/requests/category/{pet.pk}$"))
    expect(page.get_by_role("heading", level=1, name="Pet")).to_be_visible()

    listed = page.get_by_role("list", name="Pet requests").get_by_role("button")
    expected = list(
        RequestSurvey.objects.filter(category=pet, for_alpha=True)
        .order_by("position", "id")
        .values_list("name", flat=True)
    )
    assert len(expected) >= 3
    expect(listed).to_have_text(expected)
    screenshot("request-category")

    page.get_by_role("button", name="Book a vet appointment").click()
    vet = drawer(page, "Book a vet appointment")
    expect(vet).to_be_visible()
    asked(page, "What kind of pet is it?")
    expect(vet.get_by_role("radio", name="Dog")).to_be_visible()


# --------------------------------------------------------------------------- 5. cancel and resume


def test_cancel_starts_fresh_and_an_unsubmitted_run_asks_to_continue(
    page: Page, demo_user: User, viewport_name: str, screenshot
) -> None:
    """§4 Request drawer flow step 6 and the issue's 'guided survey': Escape mid-flow asks;
    after 'Yes, cancel' the next start is fresh. A run left unsubmitted (the page was left)
    asks 'Continue where you left off?': 'Continue' keeps the answers, 'Start over' drops them."""
    sign_in(page, "demo@example.com", DEMO_PASSWORD)
    open_dog_walker_from_dashboard(page, viewport_name)
    choose_chip(page, Q_SIZE, "Large (over 50 lb)")
    choose_chip(page, Q_OFTEN, "Occasionally")
    asked(page, Q_WHERE)

    page.keyboard.press("Escape")
    confirm = page.get_by_role("alertdialog", name=CLOSE_CONFIRM)
    expect(confirm).to_be_visible()
    confirm.get_by_role("button", name="Yes, cancel").click()
    expect(confirm).to_be_hidden()
    expect(drawer(page)).to_be_hidden()
    assert not ServiceRequest.objects.filter(user=demo_user).exists()

    # The next start is fresh: the first question, no earlier answers, no question asked.
    open_dog_walker_from_dashboard(page, viewport_name)
    asked(page, Q_SIZE)
    expect(answer_bubble(page, "Large (over 50 lb)")).to_have_count(0)
    expect(page.get_by_text("Continue where you left off?")).to_have_count(0)

    # Answers given, then the page is left without cancelling: the run waits.
    choose_chip(page, Q_SIZE, "Large (over 50 lb)")
    choose_chip(page, Q_OFTEN, "Occasionally")
    asked(page, Q_WHERE)
    page.reload()
    open_dog_walker_from_dashboard(page, viewport_name)
    expect(page.get_by_text("Continue where you left off?")).to_be_visible()
    expect(answer_bubble(page, "Large (over 50 lb)")).to_have_count(0)
    screenshot("drawer-continue-or-start-over")
    drawer(page).get_by_role("button", name="Continue", exact=True).click()
    expect(answer_bubble(page, "Large (over 50 lb)")).to_be_visible()
    expect(answer_bubble(page, "Occasionally")).to_be_visible()
    asked(page, Q_WHERE)
    page.get_by_role("textbox", name=Q_WHERE, exact=True).fill("Old Town")
    continue_button(page).click()
    asked(page, Q_ABOUT)

    page.reload()
    open_dog_walker_from_dashboard(page, viewport_name)
    drawer(page).get_by_role("button", name="Start over", exact=True).click()
    asked(page, Q_SIZE)
    expect(answer_bubble(page, "Large (over 50 lb)")).to_have_count(0)
    expect(answer_bubble(page, "Old Town")).to_have_count(0)
