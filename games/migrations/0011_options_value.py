"""A game's own options (its kind's) become one value, ``options``, instead of World War
5's columns: ``board``, ``setup_mode`` and ``retreat_into_origin``.

Every existing game plays World War 5: its value is the kind's, from its columns."""

from django.db import migrations, models

DEFAULTS = {"board": "original", "setup": "strict", "retreat_into_origin": False}


def options_from_columns(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    columns = ("board", "setup_mode", "retreat_into_origin")
    for board, setup, retreat in list(Game.objects.order_by().values_list(*columns).distinct()):
        Game.objects.filter(board=board, setup_mode=setup, retreat_into_origin=retreat).update(
            options={"board": board, "setup": setup, "retreat_into_origin": retreat}
        )


def columns_from_options(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for options in list(Game.objects.order_by().values_list("options", flat=True).distinct()):
        own = {**DEFAULTS, **(options or {})}
        Game.objects.filter(options=options).update(
            board=own["board"],
            setup_mode=own["setup"],
            retreat_into_origin=own["retreat_into_origin"],
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="options",
            field=models.JSONField(blank=True, default=dict, help_text="The game's own options"),
        ),
        migrations.RunPython(options_from_columns, columns_from_options, elidable=True),
        migrations.RemoveField(
            model_name="game",
            name="board",
        ),
        migrations.RemoveField(
            model_name="game",
            name="retreat_into_origin",
        ),
        migrations.RemoveField(
            model_name="game",
            name="setup_mode",
        ),
    ]
