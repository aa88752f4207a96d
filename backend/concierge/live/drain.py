"""Draining the open streams when the events server is asked to stop.

On SIGTERM (or SIGINT) every open stream is told to reconnect: it gets an SSE `retry:` with a
short delay, spread at random so the clients do not all come back in the same instant, and
ends cleanly. The server's own graceful shutdown then finds no response still running and
stops at once, and the clients reconnect through the load balancer to a node that is up (a
client that refetches after each reconnect, as the web app does, misses nothing). A stream
that opens while the process is stopping gets the same answer straight away.

ASGI servers deliver shutdown to the application only once the open responses are finished
(uvicorn: its lifespan shutdown comes after `--timeout-graceful-shutdown`, which then cancels
what is still running). So the stop signal itself is watched: the first stream of a process
wraps the handler the server installed for SIGTERM and SIGINT (the server runs its loop on the
main thread), and the wrapper hands the drain to the event loop before calling the server's
handler. Where no server handler is installed the signals are left alone.
"""

from __future__ import annotations

import asyncio
import random
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

from concierge.live.broker import brokers_close_subscriptions

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
RECONNECT_MIN_MS = 500
RECONNECT_MAX_MS = 2500

_loops: set[asyncio.AbstractEventLoop] = set()
_previous: dict[int, Callable[[int, FrameType | None], Any]] = {}
_state = {"draining": False}


def draining() -> bool:
    """Whether this process is stopping: streams tell their clients to reconnect and end."""
    return _state["draining"]


def reconnect_block() -> str:
    """The last thing a stream sends when the server ends it: reconnect after a short while."""
    delay = random.randint(RECONNECT_MIN_MS, RECONNECT_MAX_MS)  # noqa: S311 (spreading only)
    return f"retry: {delay}\n: reconnect\n\n"


def drain() -> None:
    """Ends every open stream of this process with a reconnect hint (on the event loop)."""
    _state["draining"] = True
    brokers_close_subscriptions()


def drain_on_stop_signals(loop: asyncio.AbstractEventLoop) -> None:
    """From a stream's event loop: drain when the server is asked to stop (once per process)."""
    if loop in _loops or threading.current_thread() is not threading.main_thread():
        return
    _loops.add(loop)
    for signum in STOP_SIGNALS:
        if signum in _previous:
            continue
        handler = signal.getsignal(signum)
        if callable(handler):  # the server's own shutdown; SIG_DFL/SIG_IGN stay as they are
            _previous[signum] = handler
            signal.signal(signum, _on_stop_signal)


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    # A signal handler may interrupt the loop anywhere: only hand the drain over to it.
    for loop in list(_loops):
        if not loop.is_closed():
            loop.call_soon_threadsafe(drain)
    _previous[signum](signum, frame)
