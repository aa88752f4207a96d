from django.apps import AppConfig


class ProvisioningConfig(AppConfig):
    name = "concierge.provisioning"
    label = "provisioning"
    verbose_name = "Provisioning (SCIM and roster import)"
