"""Issue 25 observability, on the production servers: granian (the API, two worker
processes) and uvicorn (the events), sharing one PROMETHEUS_MULTIPROC_DIR as a node's
processes do. /metrics answered by either adds up every process of the node; each server
writes JSON lines with the request's id and user, and the stream tickets in the events
server's access log are gone."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bench.layouts import BACKEND_DIR, HOST, free_port
from concierge.accounts.services.identity import user_sign_in
from concierge.live.tests.servers import server_environment
from conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "node-scrape-token-0123456789"
SERVER_LOG_CONFIG = str(BACKEND_DIR / "config" / "server_logging.json")


class Server:
    def __init__(self, name: str, command: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.log = log
        self.process = subprocess.Popen(  # noqa: S603 (our interpreter, our arguments)
            command,
            cwd=BACKEND_DIR,
            env=env,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_healthy(self, url: str, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} exited:\n{self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"{self.name} did not start:\n{self.log.read_text()[-3000:]}")

    def kill(self, sig: int = signal.SIGTERM) -> None:
        try:
            os.killpg(self.process.pid, sig)
        except ProcessLookupError:
            return
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def lines(self) -> list[dict]:
        """The JSON lines the server wrote (any other line fails the test)."""
        out = []
        for raw in self.log.read_text().splitlines():
            if raw.strip():
                try:
                    out.append(json.loads(raw))
                except ValueError as exc:
                    raise AssertionError(
                        f"{self.name} wrote a line that is not JSON: {raw}"
                    ) from exc
        return out


@contextmanager
def node(tmp_path: Path) -> Iterator[tuple[str, str, Server, Server, Path]]:
    """The API server (granian, 2 workers) and the events server (uvicorn, access log on),
    on the test database, sharing one multiprocess directory."""
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {
        **os.environ,
        **server_environment(
            PROMETHEUS_MULTIPROC_DIR=str(metrics_dir),
            METRICS_TOKEN=TOKEN,
            LOG_FORMAT="json",
            LOG_LEVEL="INFO",
            # The production layout: the API server requires Redis (config/wsgi.py).
            REDIS_URL=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
            EVENTS_CHANNEL=f"observability-test-{os.getpid()}:events",
        ),
    }
    api_port, events_port = free_port(), free_port()
    api_command = [
        sys.executable, "-m", "granian", "--interface", "wsgi", "config.wsgi:application",
        "--host", HOST, "--port", str(api_port), "--workers", "2", "--blocking-threads", "2",
        "--no-access-log", "--log-config", SERVER_LOG_CONFIG,
    ]  # fmt: skip
    # The access log left on, as a server started without --no-access-log would write it.
    events_command = [
        sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", HOST,
        "--port", str(events_port), "--no-proxy-headers", "--log-config", SERVER_LOG_CONFIG,
        "--timeout-graceful-shutdown", "3",
    ]  # fmt: skip
    api = Server("granian", api_command, env, tmp_path / "api.log")
    events = Server("uvicorn", events_command, env, tmp_path / "events.log")
    try:
        api_url, events_url = f"http://{HOST}:{api_port}", f"http://{HOST}:{events_port}"
        api.wait_healthy(api_url)
        events.wait_healthy(events_url)
        yield api_url, events_url, api, events, metrics_dir
    finally:
        events.kill()
        api.kill()


def scrape(url: str) -> dict[tuple[str, frozenset], float]:
    response = httpx.get(f"{url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def wait_for(condition, timeout: float = 15) -> None:  # noqa: ANN001 (a predicate)
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.1)


def open_stream(client: httpx.Client, events_url: str, ticket_url: str, request_id: str):
    request = client.build_request(
        "GET", f"{events_url}{ticket_url}", headers={"X-Request-ID": request_id}
    )
    response = client.send(request, stream=True)
    assert response.status_code == 200
    assert response.headers["X-Request-ID"] == request_id
    # The reader is kept with the response: dropping it would close the connection.
    response.lines = response.iter_lines()  # type: ignore[attr-defined]
    for line in response.lines:  # type: ignore[attr-defined]
        if line == ": connected":
            return response
    raise AssertionError("the stream ended before it was connected")


def test_issue_25_observability_one_node_reports_every_process_and_logs_json(tmp_path, user):
    """Issue 25 observability: requests answered by granian's two workers add up in one
    count; the open stream of the events server (another process) shows in the API server's
    scrape and stops counting when it closes, and when its process is killed; every server
    line is JSON, the stream's lines carry its request id and user id, and no ticket is
    logged."""
    token = user_sign_in(email=user.email, password=DEFAULT_PASSWORD).token
    with node(tmp_path) as (api_url, events_url, api, events, metrics_dir):
        unmatched = {"method": "GET", "route": "<unmatched>", "status": "404"}
        for _ in range(24):  # a new connection each: the kernel spreads them over the workers
            response = httpx.get(f"{api_url}/api/v1/no-such-page")
            assert response.status_code == 404
        samples = scrape(api_url)
        assert value(samples, "concierge_http_requests_total", **unmatched) == 24
        assert value(samples, "concierge_event_streams_open") == 0
        pids = {int(file.stem.rsplit("_", 1)[1]) for file in metrics_dir.glob("*.db")}
        assert len(pids) >= 3  # two granian workers and the events server write here

        headers = {"Authorization": f"Bearer {token}"}
        ticket = httpx.post(f"{api_url}/api/v1/events/ticket", headers=headers).json()
        with httpx.Client(timeout=20) as client:
            stream = open_stream(client, events_url, ticket["url"], "stream-open-1")
            samples = scrape(api_url)  # answered by granian, counted by uvicorn
            assert value(samples, "concierge_event_streams_open") == 1
            events_ok = {"method": "GET", "route": "api/v1/events", "status": "200"}
            assert value(samples, "concierge_http_requests_total", **events_ok) == 1
            # The events server answers the scrape too, with the same node-wide figures.
            assert value(scrape(events_url), "concierge_event_streams_open") == 1
            stream.close()
        wait_for(lambda: value(scrape(api_url), "concierge_event_streams_open") == 0)

        ticket = httpx.post(f"{api_url}/api/v1/events/ticket", headers=headers).json()
        with httpx.Client(timeout=20) as client:
            stream = open_stream(client, events_url, ticket["url"], "stream-open-2")
            wait_for(lambda: value(scrape(api_url), "concierge_event_streams_open") == 1)
            events_log = events.lines()
            events.kill(signal.SIGKILL)  # no chance to say it is gone
            samples = scrape(api_url)
            assert value(samples, "concierge_event_streams_open") == 0
            # What the dead process counted is kept: counters never go back.
            assert value(samples, "concierge_http_requests_total", **events_ok) == 2
            assert value(samples, "concierge_http_requests_total", **unmatched) == 24
            stream.close()
        api_log = api.lines()

    events_text = (tmp_path / "events.log").read_text()
    assert ticket["ticket"] not in events_text
    assert "ticket=" not in events_text
    assert token not in events_text and token not in (tmp_path / "api.log").read_text()
    # uvicorn's access line, JSON, without the query string.
    access = [line for line in events_log if line["logger"] == "uvicorn.access"]
    assert access and all("/api/v1/events?" not in line["message"] for line in access)
    # The app's line of the stream, and the line written when it closed, carry its ids.
    [opened] = [
        line
        for line in events_log
        if line["logger"] == "concierge.request" and line.get("request_id") == "stream-open-1"
    ]
    assert (opened["route"], opened["status"], opened["user_id"]) == ("api/v1/events", 200, user.pk)
    [closed] = [
        line for line in events_log if line["message"].startswith("Event stream closed after")
    ]
    assert (closed["request_id"], closed["user_id"]) == ("stream-open-1", user.pk)
    # granian's own lines (its main process) and the app's in its workers are JSON too.
    assert any(line["logger"] == "_granian" for line in api_log)
    not_found = [
        line
        for line in api_log
        if line["logger"] == "concierge.request" and line["path"] == "/api/v1/no-such-page"
    ]
    assert len(not_found) == 24
    assert all(len(line["request_id"]) == 32 and "timestamp" in line for line in not_found)
