"""`python -m config.port_wait HOST:PORT --wait SECONDS -- SERVER ...`: starts a server only
once no other server listens on its address.

granian binds each worker's socket with SO_REUSEPORT, and gives no way to turn that off: a
second granian started on a port still held by a first one binds too, and the kernel then
spreads new connections over both, two versions of the code answering at random. The
process definitions (Procfile, deploy/systemd) start the API and events servers through this
check instead: it waits until the address is free (the previous server has exited, as during
a restart), up to --wait seconds, then replaces itself with the server (exec). Still held
after that: it exits with status 1 and says so, and nothing was started.

The address is tested by binding a socket to it without SO_REUSEPORT, which the kernel refuses
while any socket listens there (with SO_REUSEPORT or not); connections of a server that exited
(TIME_WAIT) do not count.
"""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys
import time
from collections.abc import Sequence

POLL_SECONDS = 0.2


def address_parse(address: str) -> tuple[str, int]:
    """'127.0.0.1:8001', '[::1]:8001', '0.0.0.0:8001' -> (host, port)."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT, got {address!r}")
    return host.strip("[]"), int(port)


def address_in_use(host: str, port: int) -> bool:
    """Whether a server listens on host:port (any address family the host resolves to)."""
    for family, kind, proto, _, sockaddr in socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    ):
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(sockaddr)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return True
                raise
    return False


def address_wait_free(host: str, port: int, *, wait_seconds: float) -> bool:
    """True once nothing listens on host:port; False if something still does after
    `wait_seconds`."""
    deadline = time.monotonic() + wait_seconds
    while address_in_use(host, port):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_SECONDS)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m config.port_wait",
        usage="%(prog)s HOST:PORT [--wait SECONDS] [-- COMMAND ...]",
        description="Waits until no server listens on HOST:PORT, then runs COMMAND in its "
        "place. Exits 1, starting nothing, if the address is still in use after --wait "
        "seconds.",
    )
    parser.add_argument("address", help="HOST:PORT the server will listen on")
    parser.add_argument("--wait", type=float, default=30.0, help="seconds to wait (default 30)")
    args = list(sys.argv[1:] if argv is None else argv)
    split = args.index("--") if "--" in args else len(args)
    options = parser.parse_args(args[:split])
    command = args[split + 1 :]
    try:
        host, port = address_parse(options.address)
    except ValueError as exc:
        parser.error(str(exc))
    if not address_wait_free(host, port, wait_seconds=options.wait):
        print(
            f"port_wait: {options.address} is still in use after {options.wait:g} s: another "
            "server listens there (an earlier version still running?). Not starting a second "
            "one beside it: stop the other server first.",
            file=sys.stderr,
        )
        return 1
    if command:
        sys.stdout.flush()
        os.execvp(command[0], command)  # noqa: S606 (the operator's own server command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
