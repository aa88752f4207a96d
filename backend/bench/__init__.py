"""`make bench`: latency of the request endpoints under a fixed request rate (issue #3), and
of live events (issue #5).

Seeds a PostgreSQL database (10,000 requests, 100,000 messages), starts the real ASGI server
(uvicorn) on 127.0.0.1 and measures GET /api/v1/requests/open and GET /api/v1/requests/{id}
against GET /api/v1/health, the floor of the same stack. Then, on a server with Redis pub/sub
between its workers, the time from a concierge's reply POST to its event on the employee's
open stream (`bench.sse`). See README: Benchmarks.
"""
