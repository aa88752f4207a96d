"""Plain-text message bodies turned into safe HTML: escaped, links clickable, line breaks kept."""

from __future__ import annotations

import re
from html import escape, unescape

import nh3
from django.utils.html import strip_tags

_URL_RE = re.compile(r"(?i)\b((?:https?://|www\.)[^\s<>\"']+)")
_TRAILING = ".,;:!?)]}*"
ALLOWED_TAGS = {"a", "br"}


def _trim_url(url: str) -> str:
    """Drop trailing punctuation that ends a sentence, keeping a ')' that closes a '(' in it."""
    while url and url[-1] in _TRAILING:
        if url[-1] == ")" and url.count("(") >= url.count(")"):
            break
        url = url[:-1]
    return url


def text_to_html(text: str) -> str:
    """HTML for a message typed as plain text.

    Everything the person typed is escaped (a typed `<script>` shows as text, never runs),
    http(s) and www. addresses become links opening in a new tab, and newlines become `<br>`.
    The result then goes through nh3 allowing only `<a href>` and `<br>` as a second guard.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    parts: list[str] = []
    position = 0
    for match in _URL_RE.finditer(text):
        url = _trim_url(match.group(1))
        if not url or url.lower() in ("http://", "https://", "www."):
            continue
        start = match.start(1)
        parts.append(escape(text[position:start], quote=False))
        href = url if url.lower().startswith(("http://", "https://")) else f"https://{url}"
        parts.append(f'<a href="{escape(href)}">{escape(url, quote=False)}</a>')
        position = start + len(url)
    parts.append(escape(text[position:], quote=False))
    html = "".join(parts).replace("\n", "<br>\n")
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        set_tag_attribute_values={"a": {"target": "_blank"}},
    )


def html_to_text(html: str) -> str:
    """A message body as plain text: tags dropped, entities decoded, `<br>` back to newlines."""
    return unescape(strip_tags(html.replace("<br>\n", "\n").replace("<br>", "\n"))).strip()
