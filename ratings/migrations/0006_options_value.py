"""A ladder's games' own options (their kind's) become one value, ``options``, instead of
World War 5's ``board`` column.

Every existing ladder plays World War 5, whose ladder games always use the strict setup
and never R19's house variant: its value is that, with its board."""

from django.db import migrations, models


def options_from_board(apps, schema_editor):
    Ladder = apps.get_model("ratings", "Ladder")
    for board in list(Ladder.objects.order_by().values_list("board", flat=True).distinct()):
        Ladder.objects.filter(board=board).update(
            options={"board": board, "setup": "strict", "retreat_into_origin": False}
        )


def board_from_options(apps, schema_editor):
    Ladder = apps.get_model("ratings", "Ladder")
    for options in list(Ladder.objects.order_by().values_list("options", flat=True).distinct()):
        Ladder.objects.filter(options=options).update(
            board=(options or {}).get("board", "original")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0005_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="ladder",
            name="options",
            field=models.JSONField(blank=True, default=dict, help_text="Its games' own options"),
        ),
        migrations.RunPython(options_from_board, board_from_options, elidable=True),
        migrations.RemoveField(
            model_name="ladder",
            name="board",
        ),
    ]
