"""Test settings: the real settings with fast hashing and a throwaway outbox."""

import os
import tempfile
from pathlib import Path

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("RATE_LIMITS", "off")
os.environ.setdefault("OUTBOX_DIR", tempfile.mkdtemp(prefix="outbox-"))
# Tests run the task worker themselves (`task_worker --batch`), never in a background thread.
os.environ.setdefault("TASKS_IN_PROCESS", "false")

from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="media-"))
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not shared-cache memory, so the browser tests' live server thread can write too.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
