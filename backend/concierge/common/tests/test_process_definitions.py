"""Issue 25 deploy: the process definitions (Procfile for honcho, deploy/systemd units) run the
same processes, read every setting from one environment file whose example (.env.example)
names every setting the app reads, and the units pass `systemd-analyze verify`. The Procfile
itself is started in e2e/test_deploy.py."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from honcho.environ import parse, parse_procfile

REPO_DIR = Path(__file__).resolve().parents[4]
BACKEND_DIR = REPO_DIR / "backend"
UNITS_DIR = REPO_DIR / "deploy" / "systemd"
ENV_EXAMPLE = REPO_DIR / ".env.example"
# The variables the process definitions read, beside the app's settings.
PROCESS_SETTINGS = {
    "API_HOST", "API_PORT", "API_WORKERS", "API_THREADS", "EVENTS_HOST", "EVENTS_PORT",
    "PORT_WAIT_SECONDS", "MALLOC_ARENA_MAX",
}  # fmt: skip
# Each Procfile process, its systemd unit and what both run.
PROCESSES = {
    "api": ("concierge-api.service", "granian --interface wsgi config.wsgi:application"),
    "events": ("concierge-events.service", "uvicorn config.asgi:application"),
    "worker": ("concierge-worker.service", "manage.py task_worker"),
    "scheduler": ("concierge-daily.service", "manage.py daily_jobs"),
}


def app_settings() -> set[str]:
    """Every environment variable the app reads (config/settings.py and config/asgi.py)."""
    names: set[str] = set()
    for module in ("settings.py", "asgi.py"):
        text = (BACKEND_DIR / "config" / module).read_text()
        names |= set(re.findall(r"\benv_\w+\(\s*\"([A-Z][A-Z0-9_]*)\"", text))
        names |= set(re.findall(r"os\.environ\.get\(\s*\"([A-Z][A-Z0-9_]*)\"", text))
        names |= set(re.findall(r"\"([A-Z][A-Z0-9_]*)\" in os\.environ", text))
    names.discard("DJANGO_SETTINGS_MODULE")
    return names


def example_names() -> set[str]:
    """The names .env.example sets or shows commented out."""
    return set(re.findall(r"^#? ?([A-Z][A-Z0-9_]*)=", ENV_EXAMPLE.read_text(), re.MULTILINE))


def test_the_example_environment_names_every_setting() -> None:
    """Issue 25 deploy: an operator finds every setting in .env.example, and nothing there that
    nothing reads."""
    settings, example = app_settings(), example_names()
    assert {"DEFAULT_FROM_EMAIL", "SECURE_SSL_REDIRECT", "LOG_LEVEL", "MEDIA_ROOT"} <= settings
    assert not settings - example, f"missing from .env.example: {sorted(settings - example)}"
    unread = example - settings - PROCESS_SETTINGS
    assert not unread, f"read by nothing: {sorted(unread)}"


def test_the_readme_describes_every_setting_in_one_table() -> None:
    """Issue 25 deploy: README's settings table (Production, Settings) has a row for every
    setting the app and the process definitions read."""
    readme = (REPO_DIR / "README.md").read_text()
    section = readme[readme.index("### Settings\n") :]
    table = "\n".join(line for line in section.splitlines() if line.startswith("| `"))
    described = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))
    missing = (app_settings() | PROCESS_SETTINGS) - described
    assert not missing, f"missing from README's settings table: {sorted(missing)}"


def test_the_example_environment_reads_the_same_in_honcho_and_sh() -> None:
    """Issue 25 deploy: honcho (Procfile) and sh (deploy/manage) give every value alike, quoted
    values with spaces and '<' included; the required secrets are left empty, so nothing
    starts on a placeholder."""
    by_honcho = parse(ENV_EXAMPLE.read_text())
    shell = subprocess.run(
        ["sh", "-c", f"set -a; . '{ENV_EXAMPLE}'; set +a; env -0"],
        capture_output=True,
        env={"PATH": "/usr/bin:/bin"},
        check=True,
    )
    by_sh = dict(item.split("=", 1) for item in shell.stdout.decode().split("\0") if "=" in item)
    assert by_honcho["DEFAULT_FROM_EMAIL"] == "Concierge <no-reply@concierge.example.com>"
    for name, value in by_honcho.items():
        assert by_sh[name] == value, name
    assert by_sh["SECRET_KEY"] == "" and "SECRET_KEY" not in by_honcho


def test_honcho_and_systemd_run_the_same_processes() -> None:
    """Issue 25 deploy: each Procfile process has its unit, with the same command; the API and
    events servers start through the port check in both."""
    procfile = parse_procfile((REPO_DIR / "Procfile").read_text()).processes
    assert set(procfile) == set(PROCESSES)
    for name, (unit, runs) in PROCESSES.items():
        text = (UNITS_DIR / unit).read_text()
        start = re.search(r"^ExecStart=(.*)$", text, re.MULTILINE)
        assert start, unit
        assert runs in procfile[name] and runs in start.group(1), name
        assert "EnvironmentFile=/etc/concierge/concierge.env" in text
        if name in ("api", "events"):
            assert "-m config.port_wait" in procfile[name]
            assert re.search(r"^ExecStartPre=.* -m config\.port_wait ", text, re.MULTILINE)
            assert "KillMode=mixed" in text
            assert "MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} exec" in procfile[name]
            assert "Environment=MALLOC_ARENA_MAX=2" in text
    target = (UNITS_DIR / "concierge.target").read_text()
    for unit in ("concierge-api.service", "concierge-events.service", "concierge-worker.service"):
        assert unit in target
    assert "concierge-daily.timer" in target


def test_the_reply_by_email_receiver_runs_as_its_document_says() -> None:
    """Reply by email (docs/operations/reply-by-email.md): the SMTP receiver's unit, and the
    Procfile line the document gives, run `manage.py inbound_smtp` from backend/ (a Procfile's
    processes start in the repository's root) with the environment file."""
    unit = (UNITS_DIR / "concierge-inbound-smtp.service").read_text()
    assert "WorkingDirectory=/opt/concierge/backend" in unit
    assert "EnvironmentFile=/etc/concierge/concierge.env" in unit
    assert re.search(r"^ExecStart=\S+/python manage\.py inbound_smtp ", unit, re.MULTILINE)
    document = (REPO_DIR / "docs" / "operations" / "reply-by-email.md").read_text()
    [line] = re.findall(r"`(inbound_smtp: [^`]+)`", document)
    [(name, command)] = parse_procfile(line).processes.items()
    assert name == "inbound_smtp"
    assert command.startswith("cd backend && exec ../.venv/bin/python manage.py inbound_smtp ")


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_the_units_pass_systemd_analyze_verify(tmp_path) -> None:
    """Issue 25 deploy: `systemd-analyze verify` accepts every unit; the install path
    (/opt/concierge) points at this checkout, whose programs it checks exist."""
    for unit in UNITS_DIR.iterdir():
        text = unit.read_text().replace("/opt/concierge", str(REPO_DIR))
        (tmp_path / unit.name).write_text(text)
    checked = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *sorted(str(p) for p in tmp_path.iterdir())],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr == ""
