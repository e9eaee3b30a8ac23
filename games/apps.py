from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        """Hear of the absences accounts records (the clocks of the player's games), and
        draw the board pictures of the outbox's mails."""
        from accounts.signals import absence_declared, absence_withdrawn
        from games.notify import BOARD_PART, board_part
        from games.services.absences import (
            shift_deadlines_on_declaration,
            shift_deadlines_on_withdrawal,
        )
        from mail.parts import register_inline_part

        absence_declared.connect(
            shift_deadlines_on_declaration, dispatch_uid="games.shift_deadlines_on_declaration"
        )
        absence_withdrawn.connect(
            shift_deadlines_on_withdrawal, dispatch_uid="games.shift_deadlines_on_withdrawal"
        )
        register_inline_part(BOARD_PART, board_part)
