"""Issue 29 outbox: /dev/outbox shows an email's HTML part as a mail app would, in a frame
sandboxed without scripts, with its plain text still there; a plain email shows as before."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from concierge.notifications.delivery import email_send, sms_send
from concierge.notifications.outbox import outbox_list
from concierge.servicerequests import services

pytestmark = pytest.mark.django_db

HOSTILE = (
    "<html><head><title>x</title></head><body><p>Hello</p>"
    '<script>window.parent.document.title = "pwned"</script>'
    '"><script>alert(1)</script><img src=x onerror="alert(2)">'
    "<form action='https://evil.example/'><input name=q></form></body></html>"
)


class _Page(HTMLParser):
    """The page's own elements (an iframe's srcdoc is an attribute, not elements)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.frames: list[dict[str, str]] = []
        self.pre: list[str] = []
        self._in_pre = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "iframe":
            self.frames.append({k: v or "" for k, v in attrs})
        self._in_pre = self._in_pre or tag == "pre"

    def handle_endtag(self, tag):
        if tag == "pre":
            self._in_pre = False

    def handle_data(self, data):
        if self._in_pre:
            self.pre.append(data)


def outbox_page(client, settings) -> _Page:
    settings.DEBUG = True
    response = client.get("/dev/outbox")
    assert response.status_code == 200
    page = _Page()
    page.feed(response.content.decode())
    page.close()
    return page


def test_issue_29_outbox_shows_the_completion_emails_html_in_a_sandboxed_frame(
    client, settings, user, make_request, outbox
):
    """Issue 29 outbox: the completion email's HTML part (its five face buttons) shows in a
    frame sandboxed without scripts, forms or same-origin access, its links opening in a new
    tab; the plain text with its rating links is still on the page."""
    service_request = make_request(user, name="Find a dog walker")
    services.request_status_change(request=service_request, action="complete")
    [email] = outbox.emails(user.email)
    assert email.html and "/rate/" in email.html and "/rate/" in email.body

    page = outbox_page(client, settings)
    [frame] = page.frames
    sandbox = frame["sandbox"].split()
    assert not {"allow-scripts", "allow-same-origin", "allow-forms", "allow-top-navigation"} & set(
        sandbox
    )
    assert frame["title"] == f"HTML version: {email.subject}"
    srcdoc = frame["srcdoc"]
    assert "Find a dog walker" in srcdoc
    assert srcdoc.count("/rate/") == 5
    for label in ("Very poor", "Poor", "OK", "Good", "Excellent"):
        assert label in srcdoc
    assert '<head><base target="_blank">' in srcdoc
    plain = "".join(page.pre)
    assert "How did we do? One tap records your rating" in plain
    assert plain.count("/rate/") == 5


def test_issue_29_outbox_html_with_scripts_runs_nothing_on_the_page(client, settings, outbox):
    """Issue 29 outbox: an HTML part carrying scripts, an attribute breakout, an event handler
    and a form stays inside the frame's srcdoc (escaped): the page itself gets no script,
    image or form, and the frame may run none."""
    email_send(to="eve@example.com", subject="Hostile", body="Plain words", html=HOSTILE)
    [item] = outbox_list()
    assert item.html == HOSTILE and item.body.strip() == "Plain words"

    response_page = outbox_page(client, settings)
    assert "script" not in response_page.tags
    assert "img" not in response_page.tags and "form" not in response_page.tags
    [frame] = response_page.frames
    assert "allow-scripts" not in frame["sandbox"]
    assert frame["srcdoc"].startswith('<html><head><base target="_blank">')
    assert frame["srcdoc"].endswith(HOSTILE.split("<head>", 1)[1])
    raw = client.get("/dev/outbox").content.decode()
    assert '"><script>' not in raw and "&quot;&gt;&lt;script&gt;alert(1)" in raw


def test_issue_29_outbox_a_plain_email_and_a_text_message_show_as_text(client, settings, outbox):
    """Issue 29 outbox: an email without an HTML part, and an SMS, show their text, no frame."""
    email_send(to="ada@example.com", subject="Reset your password", body="Open https://x.test/r")
    sms_send(to="+15551234567", body="Your code is 123456")
    assert [i.html for i in outbox_list()] == ["", ""]

    page = outbox_page(client, settings)
    assert page.frames == []
    text = "".join(page.pre)
    assert "Open https://x.test/r" in text and "Your code is 123456" in text
