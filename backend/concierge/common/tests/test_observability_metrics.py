"""Issue 25 observability: /metrics, for Prometheus, after real requests: request counts and
latency by route and status (5xx and 404s included), cache errors, the task queue read from
the task table, failed tasks; refused to a scrape without the metrics token."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import caches
from django.test import Client
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult
from prometheus_client.parser import text_string_to_metric_families

from concierge.servicerequests import services as request_services

pytestmark = pytest.mark.django_db

TOKEN = "scrape-token-0123456789abcdef"


def scrape(token: str = TOKEN) -> dict[tuple[str, frozenset], float]:
    response = Client().get("/metrics", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


@pytest.fixture
def metrics_token(settings) -> str:
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def test_issue_25_observability_metrics_are_refused_without_the_token(settings):
    """Issue 25 observability: /metrics is a 404 while no METRICS_TOKEN is set, and then a 401
    for a scrape without it or with another one, over plain HTTP too."""
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics").status_code == 404
    assert Client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 404

    settings.METRICS_TOKEN = TOKEN
    for headers in (
        {},
        {"Authorization": "Bearer not-the-token-0123456789"},
        {"Authorization": f"Basic {TOKEN}"},
        {"Authorization": f"Bearer {TOKEN}x"},
    ):
        refused = Client().get("/metrics", headers=headers)
        assert refused.status_code == 401
        assert refused.json() == {"success": False, "error": "A metrics token is required."}
        assert refused["WWW-Authenticate"].startswith("Bearer")
        assert b"concierge_http_requests_total" not in refused.content
    assert (
        Client().post("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 405
    )
    assert Client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_issue_25_observability_requests_count_by_route_method_and_status(
    metrics_token, signed_in_api, user
):
    """Issue 25 observability: after a short load, each route (the URL pattern, never the raw
    path) has its count per status, 404s and 5xx included, and its latency histogram."""
    before = scrape()
    service_request = request_services.request_create(user=user, name="Walk the dog")
    detail = "api/v1/requests/<int:request_id>"
    for _ in range(3):
        assert signed_in_api.get(f"requests/{service_request.pk}").status_code == 200
    assert signed_in_api.get("requests/987654").status_code == 404  # someone else's or none
    assert Client().get("/api/v1/no-such-thing").status_code == 404
    assert Client().get(f"/api/v1/requests/{service_request.pk}").status_code == 401
    with mock.patch("concierge.common.api._database_ok", return_value=False):
        assert Client().get("/api/v1/health").status_code == 503  # the database is down
    with mock.patch(
        "concierge.uploads.services.upload_receive", side_effect=RuntimeError("disk on fire")
    ):
        broken = Client(raise_request_exception=False).put(
            "/api/v1/uploads/put/17:1tAbC:SiGnAtUrE0123456789", b"x", content_type="image/png"
        )
    assert broken.status_code == 500
    after = scrape()

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    requests = "concierge_http_requests_total"
    assert delta(requests, method="GET", route=detail, status="200") == 3
    assert delta(requests, method="GET", route=detail, status="404") == 1
    assert delta(requests, method="GET", route=detail, status="401") == 1
    assert delta(requests, method="GET", route="<unmatched>", status="404") == 1
    assert delta(requests, method="GET", route="api/v1/health", status="503") == 1
    assert delta(requests, method="PUT", route="api/v1/uploads/put/<token>", status="500") == 1
    duration = "concierge_http_request_duration_seconds"
    assert delta(f"{duration}_count", method="GET", route=detail) == 5
    assert delta(f"{duration}_bucket", method="GET", route=detail, le="+Inf") == 5
    assert delta(f"{duration}_bucket", method="GET", route=detail, le="10.0") == 5
    assert delta(f"{duration}_sum", method="GET", route=detail) > 0
    # No raw path, id or token became a label.
    routes = {value for key in after for name, value in key[1] if name == "route"}
    assert detail in routes
    assert not any(str(service_request.pk) in route.split("/") for route in routes)
    assert not any("SiGnAtUrE" in route for route in routes)


def test_issue_25_observability_cache_errors_are_counted(metrics_token, settings, api, user):
    """Issue 25 observability: a rate limit that finds Redis unreachable counts one cache
    error (`purpose="rate limit"`) and one trip of the circuit breaker."""
    settings.RATE_LIMITS = {"sign_in": (20, 60)}
    before = scrape()
    settings.CACHES = {
        "default": {
            "BACKEND": "concierge.common.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    try:
        assert api.sign_in(user.email).status_code == 200
    finally:
        caches["default"].close()
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    after = scrape()
    errors = "concierge_cache_errors_total"
    assert (
        value(after, errors, purpose="rate limit") - value(before, errors, purpose="rate limit")
        == 1
    )
    trips = "concierge_cache_breaker_trips_total"
    assert value(after, trips) - value(before, trips) == 1


@task()
def always_fails() -> None:
    raise ConnectionRefusedError("the mail server is down")


@task()
def send_later(*, word: str) -> str:
    return word


def test_issue_25_observability_task_queue_depth_age_and_failures_follow_the_task_table(
    metrics_token, tasks, settings
):
    """Issue 25 observability: the queue's depth and the age of its oldest due task, the
    scheduled, running and failed tasks are read from the task table at each scrape, and a
    failed attempt counts in the worker's `concierge_task_runs_total`."""
    empty = scrape()
    assert value(empty, "concierge_task_queue_depth", queue="default") == 0
    assert value(empty, "concierge_task_queue_oldest_age_seconds", queue="default") == 0
    runs = "concierge_task_runs_total"
    failed_label = {"task": always_fails.module_path, "outcome": "failed"}
    failed_runs_before = value(empty, runs, **failed_label)

    settings.TASKS_MAX_ATTEMPTS = 1
    always_fails.enqueue()
    assert tasks.run() == 1  # the one attempt fails: the task is failed for good
    [failed] = DBTaskResult.objects.all()
    assert failed.status == TaskResultStatus.FAILED

    now = timezone.now()
    waiting = send_later.enqueue(word="waiting two minutes")  # due since it was enqueued
    DBTaskResult.objects.filter(pk=waiting.id).update(enqueued_at=now - timedelta(seconds=120))
    retry = send_later.enqueue(word="a retry due 30 s ago")
    DBTaskResult.objects.filter(pk=retry.id).update(run_after=now - timedelta(seconds=30))
    later = send_later.using(run_after=now + timedelta(minutes=10)).enqueue(word="later")
    running = send_later.enqueue(word="being sent")
    DBTaskResult.objects.filter(pk=running.id).update(
        status=TaskResultStatus.RUNNING, started_at=now
    )
    assert later.id != running.id

    samples = scrape()
    assert value(samples, "concierge_task_queue_depth", queue="default") == 2
    age = value(samples, "concierge_task_queue_oldest_age_seconds", queue="default")
    assert 119 <= age < 180
    assert value(samples, "concierge_tasks_scheduled", queue="default") == 1
    assert value(samples, "concierge_tasks_running", queue="default") == 1
    assert value(samples, "concierge_tasks_failed", queue="default") == 1
    assert value(samples, runs, **failed_label) - failed_runs_before == 1

    assert tasks.run() == 2  # the worker sends the two due ones
    drained = scrape()
    assert value(drained, "concierge_task_queue_depth", queue="default") == 0
    assert value(drained, "concierge_task_queue_oldest_age_seconds", queue="default") == 0
    assert value(drained, "concierge_tasks_scheduled", queue="default") == 1
    done = {"task": send_later.module_path, "outcome": "successful"}
    assert value(drained, runs, **done) - value(samples, runs, **done) == 2


def test_issue_25_observability_a_broken_task_table_leaves_the_other_metrics(metrics_token):
    """Issue 25 observability: when the task table cannot be read (the database is down),
    the scrape still answers with the request metrics."""
    with mock.patch(
        "concierge.notifications.metrics.task_queue_figures",
        side_effect=RuntimeError("database down"),
    ):
        samples = scrape()
    assert not any(name == "concierge_task_queue_depth" for name, _ in samples)
    assert any(name == "concierge_http_requests_total" for name, _ in samples)
