"""Display names become unique as players read them: each profile gets its name key, and
a display name that could not be chosen today (a bot's name, another account's username,
or the name of a profile made before it) is cleared, so that player shows as their
username again."""

import unicodedata

from django.conf import settings
from django.db import migrations, models

# Frozen copies of accounts.names as this migration was written: a later change there
# must not change what this migration did.
BOT_NAMES = ("Greedy bot", "Random bot")


def name_key(name):
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def letters_and_digits(name):
    return "".join(character for character in name_key(name) if character.isalnum())


def reads_as_a_bot(name):
    letters = letters_and_digits(name)
    for bot in BOT_NAMES:
        bot_letters = letters_and_digits(bot)
        if letters.startswith(bot_letters):
            number = letters[len(bot_letters):]
            if not number or number.isdigit():
                return True
    return False


def give_profiles_their_name_key(apps, schema_editor):
    Profile = apps.get_model("accounts", "Profile")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    usernames = {}
    for user_id, username in User.objects.values_list("pk", "username"):
        usernames.setdefault(name_key(username), set()).add(user_id)
    taken = set()
    # The earlier profile keeps a name that two share.
    for profile in Profile.objects.exclude(display_name="").order_by("pk"):
        key = name_key(profile.display_name)
        others = usernames.get(key, set()) - {profile.user_id}
        if not key or key in taken or others or reads_as_a_bot(profile.display_name):
            profile.display_name = ""
            profile.name_key = ""
        else:
            profile.name_key = key
            taken.add(key)
        profile.save(update_fields=["display_name", "name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_absences_and_digests'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='profile',
            name='name_key',
            field=models.TextField(blank=True, default='', editable=False),
        ),
        migrations.RunPython(give_profiles_their_name_key, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='profile',
            constraint=models.UniqueConstraint(condition=models.Q(('name_key', ''), _negated=True), fields=('name_key',), name='display_name_once'),
        ),
    ]
