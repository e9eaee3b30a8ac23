"""The seats of the games a ladder's bot entrants already played take the entrant's
name, the one its leaderboard shows ("Greedy bot 7"), instead of a number per table."""

from django.db import migrations


def name_bot_seats(apps, schema_editor):
    LadderSeat = apps.get_model("ratings", "LadderSeat")
    Seat = apps.get_model("games", "Seat")
    for seat in LadderSeat.objects.filter(player__user__isnull=True).select_related("player"):
        name = f"{seat.player.bot.capitalize()} bot {seat.player_id}"
        Seat.objects.filter(pk=seat.seat_id, bot__gt="").update(name=name)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_initial"),
        ("games", "0007_seat_name"),
    ]

    operations = [migrations.RunPython(name_bot_seats, migrations.RunPython.noop)]
