"""What a signed-in device is called on the Account page ("Chrome on Windows"), from the
browser's User-Agent at sign-in (ua-parser's regexes)."""

from __future__ import annotations

from ua_parser import parse

DEVICE_MAX = 100
UNKNOWN_DEVICE = "Unknown device"
# Where ua-parser's family names are not what people call them.
_OS_NAMES = {"Mac OS X": "macOS", "Chrome OS": "ChromeOS"}
_NAMED_DEVICES = ("iPhone", "iPad")


def device_label(user_agent: str) -> str:
    """'Browser on system' ('Mobile Safari on iPhone', 'Firefox on Linux'), either alone when
    the other is unknown, else 'Unknown device'."""
    if not user_agent:
        return UNKNOWN_DEVICE
    parsed = parse(user_agent[:1000])
    browser = _known(parsed.user_agent.family if parsed.user_agent else "")
    system = _known(parsed.os.family if parsed.os else "")
    device = parsed.device.family if parsed.device else ""
    if device in _NAMED_DEVICES:
        system = device
    system = _OS_NAMES.get(system, system)
    label = " on ".join(part for part in (browser, system) if part) or UNKNOWN_DEVICE
    return label[:DEVICE_MAX]


def _known(family: str) -> str:
    return "" if family in ("", "Other") else family
