from django.apps import AppConfig


class RisiKoConfig(AppConfig):
    name = "risiko"
    verbose_name = "RisiKo"

    def ready(self) -> None:
        """Register RisiKo as a game kind, where the site runs it (``GAME_KINDS``)."""
        from django.conf import settings

        from games.kinds import register_kind
        from risiko.kind import RisiKo

        if RisiKo.key in settings.GAME_KINDS:
            register_kind(RisiKo())
