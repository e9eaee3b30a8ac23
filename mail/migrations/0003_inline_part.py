"""The board picture's field becomes any kind of inline picture: a kind and its spec.

The existing rows' pictures are boards."""

from django.db import migrations, models


def boards_are_of_kind_board(apps, schema_editor):
    OutgoingMail = apps.get_model("mail", "OutgoingMail")
    OutgoingMail.objects.filter(inline_spec__isnull=False).update(inline_kind="board")


def only_boards_are_left(apps, schema_editor):
    # Before this migration, a spec was always a board's.
    OutgoingMail = apps.get_model("mail", "OutgoingMail")
    OutgoingMail.objects.exclude(inline_kind="board").update(inline_spec=None)


class Migration(migrations.Migration):
    dependencies = [
        ("mail", "0002_inline_board"),
    ]

    operations = [
        migrations.RenameField(
            model_name="outgoingmail",
            old_name="inline_board",
            new_name="inline_spec",
        ),
        migrations.AlterField(
            model_name="outgoingmail",
            name="inline_spec",
            field=models.JSONField(
                blank=True,
                help_text="What the kind's renderer draws the picture from.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="outgoingmail",
            name="inline_kind",
            field=models.CharField(
                blank=True,
                help_text="A picture the HTML part shows inline, drawn when the mail is sent: "
                "the kind registered with mail.parts that draws it (e.g. board); empty: none.",
                max_length=40,
            ),
        ),
        migrations.RunPython(boards_are_of_kind_board, only_boards_are_left, elidable=True),
    ]
