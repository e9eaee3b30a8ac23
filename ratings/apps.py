from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        from games import selectors
        from games.signals import game_finished
        from ratings import receivers
        from ratings.selectors import ladder_games_organised_by
        from tournaments.signals import result_corrected

        game_finished.connect(receivers.game_finished, dispatch_uid="ratings-rate")
        result_corrected.connect(receivers.result_corrected, dispatch_uid="ratings-replay")
        # A ladder's league organisers organise its games.
        selectors.register_organisers(ladder_games_organised_by)
