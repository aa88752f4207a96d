"""Capacity: wrk (Debian's package) with a closed loop of connections, and its own CPU time."""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

# Random paths from a list, or random whole requests, and a JSON summary on stderr (wrk's text
# report stays on stdout).
PATHS_SCRIPT = """
local paths = {%(paths)s}
local headers = {%(headers)s}
request = function()
  return wrk.format("GET", paths[math.random(#paths)], headers)
end
"""
REQUESTS_SCRIPT = """
local requests = {%(requests)s}
request = function()
  return requests[math.random(#requests)]
end
"""
DONE_SCRIPT = """
done = function(summary, latency, requests)
  local bad = summary.errors.status
  local failed = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout
  io.stderr:write(string.format(
    '{"requests": %d, "bad_status": %d, "failed": %d, "seconds": %f, "p99_ms": %f}\\n',
    summary.requests, bad, failed, summary.duration / 1e6, latency:percentile(99) / 1000))
end
"""


@dataclass
class Capacity:
    requests: int
    bad_status: int  # answers other than 2xx/3xx
    failed: int  # connect/read/write errors and timeouts
    seconds: float
    p99_ms: float
    client_cpu_seconds: float

    @property
    def throughput(self) -> float:
        good = self.requests - self.bad_status
        return good / self.seconds if self.seconds else 0.0

    @property
    def errors(self) -> int:
        return self.bad_status + self.failed

    def client_cpu_ms_per_request(self) -> float:
        return 1000 * self.client_cpu_seconds / self.requests if self.requests else 0.0


def wrk_path() -> str:
    path = shutil.which("wrk")
    if path is None:
        raise SystemExit("wrk is not installed: `apt-get install -y wrk` (make bench does it).")
    return path


def _lua_string(value: str) -> str:
    return json.dumps(value)  # a JSON string literal is a valid Lua string literal here


def capacity(
    base_url: str,
    paths: list[str],
    headers: dict[str, str],
    *,
    connections: int,
    seconds: float,
    timeout: float,
) -> Capacity:
    """GET requests to paths chosen at random from `paths`, with `headers`."""
    script = PATHS_SCRIPT % {
        "paths": ", ".join(_lua_string(p) for p in paths),
        "headers": ", ".join(f"[{_lua_string(k)}] = {_lua_string(v)}" for k, v in headers.items()),
    }
    return _run(base_url, script, connections=connections, seconds=seconds, timeout=timeout)


def capacity_of_requests(
    base_url: str, requests: list[bytes], *, connections: int, seconds: float, timeout: float
) -> Capacity:
    """Whole HTTP requests (`load.http_request`'s, ASCII) chosen at random from `requests`."""
    script = REQUESTS_SCRIPT % {"requests": ", ".join(_lua_string(r.decode()) for r in requests)}
    return _run(base_url, script, connections=connections, seconds=seconds, timeout=timeout)


def _run(
    base_url: str, script: str, *, connections: int, seconds: float, timeout: float
) -> Capacity:
    script += DONE_SCRIPT
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(script)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        completed = subprocess.run(  # noqa: S603 (wrk from PATH with our own arguments)
            [
                wrk_path(),
                "--threads",
                "1",
                "--connections",
                str(connections),
                "--duration",
                f"{seconds:g}s",
                "--timeout",
                f"{timeout:g}s",
                "--script",
                file.name,
                base_url,
            ],
            capture_output=True,
            text=True,
            timeout=seconds + timeout + 30,
            check=False,
        )
    finally:
        Path(file.name).unlink(missing_ok=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [line for line in completed.stderr.splitlines() if line.startswith("{")]
    if completed.returncode != 0 or not lines:
        raise SystemExit(f"wrk failed ({completed.returncode}): {completed.stderr.strip()}")
    summary = json.loads(lines[-1])
    return Capacity(
        requests=int(summary["requests"]),
        bad_status=int(summary["bad_status"]),
        failed=int(summary["failed"]),
        seconds=float(summary["seconds"]),
        p99_ms=float(summary["p99_ms"]),
        client_cpu_seconds=cpu,
    )
