"""The brokers of the notifications tests drive the stream tests too."""

from concierge.notifications.tests.conftest import broker_kind

__all__ = ["broker_kind"]
