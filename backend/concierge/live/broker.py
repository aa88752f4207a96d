"""Event brokers: in-process fan-out by default, Redis pub/sub between processes.

- `InProcessBroker` (no `REDIS_URL`): `publish()` hands the event to every subscriber of this
  process. Right for the embedded default (one process); with several app processes a
  subscriber would only see what its own process published.
- `RedisBroker` (`REDIS_URL` set): `publish()` is one Redis PUBLISH; each process (each event
  loop) keeps ONE async subscription to the channel (`EVENTS_CHANNEL`; redis.asyncio, so the loop never blocks)
  and fans what arrives out to its local subscribers. A stream costs a queue, not a Redis
  connection. If the Redis connection drops, the listener reconnects with back-off and then
  sends its subscribers a `resync` event so clients refetch what they may have missed.

`publish()` is called from synchronous code (a view's transaction.on_commit) in any thread;
subscribers live on an asyncio loop, so delivery goes through `loop.call_soon_threadsafe`.
Streams are served over ASGI only (the events server; `make run`'s one process).
A subscriber that falls `QUEUE_SIZE` events behind is closed (its stream ends; the client
reconnects and refetches) instead of letting memory grow. On shutdown every subscription is
closed the same way (`brokers_close_subscriptions`), so each stream ends and its client
reconnects to a node that is up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from typing import Any, Protocol

from django.conf import settings

from concierge.common.cache import redis_client
from concierge.live.events import RESYNC, Event

logger = logging.getLogger(__name__)

QUEUE_SIZE = 256
REDIS_READY_TIMEOUT_SECONDS = 5.0


class Subscription:
    """One stream's inbox, bound to the event loop that created it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._queue: asyncio.Queue[Event | None] = asyncio.Queue(maxsize=QUEUE_SIZE + 1)
        self.closed = False

    def _deliver(self, event: Event | None) -> None:  # runs on self.loop
        if self.closed:
            return
        if event is None or self._queue.qsize() >= QUEUE_SIZE:
            self.closed = True
            self._queue.put_nowait(None)
            return
        self._queue.put_nowait(event)

    async def get(self) -> Event | None:
        """The next event; None once the subscription is closed (overflow or shutdown)."""
        if self.closed and self._queue.empty():
            return None
        return await self._queue.get()


def _deliver_each(subscriptions: list[Subscription], event: Event | None) -> None:
    for subscription in subscriptions:  # on their loop
        subscription._deliver(event)


class _Hub:
    """The subscribers of this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: set[Subscription] = set()

    def add(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscriptions.add(subscription)

    def remove(self, subscription: Subscription) -> int:
        """Remove; the number left on the same loop."""
        with self._lock:
            self._subscriptions.discard(subscription)
            return sum(1 for s in self._subscriptions if s.loop is subscription.loop)

    def dispatch(
        self, event: Event | None, *, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        """Hands `event` (None: close) to every subscription, or to those of `loop`: one
        wake-up per event loop, however many streams it serves."""
        by_loop: dict[asyncio.AbstractEventLoop, list[Subscription]] = {}
        with self._lock:
            for subscription in self._subscriptions:
                if loop is None or subscription.loop is loop:
                    by_loop.setdefault(subscription.loop, []).append(subscription)
        for target, subscriptions in by_loop.items():
            try:
                target.call_soon_threadsafe(_deliver_each, subscriptions, event)
            except RuntimeError:  # the loop is closed: its streams are gone
                for subscription in subscriptions:
                    subscription.closed = True

    def count(self) -> int:
        with self._lock:
            return len(self._subscriptions)

    def close_all(self) -> None:
        """Closes every subscription: each stream ends (the process is stopping)."""
        self.dispatch(None)


class Broker(Protocol):
    hub: _Hub

    def publish(self, event: Event) -> None: ...

    async def subscribe(self) -> Subscription: ...

    async def unsubscribe(self, subscription: Subscription) -> None: ...


class InProcessBroker:
    def __init__(self) -> None:
        self.hub = _Hub()

    def publish(self, event: Event) -> None:
        self.hub.dispatch(event)

    async def subscribe(self) -> Subscription:
        subscription = Subscription(asyncio.get_running_loop())
        self.hub.add(subscription)
        return subscription

    async def unsubscribe(self, subscription: Subscription) -> None:
        self.hub.remove(subscription)


class _RedisListener:
    """One Redis subscription for one event loop, fanning out to that loop's subscribers."""

    def __init__(self, broker: RedisBroker, loop: asyncio.AbstractEventLoop) -> None:
        self.broker = broker
        self.loop = loop
        self.ready = asyncio.Event()
        self.task = loop.create_task(self._run(), name="redis-events-listener")

    async def _run(self) -> None:
        import redis.asyncio as aioredis

        backoff = 0.5
        connected_before = False
        while True:
            client = aioredis.from_url(self.broker.url)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.broker.channel)
                self.ready.set()
                if connected_before:  # events may have been missed while disconnected
                    self.broker.hub.dispatch(Event(type=RESYNC), loop=self.loop)
                connected_before = True
                backoff = 0.5
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        event = Event.from_json(message["data"])
                    except (ValueError, TypeError):
                        logger.warning("Ignoring a malformed event on %s", self.broker.channel)
                        continue
                    self.broker.hub.dispatch(event, loop=self.loop)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("Redis events subscription lost; reconnecting", exc_info=True)
                self.ready.set()  # do not hold new streams back while Redis is away
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 10.0)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task


class RedisBroker:
    def __init__(self, url: str, *, channel: str | None = None) -> None:
        self.url = url
        self.channel = channel or settings.EVENTS_CHANNEL
        self.hub = _Hub()
        self._client_lock = threading.Lock()
        self._client: Any = None
        self._listeners: dict[asyncio.AbstractEventLoop, _RedisListener] = {}

    def _sync_client(self):
        with self._client_lock:
            if self._client is None:
                # Behind the cache's circuit breaker: a write publishing to an unreachable
                # Redis waits one short timeout at most.
                self._client = redis_client(self.url, timeout=0.5)
            return self._client

    def publish(self, event: Event) -> None:
        try:
            self._sync_client().publish(self.channel, event.to_json())
        except Exception:
            logger.warning("Could not publish %s to Redis", event.type, exc_info=True)

    async def subscribe(self) -> Subscription:
        loop = asyncio.get_running_loop()
        subscription = Subscription(loop)
        self.hub.add(subscription)
        listener = self._listeners.get(loop)
        if listener is None or listener.task.done():
            listener = self._listeners[loop] = _RedisListener(self, loop)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(listener.ready.wait(), REDIS_READY_TIMEOUT_SECONDS)
        return subscription

    async def unsubscribe(self, subscription: Subscription) -> None:
        left_on_loop = self.hub.remove(subscription)
        if left_on_loop == 0:
            listener = self._listeners.pop(subscription.loop, None)
            if listener is not None:
                await listener.stop()


_brokers: dict[str, Broker] = {}
_brokers_lock = threading.Lock()


def brokers_close_subscriptions() -> None:
    """Ends every stream subscribed in this process (a graceful shutdown: they reconnect)."""
    with _brokers_lock:
        brokers = list(_brokers.values())
    for broker in brokers:
        broker.hub.close_all()


def broker_get() -> Broker:
    """The broker for the current settings: Redis when REDIS_URL is set, else in-process."""
    url = settings.REDIS_URL or ""
    key = f"{url}#{settings.EVENTS_CHANNEL}"
    with _brokers_lock:
        broker = _brokers.get(key)
        if broker is None:
            broker = _brokers[key] = RedisBroker(url) if url else InProcessBroker()
        return broker
