"""Ratings per game kind: every rating and journal row names its pool's kind. The global
pool becomes one pool per kind; every rating made before kinds is World War 5's ("ww5"),
and a ladder season's rows take their ladder's kind."""

import games.kinds
from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def seasons_take_their_ladders_kind(apps, schema_editor):
    Ladder = apps.get_model("ratings", "Ladder")
    for name in ("Rating", "JournalEntry"):
        model = apps.get_model("ratings", name)
        ladder_kind = Ladder.objects.filter(seasons=OuterRef("season")).values("kind")[:1]
        model.objects.filter(season__isnull=False).update(kind=Subquery(ladder_kind))


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0006_options_value"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="journalentry",
            name="kind",
            field=models.CharField(
                choices=games.kinds.kind_choices,
                default="ww5",
                help_text="The game rated (the pool's kind)",
                max_length=20,
            ),
        ),
        migrations.AddField(
            model_name="rating",
            name="kind",
            field=models.CharField(
                choices=games.kinds.kind_choices,
                default="ww5",
                help_text="The game rated (a season's is its ladder's)",
                max_length=20,
            ),
        ),
        migrations.RunPython(seasons_take_their_ladders_kind, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="rating",
            name="one_global_rating",
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(
                condition=models.Q(("season__isnull", True)),
                fields=("kind", "user"),
                name="one_global_rating_per_kind",
            ),
        ),
    ]
