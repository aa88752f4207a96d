"""Issue 8 (fast on a phone): the API's JSON travels gzip-compressed to a browser that accepts
it; the live stream stays plain so every event leaves at once."""

from __future__ import annotations

import gzip
import json

import pytest
from asgiref.sync import async_to_sync

from concierge.live.tests.test_sse import open_stream

pytestmark = pytest.mark.django_db


def test_issue_8_api_json_is_gzip_compressed_when_accepted(signed_in_api):
    """Issue 8: users/current answers gzip to 'Accept-Encoding: gzip', the same JSON inside"""
    plain = signed_in_api.get("users/current")
    packed = signed_in_api.get("users/current", headers={"Accept-Encoding": "gzip, br"})
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert json.loads(gzip.decompress(packed.content)) == plain.json()


def test_issue_8_the_live_stream_is_never_compressed(signed_in_api):
    """Issue 8: the event stream is sent plain even to a browser that accepts gzip"""

    async def scenario():
        stream = await open_stream(
            headers={"Authorization": f"Bearer {signed_in_api.token}", "Accept-Encoding": "gzip"}
        )
        await stream.close()

    async_to_sync(scenario)()  # open_stream reads the stream's first lines as plain text
