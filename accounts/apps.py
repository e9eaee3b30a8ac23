from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_save

        from accounts.receivers import give_new_user_a_profile

        post_save.connect(
            give_new_user_a_profile,
            sender=get_user_model(),
            dispatch_uid="accounts.give_new_user_a_profile",
        )
