"""`python -m bench.prepare seed|cleanup`: the Django side of the bench, in its own process
(one per database: the settings come from the environment the bench passes).

seed: migrate, seed the data set, sign the bench employee and concierge in, and the mixed
scenario's employees; prints the targets as JSON.
cleanup: sign the bench accounts out everywhere and delete the messages the SSE scenario, the
soak and the mixed scenario added, so the data set stays as seeded.
"""

from __future__ import annotations

import dataclasses
import io
import json
import sys
import time


def seed() -> dict[str, object]:
    from django.core.management import call_command

    from bench.seed import employee_sessions
    from bench.seed import seed as seed_data_set
    from concierge.accounts.services.identity import user_sign_in

    started = time.monotonic()
    call_command("migrate", verbosity=0, interactive=False, stdout=io.StringIO())
    print(f"Migrated in {time.monotonic() - started:.1f} s.", file=sys.stderr)
    targets = seed_data_set()
    signed_in = user_sign_in(email=targets.email, password=targets.password)
    # The search scenario's concierge (the desk's search is for concierges only).
    concierge = user_sign_in(email=targets.concierge_email, password=targets.password)
    return {
        **dataclasses.asdict(targets),
        "token": signed_in.token,
        "concierge_token": concierge.token,
        "sessions": employee_sessions(),
    }


def cleanup() -> None:
    from django.utils import timezone

    from bench.seed import EMAIL_DOMAIN, replies_remove
    from concierge.accounts.models import AuthToken

    AuthToken.objects.filter(
        user__email__endswith=f"@{EMAIL_DOMAIN}", revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    removed = replies_remove()
    if removed:
        print(f"Deleted the {removed} bench messages and their queued emails.", file=sys.stderr)


def main() -> int:
    import django

    django.setup()
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "seed":
        print(json.dumps(seed()))
    elif command == "cleanup":
        cleanup()
    else:
        print("usage: python -m bench.prepare seed|cleanup", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
