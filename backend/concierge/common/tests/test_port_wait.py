"""Issue 25 deploy: a server starts only once no other listens on its address
(config/port_wait.py), so a restart never leaves two API versions sharing a port."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from config.port_wait import address_in_use, address_parse, address_wait_free

BACKEND_DIR = Path(__file__).resolve().parents[3]


def _listening(*, reuse_port: bool) -> socket.socket:
    """A listening socket on a free loopback port, bound as granian binds (SO_REUSEPORT)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def _port_wait(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "config.port_wait", *args],
        cwd=BACKEND_DIR,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_addresses_parse() -> None:
    """Issue 25 deploy: HOST:PORT, IPv6 in brackets."""
    assert address_parse("127.0.0.1:8001") == ("127.0.0.1", 8001)
    assert address_parse("[::1]:8001") == ("::1", 8001)
    for bad in ("8001", "127.0.0.1", "host:0", "host:70000", "host:http"):
        with pytest.raises(ValueError):
            address_parse(bad)


@pytest.mark.parametrize("reuse_port", [True, False], ids=["SO_REUSEPORT", "plain"])
def test_a_listening_server_holds_its_address(reuse_port: bool) -> None:
    """Issue 25 deploy: a server listening with SO_REUSEPORT (granian) or without (uvicorn)
    holds the address, on its own host and on the wildcard; once it has closed it is free."""
    sock = _listening(reuse_port=reuse_port)
    port = sock.getsockname()[1]
    assert address_in_use("127.0.0.1", port)
    assert address_in_use("0.0.0.0", port)
    sock.close()
    assert not address_in_use("127.0.0.1", port)


def test_a_restart_waits_for_the_old_server_to_exit() -> None:
    """Issue 25 deploy: the new server waits while the old one still listens, and starts as
    soon as it has gone."""
    sock = _listening(reuse_port=True)
    port = sock.getsockname()[1]
    threading.Timer(0.6, sock.close).start()
    started = time.monotonic()
    assert address_wait_free("127.0.0.1", port, wait_seconds=10)
    assert 0.5 < time.monotonic() - started < 5


def test_the_command_refuses_to_start_beside_a_running_server() -> None:
    """Issue 25 deploy: still held after --wait, nothing is started and the exit status is 1,
    with the reason; free, the server's command runs in its place."""
    sock = _listening(reuse_port=True)
    port = sock.getsockname()[1]
    try:
        held = _port_wait(f"127.0.0.1:{port}", "--wait", "0.5", "--", "echo", "started")
        assert held.returncode == 1
        assert "started" not in held.stdout
        assert f"127.0.0.1:{port} is still in use after 0.5 s" in held.stderr
    finally:
        sock.close()
    free = _port_wait(f"127.0.0.1:{port}", "--wait", "0.5", "--", "echo", "started")
    assert free.returncode == 0
    assert free.stdout.strip() == "started"
