"""`make bench`: the API's floor, request list and thread latency at fixed rates, capacity, CPU
per request, sign-in under load and live-event latency, for each server layout side by side
(README: Benchmarks).

Seeds PostgreSQL (10,000 requests, 100,000 messages) and the embedded default's SQLite file
with the same data set, starts every layout (`bench.layouts`), then runs each scenario on each
layout in turn. Capacity is measured with wrk; the fixed rates with a lean open-loop generator
(`bench.load`); each figure is printed with the load average of the moment.
"""
