"""games/__init__.py stays free of imports so the rules engine loads without Django."""

import subprocess
import sys

from django.conf import settings


def test_games_package_imports_without_django() -> None:
    code = "import sys, games; assert 'django' not in sys.modules, 'games imported Django'"

    result = subprocess.run(
        [sys.executable, "-c", code], cwd=settings.BASE_DIR, capture_output=True, text=True
    )

    assert result.returncode == 0, result.stderr
