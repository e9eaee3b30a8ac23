"""An event's games' own options (their kind's) become one value, ``options``, instead of
World War 5's ``board`` column.

Every existing event plays World War 5, whose events' games always use the strict setup
and never R19's house variant: its value is that, with its board."""

from django.db import migrations, models


def options_from_board(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for board in list(Tournament.objects.order_by().values_list("board", flat=True).distinct()):
        Tournament.objects.filter(board=board).update(
            options={"board": board, "setup": "strict", "retreat_into_origin": False}
        )


def board_from_options(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for options in list(Tournament.objects.order_by().values_list("options", flat=True).distinct()):
        Tournament.objects.filter(options=options).update(
            board=(options or {}).get("board", "original")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="options",
            field=models.JSONField(blank=True, default=dict, help_text="Its games' own options"),
        ),
        migrations.RunPython(options_from_board, board_from_options, elidable=True),
        migrations.RemoveField(
            model_name="tournament",
            name="board",
        ),
    ]
