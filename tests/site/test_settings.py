"""The settings read from the environment.

Whether the site starts is checked in a fresh process (``manage.py check``), so the
environment is read anew; what a variable reads as is checked by running the settings
module again in this process (``settings_for``), which leaves the site's own settings
alone.
"""

import os
import runpy
import subprocess
import sys
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

SETTINGS_FILE = settings.BASE_DIR / "ww5site" / "settings.py"
# Production settings that start: the secret key, the mail server and the address.
PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "a-production-key-" + "x" * 40,
    "EMAIL_HOST": "smtp.example.org",
    "SITE_URL": "https://ww5.example.org",
}
# Variables the tests below set; whatever the test process has of them is left out.
READ_HERE = (
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_USE_TLS",
    "SITE_URL",
    "PERIODIC_JOBS_EVERY",
    "DATABASE_POOLER",
)


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def environment_without_django_settings(**overrides: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    return env | overrides


def production_environment(**overrides: str) -> dict[str, str]:
    """Starting production settings with ``overrides``; an empty value drops a variable."""
    env = environment_without_django_settings()
    for name in READ_HERE:
        env.pop(name, None)
    env |= PRODUCTION | overrides
    return {name: value for name, value in env.items() if value != ""}


def settings_for(monkeypatch: pytest.MonkeyPatch, **environ: str) -> dict[str, Any]:
    """The settings module run again, in this process, with only ``environ`` set of the
    site's variables; its names and values."""
    for name in list(os.environ):
        if name.startswith(("DJANGO_", "CELERY_")) or name in READ_HERE:
            monkeypatch.delenv(name)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = environment_without_django_settings(DJANGO_DEBUG="0")

    result = manage("check", env=env)

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_production_settings_pass_the_deploy_checks() -> None:
    env = environment_without_django_settings(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=get_random_secret_key(),
        DJANGO_ALLOWED_HOSTS="ww5.example.org",
        EMAIL_HOST="smtp.example.org",
        SITE_URL="https://ww5.example.org",
        ANYMAIL_WEBHOOK_SECRET="mailgun:" + get_random_secret_key(),
    )

    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


# --- production needs a mail server and its address ---------------------------------------


def test_production_refuses_to_start_without_a_mail_server() -> None:
    result = manage("check", env=production_environment(EMAIL_HOST=""))

    assert result.returncode != 0
    assert "EMAIL_HOST must be set when DJANGO_DEBUG is off" in result.stderr
    assert "printed to the console" in result.stderr
    assert "Set it to the SMTP server that relays the site's mail" in result.stderr


def test_production_refuses_to_start_without_its_address() -> None:
    result = manage("check", env=production_environment(SITE_URL=""))

    assert result.returncode != 0
    assert "SITE_URL must be set when DJANGO_DEBUG is off" in result.stderr
    assert "e.g. SITE_URL=https://ww5.example.org" in result.stderr
    assert "EMAIL_HOST must be set" not in result.stderr


def test_production_names_every_missing_setting_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    production = {**PRODUCTION}
    del production["EMAIL_HOST"], production["SITE_URL"]

    with pytest.raises(ImproperlyConfigured) as refused:
        settings_for(monkeypatch, **production, EMAIL_HOST="  ")

    assert "EMAIL_HOST must be set" in str(refused.value)
    assert "SITE_URL must be set" in str(refused.value)


def test_production_with_a_mail_server_and_an_address_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    production = settings_for(monkeypatch, **PRODUCTION | {"SITE_URL": " https://ww5.example.org/"})

    assert production["SITE_URL"] == "https://ww5.example.org"
    assert production["MAIL_TRANSPORT"] == "django.core.mail.backends.smtp.EmailBackend"


def test_while_debugging_links_go_to_localhost_and_mail_to_the_console(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    local = settings_for(monkeypatch)

    assert local["DEBUG"] is True
    assert local["SITE_URL"] == "http://localhost:8000"
    assert local["MAIL_TRANSPORT"] == "mail.backends.ConsoleBackend"


@pytest.mark.parametrize("address", ["ww5.example.org", "https://", "ftp://ww5.example.org"])
def test_a_site_url_that_is_not_a_whole_address_is_refused(
    monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"SITE_URL={address!r} is not the site"):
        settings_for(monkeypatch, SITE_URL=address)


# --- flags and numbers from the environment ------------------------------------------------


@pytest.mark.parametrize(
    ("value", "flag"),
    [
        ("1", True),
        ("true", True),
        (" TRUE ", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("false", False),
        ("NO", False),
        (" Off ", False),
    ],
)
def test_a_flag_reads_its_clear_values_in_any_case(
    monkeypatch: pytest.MonkeyPatch, value: str, flag: bool
) -> None:
    assert settings_for(monkeypatch, EMAIL_USE_TLS=value)["EMAIL_USE_TLS"] is flag


@pytest.mark.parametrize("value", ["flase", "of", "2", "", "disabled", "y"])
def test_a_flag_that_is_not_clear_is_refused_naming_the_variable_and_value(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        settings_for(monkeypatch, EMAIL_USE_TLS=value)

    assert f"EMAIL_USE_TLS={value!r} is not a flag" in str(refused.value)
    assert "set it to 1 or 0" in str(refused.value)


def test_a_production_only_flag_is_checked_while_debugging_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECURE_SSL_REDIRECT='nope'"):
        settings_for(monkeypatch, DJANGO_SECURE_SSL_REDIRECT="nope")


def test_a_misspelled_debug_flag_stops_the_site_at_start() -> None:
    env = environment_without_django_settings(DJANGO_DEBUG="flase")

    result = manage("check", env=env)

    assert result.returncode != 0
    assert "DJANGO_DEBUG='flase' is not a flag" in result.stderr


@pytest.mark.parametrize(
    ("name", "value", "setting", "read"),
    [
        ("EMAIL_PORT", " 25 ", "EMAIL_PORT", 25),
        ("PERIODIC_JOBS_EVERY", "2.5", "PERIODIC_JOBS_EVERY", 2.5),
        ("DJANGO_SECURE_HSTS_SECONDS", "60\n", "SECURE_HSTS_SECONDS", 60),
    ],
)
def test_numbers_are_read_with_surrounding_spaces(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, setting: str, read: float
) -> None:
    assert settings_for(monkeypatch, **PRODUCTION, **{name: value})[setting] == read


@pytest.mark.parametrize(
    ("name", "value", "kind"),
    [
        ("EMAIL_PORT", "smtp", "a whole number"),
        ("EMAIL_PORT", "587.5", "a whole number"),
        ("DIGEST_HOUR", "", "a whole number"),
        ("DJANGO_SECURE_HSTS_SECONDS", "1h", "a whole number"),
        ("PERIODIC_JOBS_EVERY", "1,5", "a number"),
        ("PERIODIC_JOBS_EVERY", "nan", "a number"),
        ("REMINDER_LEFT", "inf", "a number"),
    ],
)
def test_a_number_that_is_not_one_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, kind: str
) -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        settings_for(monkeypatch, **{name: value})

    assert str(refused.value) == f"{name}={value!r} is not {kind}."


# --- Celery tasks have time limits -----------------------------------------------------------


def test_celery_tasks_are_stopped_after_five_minutes_and_killed_after_six(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    values = settings_for(monkeypatch)

    assert (values["CELERY_TASK_SOFT_TIME_LIMIT"], values["CELERY_TASK_TIME_LIMIT"]) == (300, 360)


def test_the_celery_app_takes_its_time_limits_from_the_settings() -> None:
    from ww5site.celery import app

    assert app.conf.task_soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert app.conf.task_time_limit == settings.CELERY_TASK_TIME_LIMIT
    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit


def test_celery_time_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    values = settings_for(
        monkeypatch, CELERY_TASK_SOFT_TIME_LIMIT="600", CELERY_TASK_TIME_LIMIT="660"
    )

    assert (values["CELERY_TASK_SOFT_TIME_LIMIT"], values["CELERY_TASK_TIME_LIMIT"]) == (600, 660)


@pytest.mark.parametrize(("soft", "hard"), [("360", "360"), ("400", "360"), ("0", "360")])
def test_a_soft_time_limit_not_below_the_hard_one_is_refused(
    monkeypatch: pytest.MonkeyPatch, soft: str, hard: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match="must be above 0 and below"):
        settings_for(monkeypatch, CELERY_TASK_SOFT_TIME_LIMIT=soft, CELERY_TASK_TIME_LIMIT=hard)


# --- PostgreSQL through a pooler in transaction mode -------------------------------------

POSTGRES_URL = "postgres://ww5@127.0.0.1:6432/ww5"


def test_behind_pgbouncer_the_orm_reads_without_server_side_cursors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A server-side cursor (the ORM's .iterator()) lives on one server connection, which
    # a pooler in transaction mode hands to other clients between two fetches.
    values = settings_for(monkeypatch, DATABASE_URL=POSTGRES_URL, DATABASE_POOLER=" PgBouncer ")

    assert values["DATABASES"]["default"]["DISABLE_SERVER_SIDE_CURSORS"] is True


def test_reached_directly_postgresql_keeps_its_server_side_cursors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = settings_for(monkeypatch, DATABASE_URL=POSTGRES_URL)["DATABASES"]["default"]

    assert database.get("DISABLE_SERVER_SIDE_CURSORS", False) is False


def test_a_pooler_the_site_does_not_know_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        settings_for(monkeypatch, DATABASE_URL=POSTGRES_URL, DATABASE_POOLER="pgpool")

    assert "DATABASE_POOLER='pgpool' is not a pooler the site knows" in str(refused.value)


def test_no_connection_keeps_state_a_pooler_would_hand_to_another_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = settings_for(monkeypatch, DATABASE_URL=POSTGRES_URL, DATABASE_POOLER="pgbouncer")[
        "DATABASES"
    ]["default"]
    options = database.get("OPTIONS", {})

    # No prepared statements: psycopg binds on the client, and Django turns its
    # automatic preparing off (prepare_threshold None) unless told otherwise.
    assert options.get("server_side_binding") is not True
    assert options.get("prepare_threshold") is None
    # Times in UTC (USE_TZ) with no time zone of the database's own: Django sets UTC on
    # a new connection whose server runs another zone, a parameter PgBouncer keeps per
    # client and sets again on each server connection it hands that client.
    assert database.get("TIME_ZONE") is None
    # No role set on the connection (SET ROLE), which would stay with the server's.
    assert "assume_role" not in options


def test_a_deadline_claim_expires_after_five_minutes_or_the_environments_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DEADLINE_CLAIM_EXPIRES_SECONDS", raising=False)
    assert settings_for(monkeypatch)["DEADLINE_CLAIM_EXPIRES_SECONDS"] == 300
    values = settings_for(monkeypatch, DEADLINE_CLAIM_EXPIRES_SECONDS="2.5")
    assert values["DEADLINE_CLAIM_EXPIRES_SECONDS"] == 2.5
    with pytest.raises(ImproperlyConfigured, match="DEADLINE_CLAIM_EXPIRES_SECONDS must be"):
        settings_for(monkeypatch, DEADLINE_CLAIM_EXPIRES_SECONDS="0")
