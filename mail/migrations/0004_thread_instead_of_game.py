"""Mail knows nothing of games: a mail's game becomes only the key of its thread.

Every mail about a game already carried its thread key, "game-<id>"; a row that had a
game but no key gets it before the game's column goes."""

from django.db import migrations, models
from django.db.models.functions import Cast, Concat

GAME_THREAD = r"^game-[0-9]+$"


def threads_from_games(apps, schema_editor):
    OutgoingMail = apps.get_model("mail", "OutgoingMail")
    OutgoingMail.objects.filter(thread="", game__isnull=False).update(
        thread=Concat(models.Value("game-"), Cast("game_id", models.CharField()))
    )


def games_from_threads(apps, schema_editor):
    OutgoingMail = apps.get_model("mail", "OutgoingMail")
    Game = apps.get_model("games", "Game")
    threads = OutgoingMail.objects.filter(thread__regex=GAME_THREAD).values_list("thread")
    for (thread,) in threads.order_by().distinct():
        game_id = int(thread.removeprefix("game-"))
        if Game.objects.filter(pk=game_id).exists():
            OutgoingMail.objects.filter(thread=thread).update(game_id=game_id)


class Migration(migrations.Migration):
    dependencies = [
        ("mail", "0003_inline_part"),
    ]

    operations = [
        migrations.RunPython(threads_from_games, games_from_threads, elidable=True),
        migrations.RemoveField(
            model_name="outgoingmail",
            name="game",
        ),
        migrations.AlterField(
            model_name="outgoingmail",
            name="thread",
            field=models.CharField(
                blank=True,
                db_index=True,
                help_text="Mails with the same key are threaded together, e.g. game-12 for a "
                "game's.",
                max_length=100,
            ),
        ),
    ]
