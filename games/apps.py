from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        """Hear of the absences accounts records (the clocks of the player's games)."""
        from accounts.signals import absence_declared, absence_withdrawn
        from games.services.absences import (
            shift_deadlines_on_declaration,
            shift_deadlines_on_withdrawal,
        )

        absence_declared.connect(
            shift_deadlines_on_declaration, dispatch_uid="games.shift_deadlines_on_declaration"
        )
        absence_withdrawn.connect(
            shift_deadlines_on_withdrawal, dispatch_uid="games.shift_deadlines_on_withdrawal"
        )
