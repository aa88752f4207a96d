"""Password hashing: argon2id with parameters chosen for sign-in under load (README: Benchmarks)."""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher as DjangoArgon2PasswordHasher


class Argon2PasswordHasher(DjangoArgon2PasswordHasher):
    """argon2id at OWASP's recommended setting: 19 MiB of memory, 2 passes, 1 lane.

    Django's default (100 MiB, 8 lanes) costs about 240 ms of CPU per sign-in here, so 5
    sign-ins a second would take more than half of a 2-core server; these parameters cost about
    28 ms. Hashes made with other parameters still verify and are upgraded at the next sign-in.
    The algorithm name stays "argon2".
    """

    time_cost = 2
    memory_cost = 19 * 1024  # KiB
    parallelism = 1
