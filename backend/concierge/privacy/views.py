"""The download page's old address, from export emails sent before the token moved into the
link's fragment (CHANGELOG: the export link)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseRedirect
from django.views.decorators.http import require_safe

# The token as `export.TOKEN_FORMAT` knows it; any other path is the web app's Not Found.
OLD_LINK_PATH = r"^account/data/(?P<token>[A-Za-z0-9_\-]{20,100})/?$"


@require_safe
def export_link_moved(request: HttpRequest, token: str) -> HttpResponseRedirect:
    """Sends an old link on to the page that takes the token from the fragment, so a link
    emailed before the upgrade still downloads (once, for its signed-in owner, while valid).
    Neither the redirect nor the page it leads to is kept or passes the token on."""
    response = HttpResponseRedirect(f"/account/data#{token}")
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response
