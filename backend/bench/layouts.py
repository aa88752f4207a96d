"""Server layouts: the real server processes (as in production) on 127.0.0.1, and their CPU time.

A layout is one or two servers: the request/response API (`api_url`) and the live event stream
(`events_url`, the same server when one serves both). In production a load balancer sends
`/api/v1/events` to the events server and everything else to the API server (README:
Production); the bench talks to each server directly.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import httpx

BACKEND_DIR = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
HEALTH_PATH = "/api/v1/health"
# Ports from SERVER_PORTS (e.g. 8500-8599), else any free ones.
PORT_RANGE = os.environ.get("SERVER_PORTS", "")
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


_taken: set[int] = set()


def free_port() -> int:
    """A port nobody listens on, from SERVER_PORTS when set, never the same one twice."""
    low, _, high = PORT_RANGE.partition("-")
    candidates = range(int(low), int(high) + 1) if low and high else [0] * 20
    for port in candidates:
        if port in _taken:
            continue
        with socket.socket() as sock:
            try:
                sock.bind((HOST, port))
            except OSError:
                continue
            chosen = int(sock.getsockname()[1])
        if chosen not in _taken:
            _taken.add(chosen)
            return chosen
    raise SystemExit(f"No free port in SERVER_PORTS={PORT_RANGE}")


def uvicorn_command(port: int, workers: int) -> list[str]:
    """The ASGI server: the event stream in production, everything in the embedded default."""
    return [
        sys.executable, "-m", "uvicorn", "config.asgi:application",
        "--host", HOST, "--port", str(port), "--workers", str(workers),
        "--no-access-log", "--log-level", "warning", "--timeout-graceful-shutdown", "3",
    ]  # fmt: skip


def gunicorn_command(port: int, workers: int, threads: int) -> list[str]:
    """gunicorn (compared in the bench): `gthread` workers with threads, else `sync` ones."""
    return [
        sys.executable, "-m", "gunicorn", "config.wsgi:application",
        "--bind", f"{HOST}:{port}", "--workers", str(workers), "--threads", str(threads),
        "--worker-class", "gthread" if threads > 1 else "sync",
        "--keep-alive", "5", "--log-level", "warning",
    ]  # fmt: skip


def granian_command(port: int, workers: int, threads: int) -> list[str]:
    """The production API server (README: Production): granian's WSGI interface."""
    return [
        sys.executable, "-m", "granian", "--interface", "wsgi", "config.wsgi:application",
        "--host", HOST, "--port", str(port), "--workers", str(workers),
        "--blocking-threads", str(threads), "--no-access-log", "--log-level", "warning",
    ]  # fmt: skip


@dataclass(frozen=True)
class LayoutSpec:
    key: str
    description: str
    api: str  # "uvicorn", "gunicorn" or "granian"
    api_workers: int
    api_threads: int = 1
    events_workers: int = 0  # a separate uvicorn for the event stream; 0: the API server
    embedded: bool = False  # SQLite, in-process events and tasks (what `make run` serves)
    env: tuple[tuple[str, str], ...] = ()  # settings of this layout's servers alone

    def api_command(self, port: int) -> list[str]:
        if self.api == "gunicorn":
            return gunicorn_command(port, self.api_workers, self.api_threads)
        if self.api == "granian":
            return granian_command(port, self.api_workers, self.api_threads)
        return uvicorn_command(port, self.api_workers)


class Layout:
    """`with Layout(spec, env) as layout:` serves on `layout.api_url` / `layout.events_url`;
    leaving the block stops every process (SIGTERM, then SIGKILL of its process group)."""

    def __init__(self, spec: LayoutSpec, env: dict[str, str], startup_timeout: float = 90):
        self.spec = spec
        # As the Procfile and the systemd units start them (README: Production).
        self.env = {"MALLOC_ARENA_MAX": "2", **os.environ, **env, **dict(spec.env)}
        self.startup_timeout = startup_timeout
        self.processes: list[subprocess.Popen[bytes]] = []
        self.log = tempfile.NamedTemporaryFile(prefix="bench-server-", suffix=".log", delete=False)  # noqa: SIM115
        api_port = free_port()
        self.api_url = f"http://{HOST}:{api_port}"
        commands = {"api": spec.api_command(api_port)}
        self.events_url = self.api_url
        if spec.events_workers:
            events_port = free_port()
            self.events_url = f"http://{HOST}:{events_port}"
            commands["events"] = uvicorn_command(events_port, spec.events_workers)
        self.commands = commands
        self.names: dict[int, str] = {}  # process group (the server's pid) → "api", ...

    def __enter__(self) -> Layout:
        try:
            for name, command in self.commands.items():
                self.start(name, command)
            for url in dict.fromkeys((self.api_url, self.events_url)):
                self._wait_healthy(url)
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self, name: str, command: list[str], **env: str) -> None:
        """Starts one more process of the layout (stopped with the others)."""
        process = subprocess.Popen(  # noqa: S603 (our own interpreter and arguments)
            command,
            cwd=BACKEND_DIR,
            env={**self.env, **env},
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, workers included
        )
        self.processes.append(process)
        self.names[process.pid] = name

    def _wait_healthy(self, url: str) -> None:
        deadline = time.monotonic() + self.startup_timeout
        with httpx.Client(base_url=url, timeout=2) as client:
            while time.monotonic() < deadline:
                if any(p.poll() is not None for p in self.processes):
                    raise SystemExit(f"A server exited at startup:\n{self.log_tail()}")
                try:
                    if client.get(HEALTH_PATH).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.2)
        raise SystemExit(f"{url} did not answer {HEALTH_PATH} in time:\n{self.log_tail()}")

    def _stats(self) -> Iterator[tuple[int, int, list[str]]]:
        """(pid, process group, /proc/<pid>/stat fields after the name) of every live process
        of the layout (the servers and their workers)."""
        groups = {p.pid for p in self.processes}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            if int(fields[2]) in groups:  # pgrp
                yield int(stat.parent.name), int(fields[2]), fields

    def cpu_seconds(self) -> float:
        """User + system CPU time of every live process of the layout (masters and workers)."""
        ticks = sum(int(f[11]) + int(f[12]) for _, _, f in self._stats())  # utime, stime
        return ticks / _CLOCK_TICKS

    def rss_kib(self) -> dict[str, int]:
        """Resident memory (VmRSS, KiB) of every live process: {"api 1234 (worker)": 81234}."""
        sizes = {}
        for pid, group, _ in self._stats():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            rss = next(
                (line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")), None
            )
            if rss is not None:
                role = "main" if pid == group else "worker"
                sizes[f"{self.names.get(group, '?')} {pid} ({role})"] = int(rss)
        return sizes

    def wait_idle(self, *, busy_share: float = 0.1, timeout: float = 60) -> float:
        """Waits until the servers have worked off what an overloaded run left queued (their
        CPU use under `busy_share` of a core), so it does not slow the next measurement.
        The seconds waited."""
        started = time.monotonic()
        cpu, at = self.cpu_seconds(), started
        while time.monotonic() - started < timeout:
            time.sleep(0.5)
            now_cpu, now = self.cpu_seconds(), time.monotonic()
            if now_cpu - cpu < busy_share * (now - at):
                break
            cpu, at = now_cpu, now
        return time.monotonic() - started

    def stop(self) -> None:
        processes, self.processes = self.processes, []
        for process in processes:
            if process.poll() is None:
                process.terminate()  # each server shuts its workers down on SIGTERM
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)  # the group: the workers too
                process.wait()
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)

    def log_tail(self, lines: int = 30) -> str:
        self.log.flush()
        text = Path(self.log.name).read_text(errors="replace")
        return "\n".join(text.splitlines()[-lines:])
