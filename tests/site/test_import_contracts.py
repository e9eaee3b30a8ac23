"""The import contracts (pyproject.toml's ``[tool.importlinter]``, checked by ``bin/test``)
keep the layers pointing one way: a copy of the apps with one wrong-way import added
breaks the contracts it goes against, and only those."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
APPS = CONFIG["tool"]["importlinter"]["root_packages"]
CONTRACTS = {c["id"]: c["name"] for c in CONFIG["tool"]["importlinter"]["contracts"]}
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def project_with(tmp_path: Path, added: dict[str, str]) -> Path:
    """A copy of the apps and their contracts, each line of ``added`` at the end of its
    module."""
    for app in APPS:
        shutil.copytree(ROOT / app, tmp_path / app, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for module, line in added.items():
        with (tmp_path / module).open("a", encoding="utf-8") as source:
            source.write(f"\n{line}\n")
    return tmp_path


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    # Wide enough that no contract's name is wrapped in the report.
    env = {**os.environ, "COLUMNS": "300", "NO_COLOR": "1"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def wrong_way(module: str, line: str, *broken: str, told: str) -> Any:
    """``line`` added to ``module`` breaks the ``broken`` contracts; the report says ``told``."""
    return pytest.param(module, line, broken, told, id=told.replace(" ", "-"))


@pytest.mark.parametrize(
    ("module", "line", "broken", "told"),
    [
        wrong_way(
            "mail/models.py",
            "from games.models import Game",
            "layers",
            told="mail is not allowed to import games",
        ),
        wrong_way(
            "accounts/services.py",
            "import mail.services",
            "layers",
            told="accounts is not allowed to import mail",
        ),
        wrong_way(
            "games/models.py",
            "import tournaments.models",
            "layers",
            told="games is not allowed to import tournaments",
        ),
        wrong_way(
            "ww5/engine/rules.py",
            "from django.conf import settings",
            "engine",
            told="ww5.engine is not allowed to import django",
        ),
        wrong_way(
            "ww5/engine/board.py",
            "from games import models",
            "engine",
            told="ww5.engine is not allowed to import games.models",
        ),
        wrong_way(
            "tournaments/core/seating.py",
            "from games.models import Game",
            "cores-play-no-game",
            told="tournaments.core is not allowed to import games",
        ),
        wrong_way(
            "tournaments/core/seating.py",
            "from ww5.engine import BOARDS",
            "layers",
            "cores-play-no-game",
            "engine-behind-the-kind",
            told="tournaments.core is not allowed to import ww5",
        ),
        wrong_way(
            "inbound/answers.py",
            "from ww5.engine import BOARDS",
            "layers",
            "engine-behind-the-kind",
            told="inbound is not allowed to import ww5.engine",
        ),
        wrong_way(
            "ratings/core/model.py",
            "import ww5",
            "layers",
            "cores-play-no-game",
            told="ratings.core is not allowed to import ww5",
        ),
        wrong_way(
            "ww5site/rows.py",
            "import accounts.models",
            "layers",
            "site-utilities",
            told="ww5site.rows is not allowed to import accounts",
        ),
    ],
)
def test_a_wrong_way_import_breaks_its_contract(
    tmp_path: Path, module: str, line: str, broken: tuple[str, ...], told: str
) -> None:
    result = lint_imports(project_with(tmp_path, {module: line}))

    assert result.returncode != 0, result.stdout
    for contract, name in CONTRACTS.items():
        outcome = "BROKEN" if contract in broken else "KEPT"
        assert f"{name} {outcome}" in result.stdout
    assert told in result.stdout.split("Broken contracts")[1]


def test_the_settings_and_the_urls_may_import_every_app(tmp_path: Path) -> None:
    every_app = "import accounts.views, games.views, mail.views, tournaments.urls"
    root = project_with(tmp_path, {"ww5site/settings.py": every_app, "ww5site/urls.py": every_app})

    result = lint_imports(root)

    assert result.returncode == 0, result.stdout
    for name in CONTRACTS.values():
        assert f"{name} KEPT" in result.stdout
