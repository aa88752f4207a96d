"""Issue 25 observability: the shipped monitoring files (deploy/monitoring/) are valid and
speak of metrics the app really exports. With promtool (Debian's `prometheus` package) the
rules, their unit tests, the example configuration and the dashboard's queries are checked
by Prometheus itself; without it, their structure is checked here."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from concierge.notifications.tests.test_background import record

MONITORING = Path(__file__).resolve().parents[4] / "deploy" / "monitoring"
TOKEN = "monitoring-files-token-0123"
PROMTOOL = shutil.which("promtool")
METRIC_NAME = re.compile(r"\b(concierge_[a-z_]+)\b")
# Histogram and counter series names Prometheus derives from a family's name.
SUFFIXES = ("_bucket", "_count", "_sum", "_total", "_created")


def exported_names(settings, tasks) -> set[str]:
    """Every series name /metrics reports after a request, a task run, a cache error and an
    audit event not written."""
    settings.METRICS_TOKEN = TOKEN
    record.enqueue(word="counted")
    tasks.run()
    from concierge.common.cache import cache_unavailable

    cache_unavailable("rate limit", OSError("refused"))
    from concierge.audit.services import audit_write_failures

    audit_write_failures.labels(action="monitoring.probe").inc()  # as a failed write counts it
    Client().get("/api/v1/health")
    response = Client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    names = set()
    for family in text_string_to_metric_families(response.content.decode()):
        names.add(family.name)
        names.update(sample.name for sample in family.samples)
    return names


def _rules() -> dict:
    return yaml.safe_load((MONITORING / "alerts.yml").read_text())


def _dashboard_queries() -> list[str]:
    dashboard = json.loads((MONITORING / "grafana-dashboard.json").read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]


def _referenced(expressions: list[str]) -> set[str]:
    return {name for expression in expressions for name in METRIC_NAME.findall(expression)}


@pytest.mark.django_db
def test_issue_25_observability_rules_and_dashboard_use_exported_metrics(settings, tasks):
    """Issue 25 observability: every concierge_* series the alert rules and the dashboard
    query is one /metrics exports, and every rule is complete (an expression, a severity, a
    summary; recording rules named level:metric:operation)."""
    names = exported_names(settings, tasks)
    rules = [rule for group in _rules()["groups"] for rule in group["rules"]]
    alerts = [rule for rule in rules if "alert" in rule]
    recorded = {rule["record"] for rule in rules if "record" in rule}
    assert {alert["alert"] for alert in alerts} >= {
        "ConciergeLatencyP99High",
        "ConciergeErrorRateHigh",
        "ConciergeTaskQueueStalled",
        "ConciergeTasksFailed",
    }
    for alert in alerts:
        assert alert["expr"].strip()
        assert alert["labels"]["severity"] in ("warning", "critical")
        assert alert["annotations"]["summary"]
    for name in recorded:
        assert re.fullmatch(r"concierge:[a-z0-9_]+:[a-z0-9_]+", name)
    expressions = [rule["expr"] for rule in rules] + _dashboard_queries()
    referenced = _referenced(expressions)
    assert referenced  # the check below checks something
    unknown = {name for name in referenced if name not in names}
    assert not unknown, f"not exported by /metrics: {sorted(unknown)}"
    dashboard_records = set(re.findall(r"concierge:[a-z0-9_:]+", " ".join(_dashboard_queries())))
    assert dashboard_records <= recorded


@pytest.mark.skipif(PROMTOOL is None, reason="promtool (Debian's prometheus package) is missing")
def test_issue_25_observability_promtool_checks_and_unit_tests_the_rules(tmp_path):
    """Issue 25 observability: `promtool check rules`, the rules' unit tests (each SLO alert
    fires on a breach and stays quiet otherwise), the example configuration, and every query of
    the dashboard parsed by Prometheus."""

    def promtool(*args: str, cwd: Path = MONITORING) -> None:
        done = subprocess.run(
            [PROMTOOL, *args], cwd=cwd, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stdout + done.stderr

    promtool("check", "rules", "alerts.yml")
    promtool("test", "rules", "alerts.test.yml")

    config = yaml.safe_load((MONITORING / "prometheus.example.yml").read_text())
    token_file = tmp_path / "metrics-token"
    token_file.write_text(TOKEN)
    config["scrape_configs"][0]["authorization"]["credentials_file"] = str(token_file)
    (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
    shutil.copy(MONITORING / "alerts.yml", tmp_path / "alerts.yml")
    promtool("check", "config", "prometheus.yml", cwd=tmp_path)

    queries = {
        "groups": [
            {
                "name": "dashboard",
                "rules": [
                    {"record": f"dashboard:query:{index}", "expr": query}
                    for index, query in enumerate(_dashboard_queries())
                ],
            }
        ]
    }
    (tmp_path / "dashboard-queries.yml").write_text(yaml.safe_dump(queries))
    promtool("check", "rules", "dashboard-queries.yml", cwd=tmp_path)
