"""Issue 8 (fast on a phone): the built web app is served precompressed, cached by its hash, with
index.html revalidated and carrying the first paint and code preloads of the path it answers."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli
import pytest
from django.test import Client

INDEX_HTML = b"""<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/early-AbCd1234.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/framework-AbCd1234.js">
    <link rel="stylesheet" crossorigin href="/assets/index-AbCd1234.css">
    <link rel="modulepreload" crossorigin href="/assets/AuthLayout-AbCd1234.js" data-for="sign-in auth">
    <link rel="modulepreload" crossorigin href="/assets/SignIn-AbCd1234.js" data-for="sign-in">
    <link rel="modulepreload" crossorigin href="/assets/AppLayout-AbCd1234.js" data-for="app">
    <link rel="modulepreload" crossorigin href="/assets/Dashboard-AbCd1234.js" data-for="dashboard">
    <link rel="modulepreload" crossorigin href="/assets/IdeasTabs-AbCd1234.js" media="not all and (min-width: 40rem)" data-for="dashboard">
  </head>
  <body><div id="root"></div><div class="app-shell">
    <figure data-quote-for="0" class="q"><p>First quote</p></figure><figure data-quote-for="1" class="q">
    <p>Second quote</p></figure><figure data-quote-for="2" class="q"><p>Third quote</p></figure>
  </div></body>
</html>
"""
ENTRY = b"console.log('the entry chunk');" * 50
STYLESHEET = b".app-shell{position:fixed}"


@pytest.fixture
def dist(tmp_path: Path, settings) -> Path:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_bytes(INDEX_HTML)
    entry = tmp_path / "assets" / "index-AbCd1234.js"
    entry.write_bytes(ENTRY)
    entry.with_name(entry.name + ".br").write_bytes(brotli.compress(ENTRY))
    entry.with_name(entry.name + ".gz").write_bytes(gzip.compress(ENTRY))
    (tmp_path / "assets" / "index-AbCd1234.css").write_bytes(STYLESHEET)
    settings.SPA_DIST_DIR = tmp_path
    settings.WHITENOISE_ROOT = tmp_path
    settings.WHITENOISE_AUTOREFRESH = False
    return tmp_path


def page(path: str, encoding: str = "") -> tuple[int, dict[str, str], str]:
    response = Client().get(path, headers={"Accept-Encoding": encoding} if encoding else {})
    body = response.content
    if response.get("Content-Encoding") == "br":
        body = brotli.decompress(body)
    elif response.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return response.status_code, dict(response.headers), body.decode()


def test_hashed_asset_is_served_brotli_and_immutable(dist: Path) -> None:
    """Issue 8: the entry chunk goes out as brotli, cached for a year and immutable."""
    response = Client().get("/assets/index-AbCd1234.js", headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 200
    assert response["Content-Encoding"] == "br"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert brotli.decompress(b"".join(response.streaming_content)) == ENTRY  # type: ignore[attr-defined]


def test_hashed_asset_falls_back_to_gzip_then_plain(dist: Path) -> None:
    """Issue 8: gzip for a client without brotli, the plain file for one without either."""
    gzipped = Client().get("/assets/index-AbCd1234.js", headers={"Accept-Encoding": "gzip"})
    assert gzipped["Content-Encoding"] == "gzip"
    plain = Client().get("/assets/index-AbCd1234.js")
    assert "Content-Encoding" not in plain
    assert b"".join(plain.streaming_content) == ENTRY  # type: ignore[attr-defined]


def test_missing_asset_is_a_404_not_the_app(dist: Path) -> None:
    """Issue 8: a chunk that is not there fails as a chunk (the app reloads), never as HTML."""
    assert Client().get("/assets/Gone-AbCd1234.js").status_code == 404
    assert Client().get("/icons/gone-192.png").status_code == 404


def test_index_html_is_revalidated_and_compressed(dist: Path) -> None:
    """Issue 8: index.html is never cached stale and goes out compressed."""
    status, headers, body = page("/sign-in", "gzip, deflate, br")
    assert status == 200
    assert headers["Cache-Control"] == "no-cache"
    assert headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in headers["Vary"]
    assert body.startswith("<!doctype html>")
    assert Client().get("/index.html")["Cache-Control"] == "no-cache"


def test_sign_in_gets_its_first_paint_and_its_code_preloaded(dist: Path) -> None:
    """Issue 8: /sign-in paints its static shell and preloads its screen, not the Dashboard's."""
    _, _, body = page("/sign-in", "gzip")
    assert re.search(r'<html data-shell="sign-in" data-quote="\d" lang="en">', body)
    assert "SignIn-AbCd1234.js" in body and "AuthLayout-AbCd1234.js" in body
    assert "AppLayout-AbCd1234.js" not in body and "Dashboard-AbCd1234.js" not in body
    assert "framework-AbCd1234.js" in body  # the entry's own preloads stay


@pytest.mark.parametrize(
    ("path", "shell", "kept", "dropped"),
    [
        ("/dashboard", "app", ["AppLayout", "Dashboard", "IdeasTabs"], ["SignIn", "AuthLayout"]),
        ("/requests/12", "app", ["AppLayout"], ["Dashboard", "IdeasTabs", "SignIn"]),
        ("/forgot-password", "auth", ["AuthLayout"], ["SignIn", "AppLayout"]),
        ("/abc123/unlock", "auth", ["AuthLayout"], ["SignIn", "Dashboard"]),
    ],
)
def test_each_page_family_gets_its_shell_and_preloads(
    dist: Path, path: str, shell: str, kept: list[str], dropped: list[str]
) -> None:
    """Issue 8: signed-in pages show their skeleton at once; each page preloads its own code."""
    status, _, body = page(path)
    assert status == 200
    assert re.search(
        rf'<html data-shell="{shell}" (data-page="[\w-]+" )?(data-quote="\d" )?lang="en">', body
    )
    for name in kept:
        assert f"{name}-AbCd1234.js" in body
    for name in dropped:
        assert f"{name}-AbCd1234.js" not in body


@pytest.mark.parametrize(
    ("path", "page_name"),
    [
        ("/benefits-and-offers", "benefits-and-offers"),
        ("/dashboard", "dashboard"),
        ("/requests/12", None),
    ],
)
def test_web_speed_a_screen_names_what_it_adds_to_the_skeleton(
    dist: Path, path: str, page_name: str | None
) -> None:
    """Issue 8: /benefits-and-offers's skeleton shows the screen's own static header at once, so
    the document names the screen on <html data-page> for the stylesheet to pick it."""
    _, _, body = page(path)
    html = re.search(r"<html [^>]*>", body)
    assert html
    if page_name:
        assert f'data-page="{page_name}"' in html.group(0)
    else:
        assert "data-page" not in html.group(0)


def test_web_speed_a_preload_for_small_screens_keeps_its_media_query(dist: Path) -> None:
    """Issue 8: the Dashboard's phone-only code is preloaded on /dashboard for small screens only."""
    _, _, body = page("/dashboard")
    assert (
        '<link rel="modulepreload" crossorigin href="/assets/IdeasTabs-AbCd1234.js" '
        'media="not all and (min-width: 40rem)" data-for="dashboard">'
    ) in body


@pytest.mark.parametrize(
    ("path", "early"),
    [
        ("/sign-in", False),
        ("/forgot-password", False),
        ("/dashboard", True),
        ("/welcome/about-us", True),
    ],
)
def test_web_speed_signed_in_pages_start_their_first_requests_early(
    dist: Path, path: str, early: bool
) -> None:
    """Issue 8: the early script (the first screen's API requests) loads on every page but the
    sign-in family's, which has no session to ask with."""
    _, _, body = page(path)
    assert ("early-AbCd1234.js" in body) is early


def test_other_paths_get_the_plain_app(dist: Path) -> None:
    """Issue 8: paths without a shell (the root, onboarding, unknown) load the app as before."""
    for path in ("/", "/welcome/about-us", "/no-such-page"):
        status, _, body = page(path)
        assert status == 200
        assert "data-shell" not in body
        assert "data-for" not in body


def test_head_request_answers_like_get(dist: Path) -> None:
    """Issue 8: a HEAD request for a screen (e.g. a link checker's) is answered, not refused."""
    assert Client().head("/dashboard").status_code == 200


def test_sign_in_family_paints_one_random_quote_and_names_it(dist: Path) -> None:
    """Issue 8 / spec §2: the first paint shows one random customer quote, the one the layout
    then keeps (named on <html data-quote>); other pages carry none."""
    quotes = {"0": "First quote", "1": "Second quote", "2": "Third quote"}
    seen = set()
    for _ in range(40):
        _, _, body = page("/sign-in")
        picked = re.search(r'<html data-shell="sign-in" data-quote="(\d)"', body)
        assert picked, body[:200]
        seen.add(picked.group(1))
        assert body.count("<figure") == 1
        assert quotes[picked.group(1)] in body
    assert seen == {"0", "1", "2"}
    _, _, body = page("/dashboard")
    assert "<figure" not in body and "data-quote" not in body


def test_web_speed_catalogue_images_are_cached_for_a_day_and_uploads_are_not_served(
    tmp_path: Path, settings, client: Client
) -> None:
    """Issue 8: offering logos under /media/ carry a day's Cache-Control and revalidate; the
    uploads folder beside them is never served there."""
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "offering-logos").mkdir()
    (tmp_path / "offering-logos" / "acme.svg").write_text("<svg/>")
    (tmp_path / "uploads").mkdir()
    (tmp_path / "uploads" / "private.pdf").write_bytes(b"%PDF-1.4")

    response = client.get("/media/offering-logos/acme.svg")
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=86400"
    assert b"".join(response.streaming_content) == b"<svg/>"
    again = client.get(
        "/media/offering-logos/acme.svg", HTTP_IF_MODIFIED_SINCE=response["Last-Modified"]
    )
    assert again.status_code == 304

    assert client.get("/media/uploads/private.pdf").status_code == 404
    assert client.get("/media/offering-logos/missing.svg").status_code == 404


def test_web_speed_the_stylesheet_is_inline_so_the_shell_paints_from_the_document(
    dist: Path,
) -> None:
    """Issue 8: every page carries the app's stylesheet inline (no second round trip before the
    first paint); the link is gone."""
    for path in ("/sign-in", "/dashboard", "/"):
        _, _, body = page(path, "br")
        assert "<style>.app-shell{position:fixed}</style>" in body
        assert 'rel="stylesheet"' not in body


def test_security_a_catalogue_drawing_opened_on_its_own_is_sandboxed(
    tmp_path: Path, settings, client: Client
) -> None:
    """Security: an SVG under /media/ opened as a page runs no script and loads nothing (a
    sandboxing Content-Security-Policy); a PDF keeps the site's policy, which its viewer needs."""
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "company-logos").mkdir()
    (tmp_path / "company-logos" / "acme.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    )
    (tmp_path / "offering-documents").mkdir()
    (tmp_path / "offering-documents" / "plan.pdf").write_bytes(b"%PDF-1.4")

    drawing = client.get("/media/company-logos/acme.svg")
    assert drawing["Content-Type"] == "image/svg+xml"
    policy = drawing["Content-Security-Policy"]
    assert "sandbox" in policy.split("; ") and "default-src 'none'" in policy
    assert "script-src" not in policy
    document = client.get("/media/offering-documents/plan.pdf")
    assert document["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
