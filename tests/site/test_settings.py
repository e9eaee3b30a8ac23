"""Production settings, checked in a fresh process so the environment is read anew."""

import os
import subprocess
import sys

from django.conf import settings
from django.core.management.utils import get_random_secret_key


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
    )

    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stdout + result.stderr
