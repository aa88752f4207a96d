"""The completion email as sent: a multipart message with the plain text of old and an HTML
part whose five face buttons carry the one-tap rating links; user input in it is escaped."""

from __future__ import annotations

from email import message_from_bytes, policy
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from concierge.notifications.background import BODY_FORGOTTEN
from concierge.satisfaction.invites import rating_invite_deliver_due
from concierge.satisfaction.models import Rating
from concierge.satisfaction.tests.test_ratings import RATE_LINK
from concierge.servicerequests import services

pytestmark = pytest.mark.django_db

EMAIL_TASK = "concierge.notifications.tasks.email_deliver"
INVITE_TASK = "concierge.satisfaction.tasks.rating_invite_deliver"


class _Html(HTMLParser):
    """The links, the tags and the visible text of an HTML part."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self.tags: set[str] = set()
        self.sources: list[str] = []
        self.text: list[str] = []
        self._href: str | None = None
        self._link_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        values = dict(attrs)
        self.sources += [v or "" for k, v in attrs if k in ("src", "background")]
        if tag == "a":
            self._href, self._link_text = values.get("href") or "", []

    def handle_endtag(self, tag):
        if tag == "a" and self._href is not None:
            self.links.append((self._href, " ".join("".join(self._link_text).split())))
            self._href = None

    def handle_data(self, data):
        self.text.append(data)
        if self._href is not None:
            self._link_text.append(data)


def parse_html(markup: str) -> _Html:
    parser = _Html()
    parser.feed(markup)
    parser.close()
    return parser


def completion_message(outbox, to: str) -> EmailMessage:
    """The completion email as written to the outbox folder (.eml), after the tasks ran."""
    outbox.all()
    for path in sorted(Path(outbox.path).glob("*.eml")):
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        if to in str(message["To"]) and "is complete" in str(message["Subject"]):
            assert isinstance(message, EmailMessage)
            return message
    raise AssertionError("no completion email in the outbox")


def parts(message: EmailMessage) -> tuple[str, str]:
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert plain is not None and html is not None
    return plain.get_content(), html.get_content()


def rate_links_of(html: _Html) -> dict[int, str]:
    """Score -> token of the HTML part's /rate/ links."""
    links = {}
    for href, _ in html.links:
        if "/rate/" in href:
            url = urlsplit(href)
            links[int(parse_qs(url.query)["score"][0])] = url.path.rsplit("/", 1)[1]
    return links


def test_completion_email_an_html_part_with_five_face_links_the_plain_text_kept(
    concierge_api, user, make_request, outbox, api, settings
):
    """Completion email: multipart/alternative, the plain text as before (five links) and an
    HTML part with the request's name, five face links 1–5 carrying the same signed token as
    the plain text, the product name and the support address; no image, no script."""
    service_request = make_request(user, name="Find a dog walker")
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/status", {"action": "complete"}
    )
    assert response.status_code == 200, response.content
    message = completion_message(outbox, user.email)
    assert message.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in message.iter_parts()] == ["text/plain", "text/html"]
    plain, markup = parts(message)

    assert plain.startswith("Hello Ada,\n\nYour request \u201cFind a dog walker\u201d is complete.")
    plain_links = {int(score): token for token, score in RATE_LINK.findall(plain)}
    assert sorted(plain_links) == [1, 2, 3, 4, 5]
    assert f"{settings.PUBLIC_URL}/requests/{service_request.pk}" in plain

    html = parse_html(markup)
    links = rate_links_of(html)
    assert sorted(links) == [1, 2, 3, 4, 5]
    assert set(links.values()) == set(plain_links.values())  # one signed token, as in the text
    faces = [text for href, text in html.links if "/rate/" in href]
    assert faces == [
        "\U0001f641 Very poor",
        "\U0001f615 Poor",
        "\U0001f610 OK",
        "\U0001f642 Good",
        "\U0001f604 Excellent",
    ]
    for href, _ in html.links:
        if "/rate/" in href:
            assert href.startswith(f"{settings.PUBLIC_URL}/rate/")
    text = " ".join(" ".join(html.text).split())
    assert "Your request \u201cFind a dog walker\u201d is complete" in text
    assert settings.PRODUCT_NAME in text
    assert (f"mailto:{settings.SUPPORT_EMAIL}", settings.SUPPORT_EMAIL) in html.links
    assert (f"{settings.PUBLIC_URL}/requests/{service_request.pk}", "See your request") in (
        html.links
    )
    assert not {"script", "img", "link", "iframe", "style", "form"} & html.tags
    assert html.sources == []

    tapped = api.post("ratings/link", {"token": links[4], "score": 4})  # the HTML's own link
    assert tapped.status_code == 201, tapped.content
    assert (Rating.objects.get().score, Rating.objects.get().via) == (4, "email")


def test_completion_email_the_request_name_is_escaped_in_the_html_part(
    user_factory, company, make_request, outbox
):
    """The request's name (employee input) and the employee's name are escaped in the HTML
    part; the plain text carries them as typed."""
    name = '<script>alert("x")</script> Tom & <b>Jerry</b>'
    employee = user_factory(email="eve@example.com", first_name="<i>Eve</i>", companies=[company])
    service_request = make_request(employee, name=name)
    services.request_status_change(request=service_request, action="complete")
    plain, markup = parts(completion_message(outbox, employee.email))

    assert f"\u201c{name}\u201d" in plain
    assert "Hello <i>Eve</i>," in plain
    assert "<script>" not in markup and "<b>Jerry" not in markup and "<i>Eve" not in markup
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Tom &amp; &lt;b&gt;Jerry" in markup
    assert "Hello &lt;i&gt;Eve&lt;/i&gt;," in markup
    html = parse_html(markup)
    assert "script" not in html.tags and "b" not in html.tags and "i" not in html.tags
    text = " ".join(" ".join(html.text).split())
    assert f"Your request \u201c{name}\u201d is complete" in text
    assert sorted(rate_links_of(html)) == [1, 2, 3, 4, 5]


def test_completion_email_is_queued_after_the_commit_and_its_html_forgotten_once_sent(
    user, make_request, outbox, tasks
):
    """Nothing is sent inside the completing transaction: a background task enqueued on
    commit decides, when due, to queue the email (carrying both parts) once; once sent, the
    stored text and HTML (which hold the rating links) are removed from the task."""
    service_request = make_request(user)
    services.request_status_change(request=service_request, action="complete")
    assert outbox.written() == []
    [invite] = tasks.results(INVITE_TASK)
    service_request.refresh_from_db()
    assert invite.args_kwargs["kwargs"] == {
        "request_id": service_request.pk,
        "completed_at": service_request.completed_at.isoformat(),
    }
    assert tasks.results(EMAIL_TASK) == []

    assert rating_invite_deliver_due(**invite.args_kwargs["kwargs"]) == "queued"
    [queued] = tasks.results(EMAIL_TASK)
    kwargs = queued.args_kwargs["kwargs"]
    assert "/rate/" in kwargs["body"] and "/rate/" in kwargs["html"]
    assert outbox.written() == []

    assert len(outbox.emails(user.email)) == 1  # the invite task, run too, queues no second
    [sent] = tasks.results(EMAIL_TASK)
    assert sent.args_kwargs["kwargs"]["body"] == BODY_FORGOTTEN
    assert sent.args_kwargs["kwargs"]["html"] == BODY_FORGOTTEN


@pytest.mark.parametrize("reply_by_email", [True, False])
def test_completion_email_says_a_reply_reopens_and_shows_its_unsubscribe_link(
    concierge_api, user, make_request, outbox, settings, reply_by_email
):
    """Completion email: with reply by email on, it says that replying reopens the request
    (a 'Thanks!' would put it back in the queue); both parts show the unsubscribe link of its
    List-Unsubscribe header."""
    settings.REPLY_DOMAIN = "reply.example.com" if reply_by_email else ""
    service_request = make_request(user, name="Find a dog walker")
    response = concierge_api.post(
        f"concierge/requests/{service_request.pk}/status", {"action": "complete"}
    )
    assert response.status_code == 200, response.content
    message = completion_message(outbox, user.email)
    plain, markup = parts(message)
    reopens = (
        "Replying to this email reopens your request, so reply only if you need something else."
    )
    assert (reopens in plain) is reply_by_email
    assert (reopens in markup) is reply_by_email
    assert (message["Reply-To"] is not None) is reply_by_email
    url = str(message["List-Unsubscribe"]).strip().strip("<>")
    assert f"To stop getting emails about completed requests, unsubscribe: {url}" in plain
    assert (url, "unsubscribe") in parse_html(markup).links
