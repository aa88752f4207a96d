"""A redis-server of a test's own, to stop, freeze (SIGSTOP: an unreachable server that
accepts connections and never answers) and thaw in the middle of a test."""

from __future__ import annotations

import signal
import socket
import subprocess
import time


def free_port() -> int:
    """A free port in the range this suite's servers may use (8600-8699)."""
    for port in range(8690, 8600, -1):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port in 8600-8699")


def _wait_for(port: int, *, up: bool) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            reachable = True
        except OSError:
            reachable = False
        if reachable == up:
            return
        time.sleep(0.05)
    raise AssertionError(f"redis-server on {port} did not come {'up' if up else 'down'}")


class RedisServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
        _wait_for(self.port, up=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def freeze(self) -> None:
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.thaw()
            self.process.terminate()
            self.process.wait(timeout=10)
        _wait_for(self.port, up=False)
