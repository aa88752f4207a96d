"""Opaque random tokens: 256 random bits handed out once, only their SHA-256 is stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def token_new() -> tuple[str, str]:
    raw = secrets.token_urlsafe(32)
    return raw, token_hash(raw)


def digits_new(length: int) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(length))


def hashes_equal(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())
