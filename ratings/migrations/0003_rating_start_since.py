from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def since_season_start(apps, schema_editor):
    """A rating carried before this field was stored had its idle growth applied up to
    its season's start: its idle weeks go on counting from there."""
    Rating = apps.get_model("ratings", "Rating")
    Season = apps.get_model("ratings", "Season")
    started = Season.objects.filter(pk=OuterRef("season_id")).values("started_at")[:1]
    Rating.objects.filter(start_sigma__isnull=False, start_since__isnull=True).update(
        start_since=Subquery(started)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_bot_seat_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="start_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(since_season_start, migrations.RunPython.noop),
    ]
