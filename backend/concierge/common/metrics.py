"""Prometheus metrics (prometheus-client) and `GET /metrics` (docs/operations/monitoring.md).

One node runs several processes: the API server's workers (granian), the events server
(uvicorn) and the task worker. With `PROMETHEUS_MULTIPROC_DIR` set to one directory shared by
all of them (prometheus-client's multiprocess mode), each process writes its counters,
histograms and gauges to files there, and `/metrics`, answered by any of them, adds up the
whole node. Without it (`make run`, tests) `/metrics` reports its own process.

Some figures are not counted by a process but read at scrape time (the task table's queue):
apps register a collector for them with `scrape_collector_register()`.

`/metrics` answers only a scrape that sends `Authorization: Bearer <METRICS_TOKEN>`; without
METRICS_TOKEN it is a 404.
"""

from __future__ import annotations

import atexit
import logging
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.metrics_core import Metric

from concierge.common.errors import error_body
from concierge.common.tokens import hashes_equal

logger = logging.getLogger(__name__)

# Seconds. Most answers take a few milliseconds; the statement timeout stops a request at 5 s.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

http_requests = Counter(
    "concierge_http_requests",
    "Requests answered, by method, route (the URL pattern) and status code.",
    ["method", "route", "status"],
)
http_request_duration = Histogram(
    "concierge_http_request_duration_seconds",
    "Time to answer a request (to the start of a streamed answer), by method and route.",
    ["method", "route"],
    buckets=LATENCY_BUCKETS,
)
cache_errors = Counter(
    "concierge_cache_errors",
    "Cache (Redis) calls that failed and were skipped, by what was skipped.",
    ["purpose"],
)
cache_breaker_trips = Counter(
    "concierge_cache_breaker_trips",
    "Times the cache's circuit breaker opened (Redis unreachable or too slow).",
)


def http_request_observe(*, method: str, route: str, status: int, seconds: float) -> None:
    method = method if method in HTTP_METHODS else "OTHER"
    http_requests.labels(method, route, str(status)).inc()
    http_request_duration.labels(method, route).observe(seconds)


# =========================================================================== scrape time


class Collector(Protocol):
    def collect(self) -> Iterable[Metric]: ...


_scrape_collectors: list[Collector] = []


def scrape_collector_register(collector: Collector) -> None:
    """Figures read when `/metrics` is scraped (and not counted by a process)."""
    if collector not in _scrape_collectors:
        _scrape_collectors.append(collector)


class _Scrape:
    """What one scrape reports: the node's (or this process's) metrics, then the figures
    read now. A collector that fails is logged and left out; the rest is still reported."""

    def __init__(self, sources: list[Collector]) -> None:
        self.sources = sources

    def collect(self) -> Iterator[Metric]:
        for source in self.sources:
            try:
                yield from list(source.collect())
            except Exception:  # one figure that cannot be read must not hide the others
                logger.exception("Could not collect %s", type(source).__name__)


def multiprocess_dir() -> str:
    return str(getattr(settings, "PROMETHEUS_MULTIPROC_DIR", "") or "")


def live_gauges_of_dead_processes_remove(path: str) -> None:
    """Live gauges (open event streams) of processes that are gone, killed before they could
    say so, stop counting. Every process of a node shares its PID namespace (see the docs)."""
    for file in Path(path).glob("gauge_live*_*.db"):
        try:
            pid = int(file.stem.rsplit("_", 1)[1])
        except ValueError:
            continue
        if not _process_alive(pid):
            multiprocess.mark_process_dead(pid, path)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def metrics_exposition() -> bytes:
    """The text exposition of the node's metrics (multiprocess mode) or this process's."""
    path = multiprocess_dir()
    sources: list[Collector]
    if path:
        live_gauges_of_dead_processes_remove(path)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=path)
        sources = [registry]
    else:
        sources = [REGISTRY]
    return generate_latest(_Scrape([*sources, *_scrape_collectors]))  # type: ignore[arg-type]


def _this_process_stopped() -> None:
    # The variable prometheus-client itself reads (the settings may be gone by now).
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    if path and os.path.isdir(path):
        multiprocess.mark_process_dead(os.getpid(), path)


atexit.register(_this_process_stopped)


# =========================================================================== the endpoint

METRICS_TOKEN_REQUIRED = "A metrics token is required."


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponseBase:
    """GET /metrics: Prometheus's text format, for a scrape with the METRICS_TOKEN bearer."""
    expected = settings.METRICS_TOKEN
    if not expected:
        raise Http404
    scheme, _, presented = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hashes_equal(presented.strip(), expected):
        refused = JsonResponse(error_body(METRICS_TOKEN_REQUIRED), status=401)
        refused["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return refused
    response = HttpResponse(metrics_exposition(), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response
