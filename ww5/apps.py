from django.apps import AppConfig


class WorldWar5Config(AppConfig):
    name = "ww5"
    verbose_name = "World War 5"

    def ready(self) -> None:
        """Register World War 5 as a game kind."""
        from games.kinds import register_kind
        from ww5.kind import WorldWar5

        register_kind(WorldWar5())
