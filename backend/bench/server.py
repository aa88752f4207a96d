"""The real ASGI server (uvicorn, as in production) in a subprocess on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

import httpx

BACKEND_DIR = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
HEALTH_PATH = "/api/v1/health"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


class Server:
    """`with Server(env, workers=2) as server:` serves on `server.base_url`; leaving the block
    stops it (SIGTERM, then SIGKILL of its process group), whatever happened inside."""

    def __init__(self, env: dict[str, str], *, workers: int, startup_timeout: float = 60) -> None:
        self.env = {**os.environ, **env}
        self.workers = workers
        self.startup_timeout = startup_timeout
        self.port = free_port()
        self.base_url = f"http://{HOST}:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="bench-server-", suffix=".log", delete=False)  # noqa: SIM115

    def __enter__(self) -> Server:
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--workers",
            str(self.workers),
            "--no-access-log",
            "--log-level",
            "warning",
        ]
        self.process = subprocess.Popen(  # noqa: S603 (our own interpreter and arguments)
            command,
            cwd=BACKEND_DIR,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so the workers can be stopped too
        )
        try:
            self._wait_healthy()
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

    def _wait_healthy(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.startup_timeout
        with httpx.Client(base_url=self.base_url, timeout=2) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise SystemExit(f"The server exited at startup:\n{self.log_tail()}")
                try:
                    if client.get(HEALTH_PATH).status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.2)
        raise SystemExit(f"The server did not answer {HEALTH_PATH} in time:\n{self.log_tail()}")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()  # uvicorn shuts its workers down gracefully on SIGTERM
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
