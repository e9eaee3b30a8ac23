"""An event's commitment to its seed, published when the event is made; the seed itself
can no longer be edited.

An event made before keeps its seed and has no commitment (the empty text): none was
given when it was made, and one made now would prove nothing."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_options_value'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='seed_commitment',
            field=models.CharField(blank=True, default='', editable=False, help_text='SHA-256 of ww5-event-seed/1|<event id>|<seed>, published when the event is made (empty for an event made before there were commitments)', max_length=64),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='seed',
            field=models.BigIntegerField(editable=False, help_text='Every pairing and draw of the event follows it'),
        ),
    ]
