"""The brokers and requests of the notifications tests drive the stream tests too."""

from concierge.notifications.tests.conftest import broker_kind, make_request

__all__ = ["broker_kind", "make_request"]
