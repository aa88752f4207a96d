"""/scim/v2/: the SCIM 2.0 service (trailing slashes optional, as clients differ)."""

from django.urls import re_path

from concierge.provisioning.scim import views

urlpatterns = [
    re_path(r"^ServiceProviderConfigs?/?$", views.service_provider_config),
    re_path(r"^ResourceTypes/?$", views.resource_types),
    re_path(r"^ResourceTypes/(?P<name>[^/]+)/?$", views.resource_types),
    re_path(r"^Schemas/?$", views.schemas),
    re_path(r"^Schemas/(?P<schema_id>[^/]+)/?$", views.schemas),
    re_path(r"^Users/?$", views.users),
    re_path(r"^Users/\.search/?$", views.users_search),
    # A search across every resource type is a search of Users, the only one.
    re_path(r"^\.search/?$", views.users_search),
    re_path(r"^Users/(?P<record_id>[^/]+)/?$", views.user),
    re_path(r"^(?P<rest>.*)$", views.unknown),
]
