"""Test settings: the real settings with fast hashing and a throwaway outbox."""

import os
import tempfile

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("RATE_LIMITS", "off")
os.environ.setdefault("OUTBOX_DIR", tempfile.mkdtemp(prefix="outbox-"))
# From the environment: the browser tests' server processes share the test process's folder.
os.environ.setdefault("MEDIA_ROOT", tempfile.mkdtemp(prefix="media-"))
# Tests run the task worker themselves (`task_worker --batch`), never in a background thread.
os.environ.setdefault("TASKS_IN_PROCESS", "false")
# The completion email is queued at once; the tests of its delay and of Undo set their own.
os.environ.setdefault("COMPLETION_EMAIL_DELAY_SECONDS", "0")
# Every readiness question probes the storage and the mail server again (tests of the kept
# answer set their own).
os.environ.setdefault("READINESS_CACHE_SECONDS", "0")

from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if os.environ.get("TEST_SERVER_CACHE_PREFIX") and REDIS_URL:  # noqa: F405
    # The browser tests' server processes (several, as in production) share one cache.
    CACHES = {
        "default": {
            "BACKEND": "concierge.common.cache.RedisCache",
            "LOCATION": REDIS_URL,  # noqa: F405
            "KEY_PREFIX": os.environ["TEST_SERVER_CACHE_PREFIX"],
        }
    }
    # Test runs sharing one Redis server never hear each other's events.
    EVENTS_CHANNEL = f"{os.environ['TEST_SERVER_CACHE_PREFIX']}:events"

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not shared-cache memory, so the browser tests' server processes can use it too.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}  # noqa: F405
