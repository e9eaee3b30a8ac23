from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"

    def ready(self) -> None:
        from games import selectors
        from games.signals import game_finished
        from tournaments import receivers
        from tournaments.selectors import games_organised_by, table_label

        game_finished.connect(receivers.game_finished, dispatch_uid="tournaments-results")
        # A tournament's organisers organise its games.
        selectors.register_organisers(games_organised_by)
        # A tournament's games are named by their event in their mails.
        selectors.register_game_label(table_label)
