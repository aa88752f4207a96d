"""Browser tests for the conversation (issue 10 'The conversation', both sizes): attachments
open inside the thread (thumbnails, the image viewer, PDFs in the browser's viewer); the
composer previews a chosen, dropped or pasted file; the thread opens at the newest message,
keeps the composer docked and shows a 'New message' pill when a live reply arrives while the
reader has scrolled up; a polite live region announces that reply; 'Reopen and send' on a
Completed request, and the desk's 'Reopened by …' line. On a phone: the employee's own file
chip reads on their bubble, the composer stays one line until used, so a completed request's
rating card shows above it, and the image viewer is opaque."""

from __future__ import annotations

import base64
import io
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from concierge.accounts.models import User
from concierge.demo.management.commands.seed_demo import simple_pdf
from concierge.servicerequests import services as request_services
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.uploads import services as upload_services
from concierge.uploads.tests.samples import png_bytes
from e2e.a11y import expect_axe_clean
from e2e.conftest import DEMO_PASSWORD, VIEWPORTS, save_screenshot
from e2e.journeys import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.phone_screenshots]

EMPLOYEE_EMAIL = "demo@example.com"  # Dana Demo
CONCIERGE_EMAIL = "concierge@example.com"  # Casey Concierge
SIGNATURE = "Casey from Concierge"
LIVE_MS = 8_000  # the Request page polls every 15 s: arriving sooner is the event stream

GATE = png_bytes(40, 30, (30, 90, 200))
DOG = png_bytes(30, 40, (200, 120, 40))
RECEIPT = png_bytes(24, 24, (20, 160, 90))
PDF = simple_pdf("Walker agreement", ("Signed by Dana",))


@pytest.fixture
def dana(demo) -> User:
    return User.objects.get(email=EMPLOYEE_EMAIL)


@pytest.fixture
def casey(demo) -> User:
    return User.objects.get(email=CONCIERGE_EMAIL)


def shot(page: Page, name: str, viewport_name: str, *, full_page: bool = False) -> None:
    save_screenshot(page, f"conversation-{name}-{viewport_name}", full_page=full_page)


def attach(owner: User, request: ServiceRequest, name: str, data: bytes) -> str:
    """An upload of `data` for the request, received as the browser's PUT would be."""
    upload = upload_services.upload_create(owner=owner, filename=name, request_id=request.pk)
    token = upload_services.upload_put_url(upload=upload, base_url="").rsplit("/", 1)[-1]
    upload_services.upload_receive(token=token, body=io.BytesIO(data), content_length=None)
    return upload.key


def long_thread(dana: User, casey: User, *, status: str = ServiceRequest.Status.IN_PROGRESS):
    """A request with a dozen messages, so the thread is longer than the screen."""
    request = request_services.request_create(
        user=dana, name="Find a dog walker", details="Walks on weekdays at noon."
    )
    for n in range(1, 13):
        if n % 2:
            request_services.message_create(request=request, author=dana, body=f"Question {n}")
        else:
            request_services.concierge_reply_create(
                request=request, author=casey, body=f"Answer {n}: noted, thank you."
            )
    ServiceRequest.objects.filter(pk=request.pk).update(status=status)
    request.refresh_from_db()
    return request


AT_THREAD_END = """() => {
  const items = document.querySelectorAll('ol[aria-label="Messages"] > li[data-from]');
  const last = items[items.length - 1].getBoundingClientRect();
  const composer = document.querySelector('[data-composer]').getBoundingClientRect();
  return last.bottom <= composer.top + 40 && last.bottom > 0;
}"""


def at_thread_end(page: Page) -> bool:
    """The newest message is on screen, above the docked composer."""
    return page.evaluate(AT_THREAD_END)


def wait_for_thread_end(page: Page) -> None:
    """Waits until a (smooth) scroll has brought the newest message above the composer."""
    page.wait_for_function(AT_THREAD_END)


def composer_docked(page: Page, viewport_name: str) -> bool:
    """The composer sits at the bottom of the screen (above the bottom bar on phones)."""
    return page.evaluate(
        """(phone) => {
          const box = document.querySelector('[data-composer]').getBoundingClientRect();
          const floor = window.innerHeight - (phone ? 64 : 0);
          return box.bottom <= floor && box.bottom >= floor - 32;
        }""",
        viewport_name == "mobile",
    )


# --------------------------------------------------------------------------- 1. attachments


def test_images_open_in_the_viewer_and_pdfs_in_the_browsers_viewer(
    full_chromium_page: Page, dana: User, casey: User, viewport_name: str
) -> None:
    """Issue 10 'Attachments open inside the thread': images are thumbnails in the message;
    the viewer opens with the keyboard, ←/→ move between the thread's images, Download saves
    the file, Escape closes it and focus returns to the thumbnail. A PDF opens in the
    browser's viewer in a new tab; /attachments/{fileKey} (links from emails) still downloads."""
    page = full_chromium_page
    request = long_thread(dana, casey)
    gate = attach(dana, request, "gate.png", GATE)
    request_services.message_create(
        request=request, author=dana, body="The back gate", attachment_keys=[gate]
    )
    keys = [attach(casey, request, "dog.png", DOG), attach(casey, request, "receipt.png", RECEIPT)]
    pdf = attach(casey, request, "walker-agreement.pdf", PDF)
    request_services.concierge_reply_create(
        request=request,
        author=casey,
        body="Two photos and the agreement",
        attachment_keys=[*keys, pdf],
    )

    sign_in(page, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    page.goto(f"/requests/{request.pk}")
    thread = page.get_by_role("list", name="Messages")
    thumbnails = thread.get_by_role("button", name=re.compile(r"^View image "))
    expect(thumbnails).to_have_count(3)
    for index in range(3):
        thumbnail = thumbnails.nth(index).locator("img")
        expect(thumbnail).to_have_attribute("loading", "lazy")
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=thumbnail.element_handle()
        )
    shot(page, "thumbnails", viewport_name)
    expect_axe_clean(page, "the thread's thumbnails")

    # Keyboard: focus the first thumbnail, Enter opens the viewer on it.
    first = thread.get_by_role("button", name="View image gate.png")
    first.focus()
    page.keyboard.press("Enter")
    viewer = page.get_by_role("dialog", name="Image viewer: gate.png")
    expect(viewer).to_be_visible()
    expect(viewer.get_by_text("Image 1 of 3")).to_be_visible()
    image = viewer.get_by_role("img", name="gate.png")
    expect(image).to_be_visible()
    page.wait_for_function("img => img.naturalWidth === 40", arg=image.element_handle())
    # Opaque: nothing of the thread shows behind the file name and the controls.
    surface = page.locator("[data-viewer-surface]")
    assert surface.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(18, 16, 15)"
    shot(page, "viewer", viewport_name)
    expect_axe_clean(page, "the image viewer")

    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("dialog", name="Image viewer: dog.png")).to_be_visible()
    expect(page.get_by_text("Image 2 of 3")).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("dialog", name="Image viewer: receipt.png")).to_be_visible()
    page.keyboard.press("ArrowRight")  # wraps around
    expect(page.get_by_role("dialog", name="Image viewer: gate.png")).to_be_visible()
    page.keyboard.press("ArrowLeft")
    viewer = page.get_by_role("dialog", name="Image viewer: receipt.png")
    expect(viewer).to_be_visible()

    # Download saves the very bytes, and the thread stays on screen.
    with page.expect_download() as download_info:
        viewer.get_by_role("button", name="Download").click()
    download = download_info.value
    assert download.suggested_filename == "receipt.png"
    assert download.path().read_bytes() == RECEIPT
    expect(page).to_have_url(re.compile(rf"/requests/{request.pk}$"))

    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(first).to_be_focused()

    # A PDF opens in the browser's PDF viewer, in a new tab.
    link = thread.get_by_role("link", name=re.compile("walker-agreement.pdf"))
    expect(link).to_have_attribute("target", "_blank")
    with page.context.expect_page() as popup_info:
        link.click()
    popup = popup_info.value
    popup.wait_for_url(re.compile(r"/api/v1/uploads/get/"))
    shown = popup.request.get(popup.url)
    assert shown.headers["content-type"] == "application/pdf"
    assert shown.headers["content-disposition"].startswith("inline;")
    assert shown.body() == PDF
    popup.close()
    expect(page).to_have_url(re.compile(rf"/requests/{request.pk}$"))

    # The Attachment route still downloads (the address in emails).
    page.goto(f"/attachments/{pdf.replace('/', '%2F')}")
    expect(page.get_by_role("heading", name="Your download has started")).to_be_visible()


# --------------------------------------------------------------------------- 2. the composer


DROP_SCRIPT = """([selector, files]) => {
  const target = document.querySelector(selector);
  const transfer = new DataTransfer();
  for (const [name, type, b64] of files) {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], name, { type }));
  }
  for (const type of ['dragenter', 'dragover', 'drop']) {
    target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }
}"""

PASTE_SCRIPT = """([name, b64]) => {
  const box = document.querySelector('[data-composer] textarea');
  box.focus();
  const transfer = new DataTransfer();
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  transfer.items.add(new File([bytes], name, { type: 'image/png' }));
  box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
}"""


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_composer_previews_chosen_dropped_and_pasted_files(
    page: Page, dana: User, casey: User, tmp_path, viewport_name: str
) -> None:
    """Issue 10 'Choosing a file shows a preview before sending': an image shows a thumbnail,
    a PDF an icon, each with name and size and a Remove button; a file dropped on the composer
    and an image pasted into the text are attached the same way; one file per message (spec
    §5); after Send focus stays in the composer."""
    request = long_thread(dana, casey)
    sign_in(page, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    page.goto(f"/requests/{request.pk}")
    composer = page.get_by_role("form", name="Send a message")
    selected = composer.get_by_role("list", name="Selected file")

    # Chosen: a PDF shows its icon, name and size; Remove takes it away.
    pdf_path = tmp_path / "lease.pdf"
    pdf_path.write_bytes(PDF)
    composer.locator('input[type="file"]').set_input_files(pdf_path)
    expect(selected).to_contain_text("lease.pdf")
    expect(selected).to_contain_text("Uploaded")
    expect(selected.locator("img[data-preview]")).to_have_count(0)
    selected.get_by_role("button", name="Remove lease.pdf").click()
    expect(selected).to_have_count(0)

    # Dropped on the composer: an image with its thumbnail before sending.
    page.evaluate(DROP_SCRIPT, ["[data-composer]", [["gate.png", "image/png", b64(GATE)]]])
    expect(selected).to_contain_text("gate.png")
    expect(selected).to_contain_text("Uploaded")
    preview = selected.locator("img[data-preview]")
    expect(preview).to_be_visible()
    page.wait_for_function("img => img.naturalWidth === 40", arg=preview.element_handle())
    composer.get_by_label("Message").fill("The gate, from the garden side")
    composer.scroll_into_view_if_needed()
    shot(page, "composer-preview", viewport_name)
    expect_axe_clean(page, "the composer's file preview")

    # Two files dropped at once: refused (one file per message), the chosen one stays.
    page.evaluate(
        DROP_SCRIPT,
        [
            "[data-composer]",
            [["a.png", "image/png", b64(DOG)], ["b.png", "image/png", b64(RECEIPT)]],
        ],
    )
    expect(composer.get_by_text("Only one file can be attached to a message.")).to_be_visible()
    expect(selected).to_contain_text("gate.png")

    composer.get_by_role("button", name="Send").click()
    mine = page.get_by_role("article", name="Message from You").last
    expect(mine).to_contain_text("The gate, from the garden side")
    expect(mine.get_by_role("button", name="View image gate.png")).to_be_visible()
    expect(selected).to_have_count(0)
    expect(composer.get_by_label("Message")).to_be_focused()

    # Pasted into the text: a screenshot becomes the attachment.
    page.evaluate(PASTE_SCRIPT, ["screenshot.png", b64(DOG)])
    expect(selected).to_contain_text("screenshot.png")
    expect(selected).to_contain_text("Uploaded")
    expect(selected.locator("img[data-preview]")).to_be_visible()
    expect(composer.get_by_label("Message")).to_have_value("")
    composer.get_by_label("Message").fill("And the dog")
    page.keyboard.press("Control+Enter")
    expect(page.get_by_role("article", name="Message from You").last).to_contain_text("And the dog")
    expect(composer.get_by_label("Message")).to_be_focused()
    stored = Message.objects.filter(request=request).order_by("-id")[:2]
    assert [[a.filename for a in m.attachments.all()] for m in stored] == [
        ["screenshot.png"],
        ["gate.png"],
    ]


# --------------------------------------------------------------------------- 3. following


@pytest.mark.both_viewports
def test_thread_opens_at_the_newest_message_and_a_live_reply_shows_a_pill(
    page: Page, dana: User, casey: User, viewport_name: str
) -> None:
    """Issue 10: the thread opens scrolled to the newest message with the composer docked at
    the bottom (above the bottom bar on phones); a reply that arrives live while the reader
    has scrolled up shows a 'New message' pill instead of moving the page, and the polite live
    region announces that message (not the thread); the pill scrolls down to it. At the end
    already, the next reply scrolls into view by itself."""
    request = long_thread(dana, casey)
    sign_in(page, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    page.goto(f"/requests/{request.pk}")
    expect(page.get_by_role("list", name="Messages")).to_contain_text("Answer 12")
    page.wait_for_function("() => window.scrollY > 0")
    assert at_thread_end(page)
    assert composer_docked(page, viewport_name)
    announcer = page.locator("[data-thread-announcer]")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_have_text("")

    # Scrolled up to read: the composer stays docked, a live reply waits behind the pill.
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(200)
    assert composer_docked(page, viewport_name)
    request_services.concierge_reply_create(
        request=request, author=casey, body="I found a walker: Sam, weekdays at noon."
    )
    pill = page.get_by_role("button", name="New message")
    expect(pill).to_be_visible(timeout=LIVE_MS)
    expect(announcer).to_have_text(
        f"New message from {SIGNATURE}: I found a walker: Sam, weekdays at noon."
    )
    assert page.evaluate("window.scrollY") == 0
    page.wait_for_timeout(400)  # the fade-in
    shot(page, "new-message-pill", viewport_name)
    expect_axe_clean(page, "the New message pill")

    pill.click()
    expect(pill).to_have_count(0)
    wait_for_thread_end(page)
    expect(page.locator("[data-composer] textarea")).to_be_focused()

    # At the end: the next reply comes into view without a pill.
    request_services.concierge_reply_create(
        request=request, author=casey, body="Sam starts Monday."
    )
    expect(page.get_by_role("list", name="Messages")).to_contain_text(
        "Sam starts Monday.", timeout=LIVE_MS
    )
    expect(announcer).to_have_text(f"New message from {SIGNATURE}: Sam starts Monday.")
    wait_for_thread_end(page)
    expect(pill).to_have_count(0)

    # The employee's own message is never announced to them.
    composer = page.get_by_role("form", name="Send a message")
    composer.get_by_label("Message").fill("Great, thanks!")
    composer.get_by_role("button", name="Send").click()
    expect(page.get_by_role("article", name="Message from You").last).to_contain_text(
        "Great, thanks!"
    )
    expect(announcer).to_have_text(f"New message from {SIGNATURE}: Sam starts Monday.")
    expect(composer.get_by_label("Message")).to_be_focused()
    if viewport_name == "mobile":
        # The on-screen keyboard opens (the screen gets shorter, as with interactive-widget=
        # resizes-content): the bottom bar gives way and the composer sits right above it.
        page.set_viewport_size({"width": 375, "height": 480})
        expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
        page.wait_for_function(
            """() => {
              const box = document.querySelector('[data-composer]').getBoundingClientRect();
              return box.bottom <= innerHeight && box.bottom >= innerHeight - 32;
            }"""
        )
        wait_for_thread_end(page)  # the newest message stays in view above the composer
        shot(page, "keyboard-open", viewport_name)
        page.set_viewport_size(VIEWPORTS["mobile"])
        expect(page.get_by_role("navigation", name="Main")).to_be_visible()


# --------------------------------------------------------------------------- 4. reopening


def test_reopen_and_send_on_a_completed_request(
    browser: Browser, browser_context_args: dict, dana: User, casey: User, viewport_name: str
) -> None:
    """Issue 10 'Writing on a Completed request no longer reopens it silently': the composer
    says the request is completed and offers 'Reopen and send' and 'Start a new request';
    sending reopens it (In Queue) with a line in the thread; the concierge's desk thread says
    'Reopened by Dana Demo with a new message'."""
    request = long_thread(dana, casey, status=ServiceRequest.Status.CLOSED)
    context = browser.new_context(**browser_context_args)
    desk_context = browser.new_context(**{**browser_context_args, "viewport": VIEWPORTS["desktop"]})
    try:
        page = context.new_page()
        sign_in(page, EMPLOYEE_EMAIL, DEMO_PASSWORD)
        page.goto(f"/requests/{request.pk}")
        header = page.locator("header").filter(has=page.get_by_role("heading", level=1))
        expect(header.get_by_text("Completed", exact=True)).to_be_visible()
        composer = page.get_by_role("form", name="Send a message")
        expect(composer).to_contain_text(
            "This request is completed. Sending a message will reopen it."
        )
        expect(composer.get_by_role("button", name="Send", exact=True)).to_have_count(0)
        send = composer.get_by_role("button", name="Reopen and send")
        expect(send).to_be_visible()

        # Opened by focusing the text, it says what sending does and offers 'Start a new
        # request', which opens the request drawer instead.
        composer.get_by_label("Message").focus()
        expect(composer.get_by_text("Sending a message will reopen it.")).to_be_visible()
        composer.get_by_role("button", name="Start a new request").click()
        drawer = page.get_by_role("dialog")
        expect(drawer).to_be_visible()
        page.keyboard.press("Escape")
        no_cancel = page.get_by_role("button", name="Yes, cancel")
        if no_cancel.count():
            no_cancel.click()
        expect(page.get_by_role("dialog")).to_have_count(0)
        shot(page, "completed-composer", viewport_name)
        expect_axe_clean(page, "the completed request's composer")

        composer.get_by_label("Message").fill("One more thing: can Sam also walk on Saturday?")
        send.click()
        expect(header.get_by_text("In Queue", exact=True)).to_be_visible()
        expect(page.get_by_text("You reopened this request")).to_be_visible()
        expect(composer.get_by_role("button", name="Send", exact=True)).to_be_visible()
        expect(composer).not_to_contain_text("This request is completed.")
        expect(composer.get_by_label("Message")).to_be_focused()
        request.refresh_from_db()
        assert request.status == ServiceRequest.Status.OPEN
        reopening = Message.objects.filter(request=request).order_by("-id").first()
        assert reopening is not None and reopening.reopened_request

        desk = desk_context.new_page()
        sign_in(desk, CONCIERGE_EMAIL, DEMO_PASSWORD, "/concierge")
        desk.goto(f"/concierge/requests/{request.pk}")
        line = desk.get_by_text("Reopened by Dana Demo with a new message")
        expect(line).to_be_visible()
        line.scroll_into_view_if_needed()
        expect_axe_clean(desk, "the desk's reopened thread")
        save_screenshot(desk, f"conversation-desk-reopened-{viewport_name}")
    finally:
        context.close()
        desk_context.close()


# --------------------------------------------------------------------------- 5. on a phone


CONTRAST = """(el) => {
  const rgb = (value) => value.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (value) => {
    const [r, g, b] = rgb(value).map((c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const text = getComputedStyle(el.querySelector('span.truncate')).color;
  const size = getComputedStyle(el.querySelector('span.tabular-nums')).color;
  const background = getComputedStyle(el).backgroundColor;
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  return { text, size, background, name: ratio(text, background), sizeRatio: ratio(size, background) };
}"""


def test_own_pdf_chip_reads_on_the_employees_bubble(
    page: Page, dana: User, casey: User, viewport_name: str
) -> None:
    """The employee's own PDF on their teal bubble: the chip's name and icons are dark on the
    white chip (4.5:1 or more), not white on white; the concierge's chip reads as well."""
    request = long_thread(dana, casey)
    mine = attach(dana, request, "signed-lease.pdf", PDF)
    request_services.message_create(
        request=request, author=dana, body="The signed lease", attachment_keys=[mine]
    )
    theirs = attach(casey, request, "walker-agreement.pdf", PDF)
    request_services.concierge_reply_create(
        request=request, author=casey, body="And the agreement", attachment_keys=[theirs]
    )
    sign_in(page, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    page.goto(f"/requests/{request.pk}")
    thread = page.get_by_role("list", name="Messages")
    for name in ("signed-lease.pdf", "walker-agreement.pdf"):
        chip = thread.get_by_role("link", name=re.compile(re.escape(name)))
        expect(chip).to_be_visible()
        colours = chip.evaluate(CONTRAST)
        assert colours["text"] != colours["background"], colours
        assert colours["name"] >= 4.5 and colours["sizeRatio"] >= 4.5, colours
    own = thread.get_by_role("article", name="Message from You").last
    expect(own.get_by_role("link", name=re.compile("signed-lease.pdf"))).to_be_visible()
    own.scroll_into_view_if_needed()
    shot(page, "own-pdf-chip", viewport_name)
    expect_axe_clean(page, "the employee's own file chip")


def test_completed_request_shows_the_rating_card_above_a_one_line_composer(
    page: Page, dana: User, casey: User, viewport_name: str
) -> None:
    """On a completed request the composer is one line (text, attach, send) until it is used,
    and the page opens with the 'How did we do?' card on screen above it, so the one-tap
    rating needs no scrolling; focusing the text opens the composer, leaving it empty folds it."""
    request = long_thread(dana, casey, status=ServiceRequest.Status.CLOSED)
    sign_in(page, EMPLOYEE_EMAIL, DEMO_PASSWORD)
    page.goto(f"/requests/{request.pk}")
    card = page.get_by_role("region", name="How did we do?")
    expect(card).to_be_visible()
    composer = page.get_by_role("form", name="Send a message")
    page.wait_for_timeout(300)  # the card's query and the scroll that keeps the end in view
    page.wait_for_function(
        """() => {
          const card = [...document.querySelectorAll('section')].find((s) =>
            s.textContent.includes('How did we do?'));
          const composer = document.querySelector('[data-composer]').getBoundingClientRect();
          const box = card.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= composer.top;
        }"""
    )
    box = composer.bounding_box()
    assert box is not None and box["height"] <= 72, box
    assert composer_docked(page, viewport_name)
    assert card.get_by_role("radio").count() == 5
    for control in ("Message", "Attach a file"):
        expect(composer.get_by_label(control)).to_be_attached()
    expect(composer.get_by_role("button", name="Reopen and send")).to_be_visible()
    shot(page, "completed-rating-card", viewport_name)
    expect_axe_clean(page, "the completed request's rating card and folded composer")

    # Focus (the keyboard's Tab lands on the text) opens it; empty and left, it folds again.
    text = composer.get_by_label("Message")
    text.focus()
    expect(composer).to_have_attribute("data-open", "")
    expect(composer.get_by_text("Sending a message will reopen it.")).to_be_visible()
    opened = composer.bounding_box()
    assert opened is not None and opened["height"] > box["height"] + 40, opened
    page.keyboard.press("Shift+Tab")  # to 'Start a new request', still inside
    expect(composer).to_have_attribute("data-open", "")
    page.evaluate("document.activeElement.blur()")
    expect(composer).not_to_have_attribute("data-open", "")
