"""Django settings. Every value comes from the environment (see README: Configuration)."""

from __future__ import annotations

import ipaddress
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit
from wsgiref.headers import Headers

import dj_database_url
from corsheaders.defaults import default_headers
from django.core.exceptions import ImproperlyConfigured

from concierge.common.logs import LOG_LEVELS, logging_config
from config.env import (
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_origins,
    env_str,
    env_url,
    parse_email_url,
    parse_rate_limits,
)
from config.process_role import serving_web
from config.vapid import vapid_keys_check

BACKEND_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = BACKEND_DIR.parent
VAR_DIR = Path(env_str("VAR_DIR", str(REPO_DIR / "var")))
SPA_DIST_DIR = Path(env_str("SPA_DIST_DIR", str(REPO_DIR / "frontend" / "dist")))

DEBUG = env_bool("DEBUG", False)


def _secret_key() -> str:
    key = env_str("SECRET_KEY")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key_file.write_text(secrets.token_urlsafe(50))
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
PRODUCT_NAME = env_str("PRODUCT_NAME", "Concierge")
PUBLIC_URL = env_url("PUBLIC_URL", "http://127.0.0.1:8000")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must name at least one host when DEBUG is off")
CSRF_TRUSTED_ORIGINS = [PUBLIC_URL]
SUPPORT_EMAIL = env_str("SUPPORT_EMAIL", "support@example.com")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"{PRODUCT_NAME} <no-reply@example.com>")
INTERNAL_COMPANY_NAMES = env_list("INTERNAL_COMPANY_NAMES", "Concierge HQ,Concierge Labs")

INSTALLED_APPS = [
    "concierge.accounts.apps.ConciergeAdminConfig",  # django.contrib.admin, our sign-in
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "corsheaders",
    "django.contrib.staticfiles",
    "django_tasks",
    "django_tasks_db",
    "concierge.common",
    "concierge.accounts",
    "concierge.notifications",
    "concierge.audit",
    "concierge.surveys",
    "concierge.offerings",
    "concierge.servicerequests",
    "concierge.uploads",
    "concierge.service_levels",
    "concierge.satisfaction",
    "concierge.saved_replies",
    "concierge.notification_settings",
    "concierge.company_reports",
    "concierge.sso",
    "concierge.provisioning",
    "concierge.inbound_email",
    "concierge.concierge_desk",
    "concierge.privacy",
    "concierge.live",
    "concierge.demo",
]

MIDDLEWARE = [
    "concierge.common.middleware.RequestBodyDrainMiddleware",  # first: it sees every answer
    # The request id, the request's log line and metrics (docs/operations/monitoring.md).
    "concierge.common.observability.RequestObservabilityMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "concierge.common.middleware.SecurityHeadersMiddleware",
    "concierge.common.middleware.ApiCompressionMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The client address for audit events written by services (concierge.audit).
    "concierge.audit.middleware.AuditContextMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BACKEND_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'concierge.sqlite3'}")
try:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
except Exception as exc:  # dj_database_url raises several error types for a bad URL
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from exc
ON_POSTGRESQL = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
if ON_POSTGRESQL:
    # Django's backend, with timestamps read by psycopg's C loader (common/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "concierge.common.postgresql"
    # Under ASGI every request runs in its own thread, so persistent connections would pile up:
    # a bounded pool per process instead (keep workers x DB_POOL_MAX under max_connections).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Server-side binding lets psycopg prepare the statements a pooled connection runs again
    # and again (the session lookup, the lists): PostgreSQL then skips planning them, about a
    # sixth of a list request's time (`make bench`). Not for a transaction-pooling proxy.
    # Django turns psycopg's preparing off unless `prepare_threshold` is set: the fifth run of
    # a statement on a connection prepares it.
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 1, "max_size": env_int("DB_POOL_MAX", 10), "timeout": 10},
        "server_side_binding": env_bool("DB_SERVER_SIDE_BINDING", True),
        "prepare_threshold": 5 if env_bool("DB_SERVER_SIDE_BINDING", True) else None,
    }
# Web requests stop any SQL statement running longer than this, so no query holds a worker
# and a database connection for long: the API answers 504 with a message (config/api.py).
# 0: no limit. Only in the API and events servers (config.process_role): migrations, the task
# worker and other management commands run without it. PostgreSQL only.
DB_STATEMENT_TIMEOUT_MS = env_int("DB_STATEMENT_TIMEOUT_MS", 5000)
if DB_STATEMENT_TIMEOUT_MS < 0:
    raise ImproperlyConfigured("DB_STATEMENT_TIMEOUT_MS must be 0 (no limit) or more")
if serving_web() and DB_STATEMENT_TIMEOUT_MS and ON_POSTGRESQL:
    # Set as each pooled connection opens: nothing more per request.
    DATABASES["default"]["OPTIONS"]["options"] = f"-c statement_timeout={DB_STATEMENT_TIMEOUT_MS}"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    if DATABASE_URL.startswith("sqlite:///") and ":memory:" not in DATABASE_URL:
        Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
PASSWORD_HASHERS = [
    "concierge.accounts.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 6},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "concierge.accounts.password_validation.NotTheCurrentPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "static")))
# The built SPA (frontend/dist) is served from the site root by whitenoise, with the brotli and
# gzip variants `make build` writes beside each file. Hashed assets never change: cached for a
# year; anything else for an hour, and index.html (also served by the SPA view) revalidated.
WHITENOISE_ROOT = SPA_DIST_DIR if SPA_DIST_DIR.exists() else None
WHITENOISE_MAX_AGE = 3600
WHITENOISE_IMMUTABLE_FILE_TEST = r"^.+[.-][0-9a-zA-Z_-]{8,12}\..+$"
IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable"


def _static_cache_headers(headers: Headers, path: str, url: str) -> None:
    if "immutable" in headers.get("Cache-Control", ""):
        headers["Cache-Control"] = IMMUTABLE_CACHE_CONTROL
    elif url.endswith(".html"):
        headers["Cache-Control"] = "no-cache"


WHITENOISE_ADD_HEADERS_FUNCTION = _static_cache_headers
# The web app's manifest (issue 28) under its registered type.
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media")))
MEDIA_URL = "/media/"

# Uploads (ARCHITECTURE.md §5): local disk under MEDIA_ROOT behind our own signed URLs by
# default; an S3-compatible bucket with presigned URLs when STORAGE=s3. The bucket needs a CORS
# rule allowing PUT from PUBLIC_URL. S3 keys may be left empty to use the AWS default chain.
STORAGE = env_choice("STORAGE", "local", ("local", "s3"))
S3_BUCKET = env_str("S3_BUCKET", "")
S3_ENDPOINT_URL = env_url("S3_ENDPOINT_URL", "")
S3_ACCESS_KEY_ID = env_str("S3_ACCESS_KEY_ID", "")
S3_SECRET_ACCESS_KEY = env_str("S3_SECRET_ACCESS_KEY", "")
S3_REGION = env_str("S3_REGION", "us-east-1")
if STORAGE == "s3" and not S3_BUCKET:
    raise ImproperlyConfigured("S3_BUCKET must be set when STORAGE=s3")
if bool(S3_ACCESS_KEY_ID) != bool(S3_SECRET_ACCESS_KEY):
    raise ImproperlyConfigured("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together")


def upload_storage_config(
    storage: str, *, bucket: str, endpoint_url: str, access_key: str, secret_key: str, region: str
) -> dict:
    """The `STORAGES["uploads"]` entry for STORAGE=local (files under MEDIA_ROOT) or s3."""
    if storage == "local":
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint_url or None,
            "access_key": access_key or None,
            "secret_key": secret_key or None,
            "region_name": region or None,
            "default_acl": None,
            "file_overwrite": True,
            "querystring_auth": True,
            "signature_version": "s3v4",
            # S3-compatible servers (MinIO, moto, ...) at a custom endpoint expect path-style URLs.
            "addressing_style": "path" if endpoint_url else None,
        },
    }


STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "uploads": upload_storage_config(
        STORAGE,
        bucket=S3_BUCKET,
        endpoint_url=S3_ENDPOINT_URL,
        access_key=S3_ACCESS_KEY_ID,
        secret_key=S3_SECRET_ACCESS_KEY,
        region=S3_REGION,
    ),
}
UPLOAD_MAX_BYTES = 26214400  # spec §9: 25 MB
UPLOAD_PUT_URL_TTL_SECONDS = 15 * 60
UPLOAD_GET_URL_TTL_SECONDS = 5 * 60

# GET /api/v1/health/ready and the upload endpoint ask the file storage (a probe object written
# and deleted) and the mail server (connect and greeting) at most once per
# READINESS_CACHE_SECONDS in each process, each probe giving up after READINESS_TIMEOUT_SECONDS.
READINESS_CACHE_SECONDS = env_float("READINESS_CACHE_SECONDS", 10.0)
READINESS_TIMEOUT_SECONDS = env_float("READINESS_TIMEOUT_SECONDS", 3.0)
if READINESS_CACHE_SECONDS < 0 or READINESS_TIMEOUT_SECONDS <= 0:
    raise ImproperlyConfigured(
        "READINESS_CACHE_SECONDS must be 0 or more and READINESS_TIMEOUT_SECONDS more than 0"
    )

REDIS_URL = env_url("REDIS_URL", "", schemes=("redis", "rediss"))
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "concierge.common.cache.RedisCache",
            "LOCATION": REDIS_URL,
            # A Redis outage must cost a request milliseconds, not a hang (callers degrade).
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# After a Redis call times out or cannot connect, every Redis call of the process is skipped
# for this long (common.cache): a request never waits on an unreachable Redis more than once.
REDIS_BREAKER_SECONDS = env_int("REDIS_BREAKER_SECONDS", 5)
# CACHED_READS=true: an employee's request lists and threads are answered from the cache while
# the read version the database gives with the session is the one they were stored under
# (concierge/common/read_cache.py). Off by default: on a realistic mix of reads and writes it
# saves no CPU (README: Benchmarks, the mixed scenario).
CACHED_READS = env_bool("CACHED_READS", False)

# Live events (Server-Sent Events at /api/v1/events): Redis pub/sub between processes when
# REDIS_URL is set, an in-process broker otherwise (right for one process only).
# The Redis pub/sub channel (one per deployment sharing a Redis server).
EVENTS_CHANNEL = env_str("EVENTS_CHANNEL", "concierge:events")
# The audit trail (concierge.audit): entries older than this many days are pruned daily.
AUDIT_RETENTION_DAYS = env_int("AUDIT_RETENTION_DAYS", 400)
# A concierge's opening of the same request (thread, attachment, profile) is recorded once per
# this many seconds, not per poll.
AUDIT_OPENING_WINDOW_SECONDS = env_int("AUDIT_OPENING_WINDOW_SECONDS", 600)
# Only to measure the audit trail's cost (`make bench`'s granian-audit-off layout): never off
# in production.
AUDIT_LOG_ENABLED = env_bool("AUDIT_LOG_ENABLED", True)
EVENTS_HEARTBEAT_SECONDS = env_int("EVENTS_HEARTBEAT_SECONDS", 15)
EVENTS_TICKET_TTL_SECONDS = 60
EVENTS_MAX_STREAM_SECONDS = env_int("EVENTS_MAX_STREAM_SECONDS", 3600)

# Background tasks: django-tasks on the django-tasks-db database backend. Production runs
# `manage.py task_worker` (the library's db_worker plus recovery of tasks whose worker died);
# with TASKS_IN_PROCESS (default: on when DEBUG) the app process runs that worker in a thread.
# A failed task is retried TASKS_MAX_ATTEMPTS times in all, after 30 s, 1 min, 2 min, ...
# (at most TASKS_RETRY_MAX_DELAY_SECONDS); a task still running after TASKS_STALE_SECONDS is
# taken to have lost its worker and runs again.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
TASKS_IN_PROCESS = env_bool("TASKS_IN_PROCESS", DEBUG)
TASKS_POLL_SECONDS = env_int("TASKS_POLL_SECONDS", 1)
TASKS_MAX_ATTEMPTS = env_int("TASKS_MAX_ATTEMPTS", 8)
TASKS_RETRY_DELAY_SECONDS = env_int("TASKS_RETRY_DELAY_SECONDS", 30)
TASKS_RETRY_MAX_DELAY_SECONDS = env_int("TASKS_RETRY_MAX_DELAY_SECONDS", 3600)
TASKS_STALE_SECONDS = env_int("TASKS_STALE_SECONDS", 15 * 60)
for _name in (
    "EVENTS_HEARTBEAT_SECONDS",
    "TASKS_POLL_SECONDS",
    "TASKS_MAX_ATTEMPTS",
    "TASKS_RETRY_DELAY_SECONDS",
    "TASKS_RETRY_MAX_DELAY_SECONDS",
    "TASKS_STALE_SECONDS",
):
    if globals()[_name] < 1:
        raise ImproperlyConfigured(f"{_name} must be at least 1")

# The employee's email about a concierge's reply waits this long and is skipped when the
# employee has opened the request by then.
REPLY_NOTIFICATION_DELAY_SECONDS = env_int("REPLY_NOTIFICATION_DELAY_SECONDS", 300)
if REPLY_NOTIFICATION_DELAY_SECONDS < 0:
    raise ImproperlyConfigured("REPLY_NOTIFICATION_DELAY_SECONDS must be 0 or more")

# Web push (issue 28): the VAPID key pair (base64url: the raw 32-byte private key, and the
# uncompressed public point, derived when unset) and the contact the push services see
# (mailto: or https:; PUBLIC_URL when unset). No private key: push is unavailable.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "")
vapid_keys_check(VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY)

# Completing a request can be undone for COMPLETION_UNDO_SECONDS (the desk offers Undo for 6 s
# of them; the rest covers a slow network). The completion email waits
# COMPLETION_EMAIL_DELAY_SECONDS, longer than that, and is skipped when the completion it was
# queued for was undone or replaced by a later one by then (0: queued at once, as the tests do).
COMPLETION_UNDO_SECONDS = env_int("COMPLETION_UNDO_SECONDS", 10)
COMPLETION_EMAIL_DELAY_SECONDS = env_int("COMPLETION_EMAIL_DELAY_SECONDS", 15)
if COMPLETION_UNDO_SECONDS < 0 or COMPLETION_EMAIL_DELAY_SECONDS < 0:
    raise ImproperlyConfigured(
        "COMPLETION_UNDO_SECONDS and COMPLETION_EMAIL_DELAY_SECONDS must be 0 or more"
    )
if 0 < COMPLETION_EMAIL_DELAY_SECONDS <= COMPLETION_UNDO_SECONDS:
    raise ImproperlyConfigured(
        "COMPLETION_EMAIL_DELAY_SECONDS must be longer than COMPLETION_UNDO_SECONDS (or 0)"
    )

# How long the completion email's one-tap rating links work.
RATING_LINK_MAX_AGE_SECONDS = env_int("RATING_LINK_MAX_AGE_SECONDS", 14 * 24 * 3600)
if RATING_LINK_MAX_AGE_SECONDS < 60:
    raise ImproperlyConfigured("RATING_LINK_MAX_AGE_SECONDS must be 60 or more")

# Reply by email (docs/operations/reply-by-email.md): the notification emails about a request
# carry a Reply-To reply+<token>@REPLY_DOMAIN, and mail to it becomes the employee's message in
# the thread. Empty: off (no Reply-To; inbound mail is refused).
REPLY_DOMAIN = env_str("REPLY_DOMAIN", "").strip().lower().lstrip("@")
# How long a reply address works after its email was sent.
REPLY_TOKEN_MAX_AGE_DAYS = env_int("REPLY_TOKEN_MAX_AGE_DAYS", 30)
if REPLY_TOKEN_MAX_AGE_DAYS < 1:
    raise ImproperlyConfigured("REPLY_TOKEN_MAX_AGE_DAYS must be 1 or more")
# The largest inbound email taken (the whole message, attachments included).
INBOUND_EMAIL_MAX_BYTES = env_int("INBOUND_EMAIL_MAX_BYTES", 30 * 1024 * 1024)
if INBOUND_EMAIL_MAX_BYTES < 1024:
    raise ImproperlyConfigured("INBOUND_EMAIL_MAX_BYTES must be 1024 or more")
# The provider webhook (Mailgun's inbound route, forward() to /inbound/mailgun/): its signing
# key verifies every request (empty: the webhook answers 404); the optional basic-auth secret
# ('user:password' in the route's URL) is checked too when set.
ANYMAIL = {
    "MAILGUN_WEBHOOK_SIGNING_KEY": env_str("MAILGUN_WEBHOOK_SIGNING_KEY", ""),
    "WEBHOOK_SECRET": env_str("INBOUND_EMAIL_WEBHOOK_SECRET", ""),
}

# Mail and SMS: the outbox folder by default, one file per message.
OUTBOX_DIR = Path(env_str("OUTBOX_DIR", str(VAR_DIR / "outbox")))
EMAIL_URL = env_str("EMAIL_URL", "")
if EMAIL_URL:
    _email = parse_email_url(
        EMAIL_URL, use_tls=env_bool("EMAIL_USE_TLS") if "EMAIL_USE_TLS" in os.environ else None
    )
    EMAIL_BACKEND = _email["EMAIL_BACKEND"]
    EMAIL_HOST = _email["EMAIL_HOST"]
    EMAIL_PORT = _email["EMAIL_PORT"]
    EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
    EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
    EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
    EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
    EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"]
else:
    EMAIL_BACKEND = "concierge.notifications.backends.OutboxEmailBackend"
SMS_BACKEND = env_choice("SMS_BACKEND", "outbox", ("outbox",))

# Account security (ARCHITECTURE.md §5).
AUTH_TOKEN_TTL_SECONDS = env_int("AUTH_TOKEN_TTL_SECONDS", 14 * 24 * 3600)
LOCKOUT_MAX_ATTEMPTS = 10
LOCKOUT_SECONDS = 3600
PASSWORD_RESET_TTL_SECONDS = 6 * 3600
OTP_TTL_SECONDS = 600
EMAIL_VERIFICATION_TTL_SECONDS = 3 * 24 * 3600
OTP_MAX_ATTEMPTS = 5
# Wrong codes per account per hour, across resends (each resend would grant 5 new tries).
OTP_MAX_ATTEMPTS_PER_HOUR = 10
# Account emails (password reset, unlock, email confirmation, sign-up notice) sent to one
# account per kind and hour, whoever asks from wherever; past it requests answer as usual and
# nothing is sent. Counted in the database, so it holds without Redis.
ACCOUNT_EMAILS_PER_HOUR = env_int("ACCOUNT_EMAILS_PER_HOUR", 3)
if ACCOUNT_EMAILS_PER_HOUR < 1:
    raise ImproperlyConfigured("ACCOUNT_EMAILS_PER_HOUR must be 1 or more")
# Authenticator-app secrets are encrypted at rest with this key (any string; by default one
# derived from SECRET_KEY, so rotating SECRET_KEY then means re-enrolling authenticator apps).
MFA_ENCRYPTION_KEY = env_str("MFA_ENCRYPTION_KEY") or f"derived:{SECRET_KEY}"
# Passkeys (WebAuthn) are bound to the host of PUBLIC_URL (its "relying party ID", which must
# be a domain name: browsers refuse IP addresses) and accepted from its origin only.
WEBAUTHN_RP_ID = env_str("WEBAUTHN_RP_ID") or (urlsplit(PUBLIC_URL).hostname or "localhost")
WEBAUTHN_ORIGIN = urlsplit(PUBLIC_URL)._replace(path="", query="", fragment="").geturl()
RATE_LIMITS = parse_rate_limits(
    env_str(
        "RATE_LIMITS",
        "sign_in=20/60,sign_up=10/60,password=10/60,otp=10/60,message=30/60,rating=20/60,"
        "inbound_email=20/3600",
    )
)
if RATE_LIMITS is not None:
    # Emails taken into threads per employee (reply by email), also when RATE_LIMITS names
    # only the others.
    RATE_LIMITS.setdefault("inbound_email", (20, 3600))

# Load balancers / reverse proxies whose X-Forwarded-For is believed (addresses or networks,
# e.g. "10.0.0.0/8"). Empty: the socket peer is the client. The app server must not rewrite
# the peer from headers itself (uvicorn --no-proxy-headers; see README: Production).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "")
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as _exc:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES must list IP addresses or networks, got {_proxy!r}"
        ) from _exc

# The terms of use and privacy policy linked from sign-up and the footer (spec §2 SignUp).
TERMS_URL = env_url("TERMS_URL", "https://www.example.com/terms")
PRIVACY_URL = env_url("PRIVACY_URL", "https://www.example.com/privacy")

# The web app on other origins (spec §5 VITE_API_BASE_URL: the API may live elsewhere): those
# origins may call the API, send its headers and read the sign-in and MFA tokens it answers with.
CORS_ALLOWED_ORIGINS = env_origins("CORS_ALLOWED_ORIGINS")
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_HEADERS = (*default_headers, "mfa-token")
CORS_EXPOSE_HEADERS = ("Authorization", "mfa-token")
CORS_PREFLIGHT_MAX_AGE = 3600

# External partner quote sites for /products/{product} (spec §2 route table).
PARTNER_QUOTE_BASE_URL = env_url("PARTNER_QUOTE_BASE_URL", "https://quotes.example.com")

# Error reporting (spec §8): server errors to Sentry when SENTRY_DSN is set, scrubbed of
# request contents (concierge/common/reporting.py).
SENTRY_DSN = env_str("SENTRY_DSN", "")
SENTRY_ENVIRONMENT = env_str("SENTRY_ENVIRONMENT", "development" if DEBUG else "production")
SENTRY_TRACES_SAMPLE_RATE = env_float("SENTRY_TRACES_SAMPLE_RATE", 1.0)
if not 0 <= SENTRY_TRACES_SAMPLE_RATE <= 1:
    raise ImproperlyConfigured("SENTRY_TRACES_SAMPLE_RATE must be between 0 and 1")

# Security headers; the production profile is DEBUG off.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# The web app may also reach an API on another origin (API_ORIGINS: what VITE_API_BASE_URL
# names, when it is not https) and, only when configured, the analytics tag's origins
# (ANALYTICS_ORIGINS: where VITE_ANALYTICS_SCRIPT_URL loads from and where it reports).
API_ORIGINS = env_origins("API_ORIGINS")
ANALYTICS_ORIGINS = env_origins("ANALYTICS_ORIGINS", wildcard=True)


def _sources(*extra: list[str]) -> str:
    return "".join(f" {origin}" for origins in extra for origin in origins)


CONTENT_SECURITY_POLICY = (
    f"default-src 'self'; script-src 'self'{_sources(ANALYTICS_ORIGINS)}; "
    "style-src 'self' 'unsafe-inline'; "
    f"img-src 'self' data: blob: https:{_sources(ANALYTICS_ORIGINS)}; font-src 'self' data:; "
    f"connect-src 'self' https:{_sources(API_ORIGINS, ANALYTICS_ORIGINS)}; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"
)
# Load balancers check health over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health", r"^metrics$"]
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# Logs and metrics (docs/operations/monitoring.md): one line per record on standard error,
# JSON unless DEBUG (LOG_FORMAT=text for people), with the request id and user id. /metrics
# answers a scrape bearing METRICS_TOKEN (a 404 without it); PROMETHEUS_MULTIPROC_DIR, one
# directory shared by a node's processes, makes it report the whole node.
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in LOG_LEVELS:
    raise ImproperlyConfigured(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
LOG_FORMAT = env_choice("LOG_FORMAT", "text" if DEBUG else "json", ("json", "text"))
LOGGING = logging_config(log_format=LOG_FORMAT, level=LOG_LEVEL)
LOGGING_CONFIG = "concierge.common.logs.logging_configure"
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
if METRICS_TOKEN and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 16 characters long")
PROMETHEUS_MULTIPROC_DIR = env_str("PROMETHEUS_MULTIPROC_DIR", "")
if PROMETHEUS_MULTIPROC_DIR and not os.access(PROMETHEUS_MULTIPROC_DIR, os.W_OK | os.X_OK):
    raise ImproperlyConfigured(
        "PROMETHEUS_MULTIPROC_DIR must name an existing directory this process can write to"
    )

from concierge.common.reporting import error_reporting_init  # noqa: E402

error_reporting_init(
    dsn=SENTRY_DSN,
    environment=SENTRY_ENVIRONMENT,
    traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE,
)
