"""Issue 25 deploy: config/nginx.conf filled in by config/nginx_template.py, over plain HTTP
(the browser tests) or HTTPS with plain HTTP redirected (production). The files it writes are
served in e2e/test_deploy.py (TLS) and every other browser test (plain HTTP)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from config.nginx_template import main, render, settings_check

SERVERS = {"API": ["10.0.0.5:8001", "10.0.0.6:8001"], "EVENTS": ["10.0.0.5:8002"]}
TLS = {
    "LISTEN": ["80"],
    "LISTEN_TLS": ["443"],
    "TLS_CERTIFICATE": ["/etc/ssl/concierge.pem"],
    "TLS_CERTIFICATE_KEY": ["/etc/ssl/concierge.key"],
    "PUBLIC_URL": ["https://concierge.example.com"],
    "ACME_WEBROOT": ["/var/lib/concierge-nginx/acme"],
    **SERVERS,
}


def test_a_line_is_written_once_per_value_and_left_out_without_one() -> None:
    """Issue 25 deploy: one `server` line per node; the TLS lines only with TLS."""
    plain = render({"LISTEN": ["127.0.0.1:8080"], **SERVERS})
    assert "server 10.0.0.5:8001 max_fails=3" in plain
    assert "server 10.0.0.6:8001 max_fails=3" in plain
    assert "listen 127.0.0.1:8080;" in plain
    for absent in ("ssl_certificate", " ssl http2", "return 301", "acme-challenge/ {", "{{"):
        assert absent not in plain

    tls = render(TLS)
    assert "listen 80;" in tls
    assert "listen 443 ssl http2;" in tls
    assert "ssl_certificate /etc/ssl/concierge.pem;" in tls
    assert "ssl_certificate_key /etc/ssl/concierge.key;" in tls
    assert "return 301 https://concierge.example.com$request_uri;" in tls
    assert "location ^~ /.well-known/acme-challenge/ { root /var/lib/concierge-nginx/acme; }" in tls
    assert "client_max_body_size 25m;" in tls
    # Reply by email's webhook takes an email as large as INBOUND_EMAIL_MAX_BYTES (30 MB).
    webhook = tls[tls.index("location ^~ /inbound/mailgun {") :]
    assert "client_max_body_size 32m;" in webhook[: webhook.index("}")]
    assert "add_header Strict-Transport-Security $strict_transport_security always;" in tls
    assert "{{" not in tls


def test_unknown_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="Unknown nginx template settings: LISTEN_HTTPS"):
        render({"LISTEN_HTTPS": ["443"], **SERVERS})
    with pytest.raises(ValueError, match="unknown setting NOPE"):
        render({}, template="listen {{NOPE}};\n")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"API": []}, "one API server"),
        ({"LISTEN": [], "LISTEN_TLS": []}, "address to listen on"),
        ({"TLS_CERTIFICATE_KEY": []}, "needs --tls-certificate and --tls-certificate-key"),
        ({"PUBLIC_URL": []}, "give --public-url"),
        ({"PUBLIC_URL": ["http://concierge.example.com"]}, "one https:// URL"),
        ({"LISTEN": [], "PUBLIC_URL": []}, "challenges are answered over plain HTTP"),
    ],
)
def test_settings_that_would_serve_nothing_are_refused(change: dict, message: str) -> None:
    """Issue 25 deploy: HTTPS without a key, plain HTTP beside HTTPS with nowhere to redirect."""
    with pytest.raises(ValueError, match=message):
        settings_check({**TLS, **change})


@pytest.mark.skipif(
    not shutil.which("nginx") and not shutil.which("/usr/sbin/nginx"), reason="nginx"
)
def test_the_written_file_is_valid_nginx(tmp_path) -> None:
    """Issue 25 deploy: `python -m config.nginx_template` writes a file `nginx -t` accepts, with
    a certificate made here."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        capture_output=True,
    )  # fmt: skip
    if made.returncode != 0:
        pytest.skip("openssl could not make a certificate")
    conf = tmp_path / "nginx.conf"
    main(
        [
            "--listen", "127.0.0.1:8080", "--listen-tls", "127.0.0.1:8443",
            "--tls-certificate", str(cert), "--tls-certificate-key", str(key),
            "--public-url", "https://localhost:8443", "--acme-webroot", str(tmp_path),
            "--api", "127.0.0.1:8001", "--events", "127.0.0.1:8002", "-o", str(conf),
        ]
    )  # fmt: skip
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    checked = subprocess.run(
        [nginx, "-t", "-q", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
