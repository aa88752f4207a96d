"""Taking a person out of text others wrote (issue 27: erasure): their names, addresses and
phone numbers, wherever each stands whole."""

from __future__ import annotations

import re
from collections.abc import Sequence

REDACTED = "[erased]"

# A term stands whole when no letter or digit goes on before or after it, nor an address's
# joiners followed by one ("ada" is not redacted inside "ada.home@example.net" or "Adam").
_BEFORE = r"(?<![\w.@+-])"
_AFTER = r"(?!\w|[.@+-]\w)"


def redact(text: str, terms: Sequence[str]) -> str:
    """`text` with every term (longest first, as given) replaced where it stands whole,
    whatever its case."""
    for term in terms:
        text = re.sub(f"{_BEFORE}{re.escape(term)}{_AFTER}", REDACTED, text, flags=re.IGNORECASE)
    return text
