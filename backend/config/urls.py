from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from concierge.common.metrics import metrics_view
from concierge.common.views import partner_quote, public_media, spa_index
from concierge.inbound_email.webhook import mailgun_inbound
from concierge.live.sse import events_view
from concierge.notifications.views import outbox_view
from concierge.privacy.views import OLD_LINK_PATH, export_link_moved
from config.api import api

admin.site.site_header = f"{settings.PRODUCT_NAME} administration"
admin.site.site_title = settings.PRODUCT_NAME

PUBLIC_MEDIA_PREFIXES = (
    "offering-logos",
    "offering-documents",
    "offering-categories",
    "survey-categories",
    "company-logos",
)

handler400 = "concierge.common.views.bad_request"
handler404 = "concierge.common.views.not_found"
handler500 = "concierge.common.views.server_error"

urlpatterns = [
    # The live event stream: an async view (Server-Sent Events), outside the Ninja API.
    path("api/v1/events", events_view, name="events"),
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
    # SCIM 2.0 provisioning, per company (RFC 7644; concierge.provisioning.scim).
    path("scim/v2/", include("concierge.provisioning.scim.urls")),
    path("dev/outbox", outbox_view, name="dev-outbox"),
    # Reply by email: Mailgun's inbound route (docs/operations/reply-by-email.md); a URL ending
    # in "mime" makes Mailgun post the raw message.
    re_path(r"^inbound/mailgun/(?:mime)?$", mailgun_inbound, name="inbound-mailgun"),
    # Prometheus's scrape (docs/operations/monitoring.md), for a bearer of METRICS_TOKEN.
    path("metrics", metrics_view, name="metrics"),
    # Public catalogue images and documents on local storage; uploads are never served here.
    re_path(
        rf"^media/(?P<path>(?:{'|'.join(PUBLIC_MEDIA_PREFIXES)})/[^/]+)$",
        public_media,
    ),
    re_path(r"^(?:products|additional-information)/(?P<product>[a-z-]+)/?$", partner_quote),
    re_path(OLD_LINK_PATH, export_link_moved),
    # Every other path is a screen of the SPA; a missing build asset or icon stays a 404.
    re_path(r"^(?!api/|admin/|scim/|static/|media/|assets/|icons/).*$", spa_index),
]
