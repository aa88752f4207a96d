"""Issue 24, an early answer never breaks a connection: requests through nginx with
`config/nginx.conf` as shipped, in front of granian and uvicorn (the production layout of
e2e/conftest.py). nginx keeps a pool of keep-alive connections to granian; an answer given
before a request's body has been read must leave that connection fit for the next client. And
in front of several nodes, a node that comes back gets requests again at once."""

from __future__ import annotations

import json
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bench.layouts import HOST, Layout, LayoutSpec, free_port
from concierge.accounts.services.tokens import auth_token_create
from concierge.servicerequests.models import Message
from concierge.servicerequests.services import request_create
from e2e.conftest import _nginx, _redis_url, _server_env

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 30
MEGABYTE = 1024 * 1024
OVER_THE_LIMIT = 26 * MEGABYTE  # the product takes bodies of up to 25 MB (spec §9)
TOO_LARGE = {"success": False, "error": "The request is too large."}
FILE_TOO_LARGE = {
    "success": False,
    "error": "File size exceeds 25 MB, please upload a smaller file.",
}


@pytest.fixture
def client(production_servers) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=production_servers, timeout=60) as client:
        yield client


@pytest.fixture
def signed_in(acme, make_employee) -> tuple[dict[str, str], int]:
    """An employee's Authorization header and one of their requests."""
    user = make_employee(company=acme)
    token, _ = auth_token_create(user)
    service_request = request_create(user=user, name="Passport renewal")
    return {"Authorization": f"Bearer {token}"}, service_request.pk


def _message(text: str) -> dict:
    return {"message": {"body": text}}


def _chunked(size: int) -> Iterator[bytes]:
    """A body of `size` bytes sent without a Content-Length (Transfer-Encoding: chunked)."""
    chunk = b"x" * (256 * 1024)
    for _ in range(size // len(chunk)):
        yield chunk


def test_signed_out_large_bodies_never_break_the_next_send(client, signed_in) -> None:
    """Issue 24: a signed-out 1 MB send answered 401 before its body was read, then a signed-in
    send through the same pooled nginx → granian connections: 401 then 201, every round, and
    every signed-in message stored"""
    headers, request_id = signed_in
    path = f"/api/v1/requests/{request_id}/messages"
    refused_body = json.dumps(_message("x" * MEGABYTE)).encode()
    json_type = {"Content-Type": "application/json"}

    answers = []
    for number in range(ROUNDS):
        refused = client.post(path, content=refused_body, headers=json_type)
        sent = client.post(path, json=_message(f"Round {number}"), headers=headers)
        answers.append((refused.status_code, sent.status_code))

    assert answers == [(401, 201)] * ROUNDS
    assert refused.json()["success"] is False
    stored = Message.objects.filter(request_id=request_id, body_html__contains="Round ")
    assert stored.count() == ROUNDS


def test_a_chunked_body_over_25_mb_answers_413_json(client, signed_in) -> None:
    """Issue 24: a signed-in send whose body grows past 25 MB without a Content-Length answers
    413 with the product's JSON error (not 502), and the next send goes through"""
    headers, request_id = signed_in
    path = f"/api/v1/requests/{request_id}/messages"
    json_type = {**headers, "Content-Type": "application/json"}

    response = client.post(path, content=_chunked(OVER_THE_LIMIT), headers=json_type)

    assert (response.status_code, response.json()) == (413, TOO_LARGE)
    assert response.headers["content-type"].startswith("application/json")
    assert client.post(path, json=_message("Still here"), headers=headers).status_code == 201


def test_a_chunked_upload_over_25_mb_answers_413_json(client, signed_in) -> None:
    """Issue 24: the upload PUT (streamed to the app, not buffered) of a file growing past
    25 MB without a Content-Length answers 413 with the spec's JSON error (not 502)"""
    headers, request_id = signed_in
    presigned = client.post(
        "/api/v1/uploads/presigned_url",
        json={"upload": {"filename": "scan.pdf", "request_id": request_id}},
        headers=headers,
    )
    assert presigned.status_code == 200, presigned.text

    response = client.put(
        presigned.json()["presigned_url"],
        content=_chunked(OVER_THE_LIMIT),
        headers={"Content-Type": "application/pdf"},
    )

    assert (response.status_code, response.json()) == (413, FILE_TOO_LARGE)
    path = f"/api/v1/requests/{request_id}/messages"
    assert client.post(path, json=_message("Still here"), headers=headers).status_code == 201


# --------------------------------------------------------------------------- two nodes

NODE = LayoutSpec("proxy-node", "granian (API)", "granian", 1, 2)


def _wait_listening(port: int, nginx) -> None:
    """Waits until nginx accepts connections, without sending it a request (a request would
    count against the nodes it tries)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert nginx.poll() is None, f"nginx exited ({nginx.returncode})"
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("nginx did not listen in time")


@pytest.fixture
def dead_and_restarting(
    django_db_setup, server_outbox, static_root
) -> Iterator[tuple[str, Layout]]:
    """nginx with config/nginx.conf in front of two API nodes: one dead for good, the other
    down until the test enters it (a Layout); its URL and that node."""
    listen = free_port()
    url = f"http://{HOST}:{listen}"
    node = Layout(NODE, _server_env(url, server_outbox, _redis_url(), static_root))
    dead = f"{HOST}:{free_port()}"
    with tempfile.TemporaryDirectory() as folder:
        nginx = _nginx(listen, [dead, node.api_url], [dead], Path(folder))
        try:
            _wait_listening(listen, nginx)
            yield url, node
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)


def test_a_node_back_from_a_restart_gets_the_very_next_requests(
    dead_and_restarting, signed_in
) -> None:
    """Issue 24: one node dead, the other restarting: while neither is up nginx answers 502;
    once the restarted node is back, the very next requests reach it (a refused connection or
    two never takes a node out for seconds), sends included"""
    url, node = dead_and_restarting
    headers, request_id = signed_in
    path = f"/api/v1/requests/{request_id}/messages"
    with httpx.Client(base_url=url, timeout=30) as client:
        assert client.get("/api/v1/health").status_code == 502  # no node up

        with node:  # back: it answers its own health check
            answers = [client.get("/api/v1/health").status_code]
            answers += [
                client.post(path, json=_message(f"Back {n}"), headers=headers).status_code
                for n in range(5)
            ]

    assert answers == [200] + [201] * 5
