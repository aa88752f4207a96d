"""Issue 28 reply by email: an email to a request's reply address becomes the employee's message
in that thread (the quoted history cut), or is refused with a short note and nothing written,
or is dropped silently (auto-replies, bounces)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from freezegun import freeze_time

from concierge.accounts.models import EmployeeRecord
from concierge.inbound_email.models import InboundEmail
from concierge.inbound_email.services import inbound_email_receive
from concierge.inbound_email.tests.conftest import fixture_email, reply_email
from concierge.live import events
from concierge.servicerequests.html import html_to_text
from concierge.servicerequests.models import Message, ServiceRequest
from concierge.servicerequests.reply_address import reply_address

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
PDF = b"%PDF-1.4\n" + b"0" * 64
WEBHOOK = InboundEmail.Path.WEBHOOK


def employee_messages(service_request) -> list[Message]:
    return list(Message.objects.filter(request=service_request, source=Message.Source.USER))


def receive(raw: bytes, **kwargs):
    return inbound_email_receive(raw, path=kwargs.pop("path", WEBHOOK), **kwargs)


@pytest.mark.parametrize("client", ["gmail", "outlook", "apple_mail"])
def test_a_reply_quoted_the_way_mail_clients_quote_lands_in_the_thread_without_the_quote(
    client, user, reply_to, published, django_capture_on_commit_callbacks, outbox
):
    """Issue 28 reply by email: Gmail's, Outlook's and Apple Mail's replies become one message
    from the employee, marked by email, without the quoted email, the 'On … wrote:' line or
    the signature; the concierges' live stream gets message.created."""
    service_request, address = reply_to
    raw = fixture_email(client, to=address, sender="ada@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        result = receive(raw)

    assert (result.outcome, result.reason) == ("accepted", "")
    [message] = employee_messages(service_request)
    assert message.by_email is True
    assert message.author == user
    assert message.body_html == "Tuesday works for me. Could the walker come at 8 am?"
    record = InboundEmail.objects.get()
    assert (record.outcome, record.request, record.user, record.thread_message) == (
        "accepted",
        service_request,
        user,
        message,
    )
    created = [e for e in published.events if e.type == events.MESSAGE_CREATED]
    assert [(e.request_id, e.message_id) for e in created] == [(service_request.pk, message.pk)]
    assert outbox.emails() == []  # no note for an accepted email


def test_an_answer_written_between_the_quoted_questions_keeps_the_questions(user, reply_to):
    """Issue 28 reply by email: a reply answered inline ('> Which day suits you?' / 'Friday
    evening.') keeps the lines it answers, which the answers need; the quote below the last
    answer and the 'On ... wrote:' line still go, and no run of blank lines is left."""
    service_request, address = reply_to
    body = (
        "Hi, see my answers inline.\n\n"
        "> Which day suits you?\n\nFriday evening.\n\n\n"
        "> Any budget?\nAround $80.\n\n"
        "> Thanks, Casey\n> The Concierge team\n"
    )
    result = receive(reply_email(to=address, sender="ada@example.com", body=body))
    assert result.outcome == "accepted"
    [message] = employee_messages(service_request)
    assert html_to_text(message.body_html) == (
        "Hi, see my answers inline.\n\n"
        "> Which day suits you?\n\nFriday evening.\n\n"
        "> Any budget?\nAround $80."
    )


def test_the_sender_address_is_compared_without_case_and_the_thread_shows_by_email(
    user, reply_to, signed_in_api
):
    """Issue 28 reply by email: ADA@EXAMPLE.COM is Ada; the employee's own thread returns the
    message with by_email true."""
    service_request, address = reply_to
    result = receive(reply_email(to=address.upper(), sender="ADA@Example.com"))
    assert result.outcome == "accepted"
    thread = signed_in_api.get(f"requests/{service_request.pk}").json()["request"]["messages"]
    assert [(m["body_html"], m["by_email"]) for m in thread] == [("Tuesday works for me.", True)]


def test_a_reply_to_a_completed_request_reopens_it(user, reply_to):
    """Issue 28 reply by email: answering the completion email reopens the request, as the
    app's 'Reopen and send' does, and the message says it reopened it."""
    service_request, address = reply_to
    ServiceRequest.objects.filter(pk=service_request.pk).update(
        status=ServiceRequest.Status.CLOSED, completed_at=timezone.now()
    )
    assert receive(reply_email(to=address, sender=user.email)).outcome == "accepted"
    service_request.refresh_from_db()
    assert service_request.status == ServiceRequest.Status.OPEN
    [message] = employee_messages(service_request)
    assert message.reopened_request is True


def test_the_first_accepted_attachment_is_added_and_the_employee_told_about_the_rest(
    user, reply_to, outbox, django_capture_on_commit_callbacks
):
    """Issue 28 reply by email: attachments go through the uploads' checks; the first that
    passes is attached (one per message, as in the app); a file of another type and a second
    image are not, and the employee gets a short email naming each with why."""
    service_request, address = reply_to
    raw = reply_email(
        to=address,
        sender=user.email,
        files=[
            ("notes.txt", b"plain text", "text/plain"),
            ("walker.png", PNG, "image/png"),
            ("contract.pdf", PDF, "application/pdf"),
        ],
    )
    with django_capture_on_commit_callbacks(execute=True):
        result = receive(raw)
    assert result.outcome == "accepted"
    assert result.attachments_skipped == ["notes.txt", "contract.pdf"]
    [message] = employee_messages(service_request)
    [upload] = message.attachments.all()
    assert (upload.filename, upload.content_type, upload.size) == ("walker.png", "image/png", 72)
    assert (upload.owner, upload.request_id) == (user, service_request.pk)
    [note] = outbox.emails(to=user.email)
    assert "Some files were not added" in note.subject
    assert "- notes.txt: " in note.body and "- contract.pdf: " in note.body
    assert "walker.png" not in note.body


def test_an_attachment_over_the_upload_limit_is_left_out(user, reply_to, outbox, settings):
    """Issue 28 reply by email: an image larger than uploads take is not added; the text is."""
    settings.UPLOAD_MAX_BYTES = 50
    service_request, address = reply_to
    raw = reply_email(to=address, sender=user.email, files=[("big.png", PNG, "image/png")])
    result = receive(raw)
    assert (result.outcome, result.attachments_skipped) == ("accepted", ["big.png"])
    [message] = employee_messages(service_request)
    assert list(message.attachments.all()) == []


# ------------------------------------------------------------------------------ refusals


def assert_refused(result, service_request, reason, outbox, *, note_to: str | None):
    assert (result.outcome, result.reason) == ("refused", reason)
    assert employee_messages(service_request) == []
    record = InboundEmail.objects.get(pk=result.record.pk)
    assert (record.outcome, record.reason) == ("refused", reason)
    emails = outbox.emails()
    if note_to is None:
        assert emails == []
    else:
        [note] = emails
        assert note.to == note_to
        assert note.subject.startswith("Concierge: Not delivered:")


def test_refused_a_sender_that_is_not_the_employee(user, reply_to, outbox, bob):
    """Issue 28 reply by email: From someone else (Bob) is refused, nothing is written, Bob
    gets the note."""
    service_request, address = reply_to
    result = receive(reply_email(to=address, sender=bob.email))
    assert_refused(result, service_request, "sender_mismatch", outbox, note_to=bob.email)


@pytest.mark.parametrize(
    ("header", "verdicts"),
    [
        ("mx.reply.example.com; spf=fail smtp.mailfrom=example.com; dmarc=fail", {}),
        ("", {"dmarc": "fail"}),
    ],
)
def test_refused_when_dmarc_failed_even_from_the_employees_address(
    user, reply_to, outbox, header, verdicts
):
    """Issue 28 reply by email: the employee's own address is refused when an
    Authentication-Results header or the provider says the sender's domain failed DMARC."""
    service_request, address = reply_to
    headers = {"Authentication-Results": header} if header else {}
    raw = reply_email(to=address, sender=user.email, headers=headers)
    result = receive(raw, provider_verdicts=verdicts)
    assert_refused(result, service_request, "dmarc_failed", outbox, note_to=user.email)


def test_refused_a_tampered_token(user, reply_to, outbox):
    """Issue 28 reply by email: a token whose request id was changed is refused."""
    service_request, address = reply_to
    other = ServiceRequest.objects.create(user=user, name="Another", status="open")
    tampered = address.replace(f"reply+{service_request.pk}.", f"reply+{other.pk}.")
    result = receive(reply_email(to=tampered, sender=user.email))
    assert_refused(result, service_request, "token_invalid", outbox, note_to=user.email)
    assert employee_messages(other) == []


def test_refused_an_expired_token(user, make_request, outbox, settings):
    """Issue 28 reply by email: a reply address older than REPLY_TOKEN_MAX_AGE_DAYS is
    refused."""
    settings.REPLY_TOKEN_MAX_AGE_DAYS = 30
    service_request = make_request(user)
    with freeze_time(timezone.now() - timezone.timedelta(days=31)):
        address = reply_address(request=service_request)
    result = receive(reply_email(to=address, sender=user.email))
    assert_refused(result, service_request, "token_expired", outbox, note_to=user.email)


def test_refused_a_replay_of_the_same_message_id(user, reply_to, outbox):
    """Issue 28 reply by email: the same Message-ID a second time is refused (one message)."""
    service_request, address = reply_to
    raw = reply_email(to=address, sender=user.email, message_id="<same@mail.example.com>")
    assert receive(raw).outcome == "accepted"
    replay = receive(raw)
    assert (replay.outcome, replay.reason) == ("refused", "replay")
    assert len(employee_messages(service_request)) == 1
    assert InboundEmail.objects.filter(email_message_id="<same@mail.example.com>").count() == 2
    [note] = outbox.emails()
    assert "already received" in note.body


def test_refused_an_erased_employee(user, reply_to, outbox):
    """Issue 28 reply by email: after erasure the request's employee is anonymous; their old
    address gets nothing written and no note (the address is no longer theirs here)."""
    from concierge.privacy.services.erasure import person_erase

    service_request, address = reply_to
    person_erase(user=user)
    outbox.all()  # the erasure's own emails, if any
    for item in outbox.written():
        (outbox.path / item.name).unlink()
    result = receive(reply_email(to=address, sender="ada@example.com"))
    assert (result.outcome, result.reason) == ("refused", "erased")
    assert Message.objects.filter(request=service_request, by_email=True).count() == 0
    assert outbox.emails() == []


def test_refused_a_deactivated_employee(user, company, reply_to, outbox):
    """Issue 28 reply by email: an employee with no active company membership left is
    deactivated: refused with a note."""
    service_request, address = reply_to
    user.companies.remove(company)
    EmployeeRecord.objects.filter(user=user).update(active=False)
    result = receive(reply_email(to=address, sender=user.email))
    assert_refused(result, service_request, "deactivated", outbox, note_to=user.email)


def test_refused_an_inactive_account(user, reply_to, outbox):
    """Issue 28 reply by email: a closed account (is_active off) is refused."""
    service_request, address = reply_to
    user.is_active = False
    user.save(update_fields=["is_active"])
    result = receive(reply_email(to=address, sender=user.email))
    assert_refused(result, service_request, "deactivated", outbox, note_to=user.email)


def test_refused_when_the_company_turned_reply_by_email_off(user, company, reply_to, outbox):
    """Issue 28 reply by email: Company.reply_by_email_enabled off refuses the reply."""
    service_request, address = reply_to
    company.reply_by_email_enabled = False
    company.save(update_fields=["reply_by_email_enabled"])
    result = receive(reply_email(to=address, sender=user.email))
    assert_refused(result, service_request, "company_disabled", outbox, note_to=user.email)


def test_refused_an_email_over_the_size_limit(user, reply_to, outbox, settings):
    """Issue 28 reply by email: an email over INBOUND_EMAIL_MAX_BYTES is refused unread."""
    settings.INBOUND_EMAIL_MAX_BYTES = 2048
    service_request, address = reply_to
    raw = reply_email(to=address, sender=user.email, body="x" * 4000)
    result = receive(raw)
    assert_refused(result, service_request, "too_large", outbox, note_to=user.email)
    assert "2 KB" in outbox.emails()[0].body or "larger than we accept" in outbox.emails()[0].body


def test_the_too_large_note_names_the_largest_size_taken(user, reply_to, outbox, settings):
    """Reply by email QA: the note says how large an email may be ('larger than we accept
    (2 KB)'), not an upload form's sentence inside its brackets."""
    _, address = reply_to
    settings.INBOUND_EMAIL_MAX_BYTES = 2048
    raw = reply_email(to=address, sender=user.email, body="x" * 4000)
    assert receive(raw).reason == "too_large"
    [note] = outbox.emails()
    assert "Your email is larger than we accept (2 KB), so it was not added" in note.body


def test_refused_when_the_request_no_longer_exists(user, reply_to, outbox):
    """Issue 28 reply by email: the token names a deleted request: refused, nothing written."""
    service_request, address = reply_to
    ServiceRequest.objects.filter(pk=service_request.pk).delete()
    result = receive(reply_email(to=address, sender=user.email))
    assert (result.outcome, result.reason) == ("refused", "request_missing")
    assert Message.objects.count() == 0
    [note] = outbox.emails()
    assert note.to == user.email


def test_refused_an_email_to_no_reply_address(user, outbox):
    """Issue 28 reply by email: mail that names no reply address of ours is refused."""
    result = receive(reply_email(to="someone@reply.example.com", sender=user.email))
    assert (result.outcome, result.reason) == ("refused", "no_reply_address")
    assert Message.objects.count() == 0


def test_refused_an_email_with_nothing_above_the_quote(user, reply_to, outbox):
    """Issue 28 reply by email: a reply that only quotes is refused (no empty message)."""
    service_request, address = reply_to
    body = "On Fri, Nov 27, 2026 at 9:14 AM Concierge <no-reply@example.com> wrote:\n> Hi\n"
    result = receive(reply_email(to=address, sender=user.email, body=body))
    assert_refused(result, service_request, "empty", outbox, note_to=user.email)


def test_rate_limited_per_employee_with_one_note_per_window(user, reply_to, outbox, settings):
    """Issue 28 reply by email: past the employee's limit emails are refused; the note is sent
    once per window, not for every email."""
    settings.RATE_LIMITS = {"inbound_email": (2, 3600)}
    service_request, address = reply_to
    outcomes = [receive(reply_email(to=address, sender=user.email)) for _ in range(4)]
    assert [(r.outcome, r.reason) for r in outcomes] == [
        ("accepted", ""),
        ("accepted", ""),
        ("refused", "rate_limited"),
        ("refused", "rate_limited"),
    ]
    assert len(employee_messages(service_request)) == 2
    [note] = outbox.emails()
    assert "many emails" in note.body


def test_emails_refused_as_empty_or_too_long_do_not_count_against_the_limit(
    user, reply_to, outbox, settings
):
    """Email QA: only emails taken into a thread count against the employee's limit: an empty
    reply and one too long, refused, leave both places of a limit of 2 to the next emails."""
    settings.RATE_LIMITS = {"inbound_email": (2, 3600)}
    service_request, address = reply_to
    refused = [
        receive(reply_email(to=address, sender=user.email, body="> only the quote\n")),
        receive(reply_email(to=address, sender=user.email, body="x" * 10_001)),
    ]
    taken = [receive(reply_email(to=address, sender=user.email)) for _ in range(3)]
    assert [r.reason for r in refused] == ["empty", "too_long"]
    assert [(r.outcome, r.reason) for r in taken] == [
        ("accepted", ""),
        ("accepted", ""),
        ("refused", "rate_limited"),
    ]
    assert len(employee_messages(service_request)) == 2


def test_the_limit_counts_the_emails_taken_in_the_last_window_not_the_clock_hour(
    user, reply_to, settings
):
    """Email QA: the limit counts the emails taken in the window before each email (one at
    9:30 still counts at 10:10), and one taken longer ago no longer counts."""
    settings.RATE_LIMITS = {"inbound_email": (1, 3600)}
    _, address = reply_to
    with freeze_time("2026-11-27 09:30"):
        assert receive(reply_email(to=address, sender=user.email)).outcome == "accepted"
    with freeze_time("2026-11-27 10:10"):
        assert receive(reply_email(to=address, sender=user.email)).reason == "rate_limited"
    with freeze_time("2026-11-27 10:31"):
        assert receive(reply_email(to=address, sender=user.email)).outcome == "accepted"


# ------------------------------------------------------------------------------ dropped


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"X-Autoreply": "yes"},
        {"X-Autorespond": "yes"},
        {"Precedence": "bulk"},
        {"Precedence": "auto_reply"},
        {"Subject": "Automatic reply: New reply to your request"},
        {"Subject": "Out of Office: back on Monday"},
    ],
)
def test_auto_replies_are_dropped_silently(user, reply_to, outbox, headers):
    """Issue 28 reply by email: auto-replies and out-of-office answers are recorded as dropped,
    nothing is written and no note is sent."""
    service_request, address = reply_to
    subject = headers.pop("Subject", "Re: your request")
    raw = reply_email(to=address, sender=user.email, subject=subject, headers=headers)
    result = receive(raw)
    assert (result.outcome, result.reason) == ("dropped", "auto_reply")
    assert employee_messages(service_request) == []
    assert outbox.emails() == []


def test_auto_submitted_no_is_a_person_writing(user, reply_to):
    """Issue 28 reply by email: Auto-Submitted: no is not an auto-reply."""
    _, address = reply_to
    raw = reply_email(to=address, sender=user.email, headers={"Auto-Submitted": "no"})
    assert receive(raw).outcome == "accepted"


@pytest.mark.parametrize(
    ("sender", "envelope_sender"),
    [("MAILER-DAEMON@mail.example.com", None), ("ada@example.com", ""), ("ada@example.com", "<>")],
)
def test_bounces_are_never_answered(user, reply_to, outbox, sender, envelope_sender):
    """Issue 28 reply by email: a delivery report (empty envelope sender, a mailer daemon) is
    dropped without a note: no mail loops."""
    service_request, address = reply_to
    raw = reply_email(to=address, sender=sender)
    result = receive(raw, envelope_sender=envelope_sender)
    assert (result.outcome, result.reason) == ("dropped", "bounce")
    assert employee_messages(service_request) == []
    assert outbox.emails() == []


def test_a_refusal_inside_a_transaction_sends_its_note_only_after_the_commit(
    user, reply_to, bob, django_capture_on_commit_callbacks, outbox
):
    """Issue 28 reply by email: the note leaves the process after the commit, never inside it."""
    service_request, address = reply_to
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        receive(reply_email(to=address, sender=bob.email))
    assert outbox.written() == []
    assert len(callbacks) == 1


def test_garbage_bytes_are_recorded_never_raised(user, reply_to):
    """Issue 28 reply by email: a message that is not an email is recorded (refused or
    dropped), never an exception."""
    for raw in (
        b"",
        b"\x00\xff\xfe garbage",
        b"From: \r\n\r\n",
        b"Subject: =?x?q?\xff?=\r\n\r\nhi",
    ):
        result = receive(raw)
        assert result.outcome in ("refused", "dropped")
    assert Message.objects.count() == 0


@pytest.mark.parametrize(
    "header",
    ["Message-ID: <a\x00b@mail.example.com>", "From: ada\x00@example.com"],
)
def test_a_nul_in_a_header_is_recorded_never_raised(user, reply_to, header):
    """Reply by email QA: a NUL in a header PostgreSQL stores (Message-ID, From) is recorded
    like any email, never a database error (a webhook 500 or an SMTP 451 the sending server
    would retry for days)."""
    service_request, address = reply_to
    headers = {"From": "ada@example.com", "Subject": "hi", "Message-ID": "<m@mail.example.com>"}
    name, value = header.split(": ", 1)
    headers[name] = value
    raw = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    raw += f"To: {address}\r\n\r\nTuesday works for me.\r\n"
    result = receive(raw.encode())
    assert result.record is not None
    assert "\x00" not in result.record.email_message_id + result.record.sender
    assert InboundEmail.objects.count() == 1


def test_the_note_is_sent_when_the_subject_and_message_id_decode_to_several_lines(
    user, reply_to, outbox
):
    """Reply by email QA: an encoded subject or Message-ID that decodes to a line break still
    gets its note (a header we send may not hold one: the note's task failed every attempt)."""
    _, address = reply_to
    broken = "=?utf-8?q?Re:_the_walker=0A_for_Friday?="
    raw = (
        f"From: ada@example.com\r\nTo: {address}\r\nSubject: {broken}\r\n"
        f"Message-ID: {broken}\r\n\r\n\r\n"
    ).encode()
    assert receive(raw).reason == "empty"
    [note] = outbox.emails()
    assert note.subject == "Concierge: Not delivered: Re: the walker for Friday"


@pytest.mark.parametrize(
    "disposition", ["attachment; filename*", "attachment; filename*=utf\x00-8''walker.png"]
)
def test_an_attachment_with_a_broken_content_disposition_never_loses_the_reply(
    user, reply_to, disposition
):
    """Reply by email QA: an attachment header Python's email package cannot read (a lone
    `filename*`, a NUL in its charset) does not fail the whole email (a webhook 500, an SMTP
    451): the reply's text is taken into the thread."""
    service_request, address = reply_to
    raw = (
        f"From: ada@example.com\r\nTo: {address}\r\nSubject: Re: walker\r\n"
        "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=XX\r\n\r\n"
        "--XX\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHere is the photo.\r\n"
        f"--XX\r\nContent-Type: image/png\r\nContent-Disposition: {disposition}\r\n"
        "Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--XX--\r\n"
    )
    result = receive(raw.encode())
    assert result.outcome == "accepted"
    [message] = employee_messages(service_request)
    assert html_to_text(message.body_html) == "Here is the photo."


def test_a_blank_plain_text_part_beside_the_html_takes_the_html(user, reply_to):
    """Reply by email QA: a mail app that sends an empty text/plain alternative beside the
    HTML it wrote in has its reply taken from the HTML, not refused as empty."""
    service_request, address = reply_to
    raw = (
        f"From: ada@example.com\r\nTo: {address}\r\nSubject: Re: walker\r\n"
        "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=XX\r\n\r\n"
        "--XX\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n \r\n"
        "--XX\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        "<div>Friday at 8 works.</div><blockquote>Would Friday suit you?</blockquote>\r\n"
        "--XX--\r\n"
    )
    assert receive(raw.encode()).outcome == "accepted"
    [message] = employee_messages(service_request)
    assert html_to_text(message.body_html) == "Friday at 8 works."


def test_html_with_a_tag_left_open_too_long_is_read_never_raised(user, reply_to):
    """Reply by email QA: HTML that Django's strip_tags refuses (SuspiciousOperation: a tag
    left open past 1,000 characters holding many '<') is still read as text, not a webhook
    500 or an SMTP 451 the sending server retries."""
    service_request, address = reply_to
    html = "<p>Friday works.</p><span " + "<i " * 60 + "x" * 1000
    raw = (
        f"From: ada@example.com\r\nTo: {address}\r\nSubject: Re: walker\r\n"
        "MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        f"{html}\r\n"
    )
    assert receive(raw.encode()).outcome == "accepted"
    [message] = employee_messages(service_request)
    assert html_to_text(message.body_html) == "Friday works."


@pytest.mark.parametrize(
    "sender", ["=?utf-8?q?ada=40example.com?=", "=?utf-8?b?YWRhQGV4YW1wbGUuY29t?="]
)
def test_an_encoded_word_spelling_the_employees_address_is_not_their_address(
    user, reply_to, sender
):
    """Reply by email QA: a From holding only an encoded word that decodes to the employee's
    address names no mailbox (no domain for DMARC to check), so it does not pass the sender
    check: nothing is written to the thread."""
    service_request, address = reply_to
    raw = (
        f"From: {sender}\r\nTo: {address}\r\nSubject: Re: walker\r\n"
        "Message-ID: <forged@mail.example.com>\r\n\r\nCancel everything.\r\n"
    )
    assert receive(raw.encode()).outcome != "accepted"
    assert employee_messages(service_request) == []


def test_erasure_removes_the_records_of_the_persons_emails(user, reply_to, bob):
    """Issue 28 reply by email: erasing Ada deletes her records, the accepted and the refused
    ones sent from her address; Bob's stay."""
    from concierge.privacy.exporting import personal_data
    from concierge.privacy.services.erasure import person_erase

    service_request, address = reply_to
    receive(reply_email(to=address, sender=user.email))
    receive(reply_email(to="nobody@reply.example.com", sender="Ada@example.com"))
    receive(reply_email(to=address, sender=bob.email))
    exported = personal_data(user=user)["emails_received"]
    assert [(e["outcome"], e["request_id"]) for e in exported] == [("accepted", service_request.pk)]
    counts = person_erase(user=user)
    assert counts["inbound_emails"] == 2
    assert list(InboundEmail.objects.values_list("sender", flat=True)) == [bob.email]


def test_a_stranger_learns_nothing_about_the_employees_account(
    user, company, reply_to, outbox, bob
):
    """Issue 28 reply by email: with the employee deactivated, another sender still gets only
    the 'not from the right address' note, never the account's state."""
    service_request, address = reply_to
    user.is_active = False
    user.save(update_fields=["is_active"])
    result = receive(reply_email(to=address, sender=bob.email))
    assert_refused(result, service_request, "sender_mismatch", outbox, note_to=bob.email)
    assert "can no longer" not in outbox.emails()[0].body
