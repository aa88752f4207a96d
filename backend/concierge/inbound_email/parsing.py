"""Reading an inbound email: its addresses, whether it is an automatic one, the reply's own text
without the quoted history and signature, and its attachments."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser, BytesParser
from email.utils import getaddresses
from html import unescape

import nh3
from django.core.exceptions import SuspiciousOperation
from mailparser_reply import EmailReplyParser

from concierge.servicerequests.html import html_to_text

# The quote headers of these languages are recognised ("On … wrote:", "Am … schrieb:", ...).
REPLY_LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "da", "pl", "cs"]
AUTO_REPLY_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response)|out of (the )?office|autoreply|abwesenheit|"
    r"absence|r[ée]ponse automatique)\b",
    re.IGNORECASE,
)
BOUNCE_LOCAL_PARTS = {"mailer-daemon", "postmaster", "bounce", "bounces", "no-reply", "noreply"}
_BLOCK_TAGS = re.compile(r"</(p|div|li|tr|h[1-6]|blockquote)\s*>|<br\s*/?>", re.IGNORECASE)
_INVISIBLE = re.compile(r"<(style|script|head|title)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
# Gmail and Apple Mail put the quoted history of an HTML reply in a blockquote (Gmail's in a
# div of class gmail_quote); Outlook after a div with id divRplyFwdMsg or an <hr>.
_HTML_QUOTE = re.compile(
    r"<div[^>]*class=\"?gmail_quote.*|<blockquote\b.*|<div[^>]*id=\"?divRplyFwdMsg.*|<hr\b.*",
    re.IGNORECASE | re.DOTALL,
)


def message_parse(raw: bytes) -> EmailMessage:
    """The whole message (Python's email package, policy.default)."""
    return BytesParser(policy=policy.default).parsebytes(raw)  # type: ignore[return-value]


def headers_parse(raw: bytes) -> EmailMessage:
    """Only the headers (for a message too large to read whole)."""
    return BytesHeaderParser(policy=policy.default).parsebytes(raw)  # type: ignore[return-value]


def _one_line(value: str) -> str:
    """A decoded header value as one line without NUL: an encoded word may hide a line break,
    which no header we send may hold, or a NUL, which PostgreSQL cannot store."""
    return " ".join(value.replace("\x00", "").split())


def header_text(message: EmailMessage, name: str) -> str:
    """A header's value as one line of text ('' when absent or unreadable)."""
    try:
        value = message.get(name)
    except Exception:  # a malformed header policy.default cannot parse
        return ""
    return "" if value is None else _one_line(str(value))


def header_addresses(message: EmailMessage, *names: str) -> list[str]:
    """Every address in the named headers, in order."""
    values: list[str] = []
    for name in names:
        try:
            values.extend(str(v) for v in message.get_all(name, []))
        except Exception:  # noqa: S112 (a header policy.default cannot parse: skipped)
            continue
    return [address for _, address in getaddresses(values) if "@" in address]


def from_address(message: EmailMessage) -> str:
    """The From header's one mailbox ('' when there is none, more than one, or a name without
    an address: an encoded word may spell `ada@example.com` where no address is)."""
    try:
        mailboxes = [a for header in message.get_all("From", []) for a in header.addresses]
    except Exception:  # a From header policy.default cannot parse
        return ""
    if len(mailboxes) != 1 or not mailboxes[0].username or not mailboxes[0].domain:
        return ""
    # Raw 8-bit bytes in the header are kept as surrogates: back to text.
    addr_spec = mailboxes[0].addr_spec.encode("utf-8", "surrogateescape")
    return _one_line(addr_spec.decode("utf-8", "replace"))


def is_bounce(message: EmailMessage, *, sender: str, envelope_sender: str | None) -> bool:
    """A delivery report or a message from a mail system: never answered (no mail loops)."""
    if envelope_sender is not None and envelope_sender.strip() in ("", "<>"):
        return True
    if not sender:
        return True
    if sender.split("@", 1)[0].lower() in BOUNCE_LOCAL_PARTS:
        return True
    content_type = header_text(message, "Content-Type").lower()
    return content_type.startswith("multipart/report")


def is_auto_reply(message: EmailMessage) -> bool:
    """An automatic email (RFC 3834 Auto-Submitted, the X-Autoreply headers, bulk Precedence,
    an out-of-office subject): dropped without an answer."""
    auto_submitted = header_text(message, "Auto-Submitted").lower()
    if auto_submitted and auto_submitted != "no":
        return True
    if header_text(message, "X-Autoreply") or header_text(message, "X-Autorespond"):
        return True
    if header_text(message, "X-Auto-Response-Suppress").lower() in ("all", "oof"):
        return True
    precedence = header_text(message, "Precedence").lower()
    if precedence in ("auto_reply", "bulk", "junk", "list"):
        return True
    return bool(AUTO_REPLY_SUBJECT.match(header_text(message, "Subject")))


def dmarc_failed(message: EmailMessage, provider_verdicts: Mapping[str, str]) -> bool:
    """Whether the provider, or an Authentication-Results header, says the sender's domain
    failed DMARC. (A forged header can only make its own email refused.)"""
    if str(provider_verdicts.get("dmarc", "")).lower() == "fail":
        return True
    try:
        results = [str(v).lower() for v in message.get_all("Authentication-Results", [])]
    except Exception:
        return False
    return any(re.search(r"\bdmarc\s*=\s*fail\b", value) for value in results)


def html_as_text(html: str) -> str:
    """An email's HTML as plain text: the quoted history cut, blocks as lines, no markup."""
    html = _HTML_QUOTE.sub("", _INVISIBLE.sub("", html))
    html = _BLOCK_TAGS.sub("\n", html).replace("\r", "")
    try:
        return html_to_text(html)
    except SuspiciousOperation:  # markup Django's strip_tags refuses (a tag left open too long)
        return unescape(nh3.clean(html, tags=set())).strip()


def _part_text(part: EmailMessage) -> str:
    try:
        content = part.get_content()
    except Exception:  # an unknown charset or a broken transfer encoding
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    return content if isinstance(content, str) else ""


def _body(message: EmailMessage, subtype: str) -> EmailMessage | None:
    """The message's text/<subtype> body part; when a part's Content-Disposition cannot be
    read (which `get_body` needs for every part), the first text/<subtype> part."""
    try:
        return message.get_body(preferencelist=(subtype,))  # type: ignore[return-value]
    except Exception:
        parts = (p for p in message.walk() if p.get_content_type() == f"text/{subtype}")
        return next(parts, None)


_BLANK_RUNS = re.compile(r"\n(?:[ \t]*\n){2,}")


def reply_text(message: EmailMessage) -> str:
    """The reply's own words: the text/plain part (else, or when it is blank, the HTML as
    text) without the quoted history, the "On … wrote:" line and the signature."""
    plain, html = _body(message, "plain"), _body(message, "html")
    text = _part_text(plain) if plain is not None else ""
    if not text.strip() and html is not None:
        text = html_as_text(_part_text(html))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    reply = EmailReplyParser(languages=REPLY_LANGUAGES).read(text)
    if not reply.replies:
        return _unquoted(text)
    newest = reply.replies[0]
    if newest.headers:  # the email starts with the quote's "On … wrote:": nothing new above it
        return ""
    return _unquoted(newest.body)


def _unquoted(text: str) -> str:
    """Without the lines quoted with '>' the parser left after the person's last own line (a
    quote without its header); a quote answered line by line keeps the lines answered, which
    the answers need ('> Which day?' / 'Friday.'). Runs of blank lines become one."""
    lines = text.splitlines()
    own = [i for i, line in enumerate(lines) if line.strip() and not line.startswith(">")]
    last_own = own[-1] if own else -1
    kept = [line for i, line in enumerate(lines) if i < last_own or not line.startswith(">")]
    return _BLANK_RUNS.sub("\n\n", "\n".join(kept)).strip()


@dataclass(frozen=True)
class Attachment:
    filename: str
    content: bytes


def attachments(message: EmailMessage) -> Iterator[Attachment]:
    """The files attached, in order; pictures placed in the text (an inline part with a
    Content-ID: a signature's logo) are not attachments."""
    try:
        parts = list(message.iter_attachments())
    except Exception:  # a text part's Content-Disposition policy.default cannot parse
        return
    for part in parts:
        try:
            disposition = (part.get_content_disposition() or "").lower()
            filename = part.get_filename() or "attachment"
        except Exception:  # a Content-Disposition policy.default cannot parse
            disposition, filename = "attachment", "attachment"
        if disposition == "inline" and part.get("Content-ID"):
            continue
        if part.get_content_maintype() == "multipart":
            continue
        try:
            content = part.get_payload(decode=True)
        except Exception:
            content = None
        yield Attachment(filename=filename, content=content if isinstance(content, bytes) else b"")
