from django.apps import AppConfig


class InboundConfig(AppConfig):
    name = "inbound"
    verbose_name = "Received mail"

    def ready(self) -> None:
        from inbound import checks, webhooks

        webhooks.connect()
        checks.register_checks()
