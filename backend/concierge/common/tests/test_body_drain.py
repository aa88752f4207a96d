"""Issue 24, an early answer never breaks a connection: an answer given before the request's
body was read leaves nothing of that body on the WSGI server's connection (the rest is read),
or, when the rest is too large or of unknown length, closes the connection."""

from __future__ import annotations

import io

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SEND = "/api/v1/requests/1/messages"
MEGABYTE = 1024 * 1024


def _body(size: int) -> bytes:
    return b'{"message": {"body": "' + b"x" * size + b'"}}'


def test_a_refused_body_is_read_to_its_end_before_the_answer() -> None:
    """Issue 24: a signed-out 1 MB send answers 401 with its body read to the end, and the
    connection is kept"""
    body = _body(MEGABYTE)
    stream, sent = io.BytesIO(body), len(body)

    response = Client().post(SEND, body, content_type="application/json", **{"wsgi.input": stream})

    assert response.status_code == 401
    assert stream.tell() == sent
    assert "Connection" not in response


def test_a_refused_chunked_body_is_read_to_its_end_before_the_answer() -> None:
    """Issue 24: a body without a Content-Length (chunked; Django reads none of it) is read to
    its end when the server marks where it ends (`wsgi.input_terminated`)"""
    body = _body(MEGABYTE)
    stream, sent = io.BytesIO(body), len(body)
    chunked = {
        "wsgi.input": stream,
        "wsgi.input_terminated": True,
        "HTTP_TRANSFER_ENCODING": "chunked",
    }

    response = Client().post(SEND, content_type="application/json", **chunked)

    assert response.status_code == 401
    assert stream.tell() == sent
    assert "Connection" not in response


def test_a_body_larger_than_the_product_takes_closes_the_connection(settings) -> None:
    """Issue 24: past the largest body the product takes (UPLOAD_MAX_BYTES) nothing more is
    read: the answer closes the connection"""
    settings.UPLOAD_MAX_BYTES = 1000
    body = _body(2000)
    stream = io.BytesIO(body)

    response = Client().post(SEND, body, content_type="application/json", **{"wsgi.input": stream})

    assert response.status_code == 401
    assert response["Connection"] == "close"
    assert stream.tell() == 0


@pytest.mark.parametrize("terminated", [True, False], ids=["too-long", "end-unknown"])
def test_a_chunked_body_too_long_or_without_an_end_closes_the_connection(
    settings, terminated
) -> None:
    """Issue 24: a chunked body longer than UPLOAD_MAX_BYTES, or one whose end the server
    does not mark, closes the connection"""
    settings.UPLOAD_MAX_BYTES = 1000
    chunked = {
        "wsgi.input": io.BytesIO(_body(2000 * 1024)),
        "wsgi.input_terminated": terminated,
        "HTTP_TRANSFER_ENCODING": "chunked",
    }

    response = Client().post(SEND, content_type="application/json", **chunked)

    assert response.status_code == 401
    assert response["Connection"] == "close"


def test_an_accepted_send_keeps_the_connection(signed_in_api, user, make_request) -> None:
    """Issue 24: a body the view read itself needs nothing more: 201, connection kept"""
    service_request = make_request(user)

    response = signed_in_api.post(
        f"requests/{service_request.pk}/messages", {"message": {"body": "Hello"}}
    )

    assert response.status_code == 201
    assert "Connection" not in response
