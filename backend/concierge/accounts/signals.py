"""Signals accounts sends to the layers above it, which it may not import.

`sessions_revoked`: sent once the transaction that signed sessions out has committed, with
`user_id`. The live events connect to it and end that user's open event streams at once
(a stream otherwise re-checks its session only about once a minute)."""

from __future__ import annotations

from django.dispatch import Signal

sessions_revoked = Signal()
