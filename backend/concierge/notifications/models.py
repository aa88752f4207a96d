"""Notifications keep no tables of their own: background tasks live in django-tasks-db's
`DBTaskResult` (see `concierge.notifications.background`)."""
