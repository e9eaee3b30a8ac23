"""The seats of the games an event's bot entrants already played take the entrant's
name, the one the event gives it ("Greedy bot 12"), instead of a number per table."""

from django.db import migrations


def name_bot_seats(apps, schema_editor):
    TableSeat = apps.get_model("tournaments", "TableSeat")
    Seat = apps.get_model("games", "Seat")
    seats = TableSeat.objects.filter(entry__user__isnull=True, table__game__isnull=False)
    for seat in seats.select_related("entry", "table"):
        name = f"{seat.entry.bot.capitalize()} bot {seat.entry_id}"
        Seat.objects.filter(game_id=seat.table.game_id, number=seat.number, bot__gt="").update(
            name=name
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_check_in_told"),
        ("games", "0007_seat_name"),
    ]

    operations = [migrations.RunPython(name_bot_seats, migrations.RunPython.noop)]
