"""gunicorn for the request/response API in production (README: Production).

Threads let a worker answer other requests while one waits on the database or on argon2;
2 workers x 4 threads suits 2 cores (API_WORKERS, API_THREADS). The event stream is not served
here: the load balancer sends /api/v1/events to the ASGI server (uvicorn).
"""

import os

bind = os.environ.get("API_BIND", "127.0.0.1:8001")
workers = int(os.environ.get("API_WORKERS", "2"))
threads = int(os.environ.get("API_THREADS", "4"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = None
