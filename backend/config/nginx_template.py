"""config/nginx.conf is a template; this fills it in.

A line naming a setting in double braces (`{{API}}`) is written once per value of that
setting, the braces replaced by the value, and left out when the setting has no value. So one
file fronts one node or several (a `server` line per API or events server) and serves plain
HTTP only (the browser tests; TLS ended by a balancer in front) or HTTPS with its HTTP
listener redirecting to it.

| setting | values |
| --- | --- |
| LISTEN | plain-HTTP addresses (`80`, `127.0.0.1:8080`); with TLS, they answer the health checks and redirect every other request to PUBLIC_URL |
| LISTEN_TLS | HTTPS addresses (`443`) |
| TLS_CERTIFICATE, TLS_CERTIFICATE_KEY | the certificate (chain) and key files, PEM |
| PUBLIC_URL | the app's PUBLIC_URL (`https://concierge.example.com`), where plain HTTP redirects to |
| ACME_WEBROOT | a folder whose `.well-known/acme-challenge/` files are served over plain HTTP (certbot's `--webroot -w`) |
| API, EVENTS | the API (granian) and events (uvicorn) servers, `host:port` each |

For an operator, from backend/:

    ../.venv/bin/python -m config.nginx_template --listen 80 --listen-tls 443 \\
        --tls-certificate /etc/letsencrypt/live/concierge.example.com/fullchain.pem \\
        --tls-certificate-key /etc/letsencrypt/live/concierge.example.com/privkey.pem \\
        --public-url https://concierge.example.com --acme-webroot /var/lib/concierge-nginx/acme \\
        --api 10.0.0.5:8001 --api 10.0.0.6:8001 --events 10.0.0.5:8002 --events 10.0.0.6:8002 \\
        -o /etc/concierge/nginx.conf
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf"
SETTINGS = (
    "LISTEN",
    "LISTEN_TLS",
    "TLS_CERTIFICATE",
    "TLS_CERTIFICATE_KEY",
    "PUBLIC_URL",
    "ACME_WEBROOT",
    "API",
    "EVENTS",
)
_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")


def render(values: Mapping[str, Sequence[str]], template: str | None = None) -> str:
    """The template with each line naming a setting written once per value of it (none: the
    line is left out). A name the template does not know is an error."""
    if unknown := set(values) - set(SETTINGS):
        raise ValueError(f"Unknown nginx template settings: {', '.join(sorted(unknown))}")
    text = TEMPLATE.read_text() if template is None else template
    lines = []
    for line in text.splitlines(keepends=True):
        names = set(_PLACEHOLDER.findall(line))
        if not names:
            lines.append(line)
            continue
        if len(names) > 1:
            raise ValueError(f"A template line names one setting at most: {line.strip()}")
        name = names.pop()
        if name not in SETTINGS:
            raise ValueError(f"The template names an unknown setting {name}: {line.strip()}")
        lines.extend(line.replace("{{" + name + "}}", value) for value in values.get(name, ()))
    return "".join(lines)


def settings_check(values: Mapping[str, Sequence[str]]) -> None:
    """Refuses settings that would make nginx fail to start or serve nothing useful."""
    if not values.get("API") or not values.get("EVENTS"):
        raise ValueError("Name at least one API server and one events server (--api, --events)")
    if not values.get("LISTEN") and not values.get("LISTEN_TLS"):
        raise ValueError("Name an address to listen on (--listen, --listen-tls)")
    tls_files = [name for name in ("TLS_CERTIFICATE", "TLS_CERTIFICATE_KEY") if values.get(name)]
    if values.get("LISTEN_TLS") and len(tls_files) < 2:
        raise ValueError("HTTPS needs --tls-certificate and --tls-certificate-key")
    if tls_files and not values.get("LISTEN_TLS"):
        raise ValueError("A certificate without --listen-tls serves nothing over HTTPS")
    url = values.get("PUBLIC_URL", [])
    if url and not (len(url) == 1 and url[0].startswith("https://")):
        raise ValueError("--public-url must be one https:// URL (the app's PUBLIC_URL)")
    if url and not values.get("LISTEN_TLS"):
        raise ValueError("Redirecting to PUBLIC_URL needs nginx to serve HTTPS (--listen-tls)")
    if values.get("ACME_WEBROOT") and not values.get("LISTEN"):
        raise ValueError("Certificate challenges are answered over plain HTTP: give --listen")
    if values.get("LISTEN") and values.get("LISTEN_TLS") and not url:
        raise ValueError(
            "With both --listen and --listen-tls, give --public-url: plain HTTP redirects there"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m config.nginx_template",
        description="Writes config/nginx.conf filled in: nginx in front of the API and events "
        "servers, over HTTPS with plain HTTP redirected to it (health checks excepted), or "
        "over plain HTTP only.",
    )
    parser.add_argument("--listen", action="append", default=[], help="plain-HTTP address")
    parser.add_argument("--listen-tls", action="append", default=[], help="HTTPS address")
    parser.add_argument("--tls-certificate", help="certificate chain file (PEM)")
    parser.add_argument("--tls-certificate-key", help="private key file (PEM)")
    parser.add_argument("--public-url", help="https://… (the app's PUBLIC_URL)")
    parser.add_argument(
        "--acme-webroot", help="folder of certbot's challenges (certbot certonly --webroot -w)"
    )
    parser.add_argument("--api", action="append", default=[], help="API server host:port")
    parser.add_argument("--events", action="append", default=[], help="events server host:port")
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    options = parser.parse_args(argv)
    values = {
        "LISTEN": options.listen,
        "LISTEN_TLS": options.listen_tls,
        "TLS_CERTIFICATE": [options.tls_certificate] if options.tls_certificate else [],
        "TLS_CERTIFICATE_KEY": [options.tls_certificate_key] if options.tls_certificate_key else [],
        "PUBLIC_URL": [options.public_url.rstrip("/")] if options.public_url else [],
        "ACME_WEBROOT": [options.acme_webroot] if options.acme_webroot else [],
        "API": options.api,
        "EVENTS": options.events,
    }
    try:
        settings_check(values)
    except ValueError as exc:
        parser.error(str(exc))
    text = render(values)
    if options.output:
        Path(options.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
