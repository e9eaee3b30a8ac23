"""The engine is a library: it imports only the standard library (conventions, point 1).

No Django, no Celery, no I/O, no clock and no global randomness: every import in
``ww5/engine/*.py`` is relative or on the allowlist below, checked in the source and
in a fresh interpreter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.helpers import REPO_ROOT
from tests.purity import absolute_imports, dynamic_imports, loaded_after

ENGINE = REPO_ROOT / "ww5" / "engine"
MODULES = sorted(ENGINE.glob("*.py"))
ALLOWED = {
    "__future__",
    "collections",
    "collections.abc",
    "dataclasses",
    "enum",
    "fractions",
    "functools",
    "importlib",
    "importlib.resources",
    "itertools",
    "json",
    "math",
    "re",
    "typing",
    "warnings",
}
FORBIDDEN = {
    "asyncio",
    "celery",
    "datetime",
    "django",
    "os",
    "random",
    "redis",
    "socket",
    "subprocess",
    "threading",
    "time",
}


def test_the_engine_has_modules_to_check() -> None:
    assert {p.name for p in MODULES} >= {"__init__.py", "rules.py", "position.py", "board.py"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_engine_import_is_relative_or_allowlisted_standard_library(path: Path) -> None:
    for module in absolute_imports(path):
        assert module in ALLOWED, f"{path.name} imports {module}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_engine_module_imports_django_celery_io_the_clock_or_randomness(path: Path) -> None:
    for module in absolute_imports(path):
        assert module.split(".")[0] not in FORBIDDEN, f"{path.name} imports {module}"
    assert dynamic_imports(path) == [], f"{path.name} imports by name at run time"


IMPORT_ENGINE = "\n".join(
    ["import ww5.engine"] + [f"import ww5.engine.{p.stem}" for p in MODULES if p.stem != "__init__"]
)
# The allowlisted modules, used as the engine uses them (its board file is package data).
IMPORT_ALLOWED = "\n".join(
    [f"import {module}" for module in sorted(ALLOWED)]
    + ["importlib.resources.files('json').joinpath('__init__.py').read_text(encoding='utf-8')"]
)


def test_importing_the_engine_loads_no_django_celery_redis_or_network() -> None:
    bare = loaded_after("pass")
    engine = loaded_after(IMPORT_ENGINE)
    assert "ww5.engine.rules" in engine
    for name in ("django", "celery", "redis", "kombu", "psycopg"):
        assert not any(m == name or m.startswith(name + ".") for m in engine), name
    for name in ("socket", "subprocess", "asyncio", "datetime", "sqlite3", "http", "email"):
        assert name in bare or name not in engine, name


def test_importing_the_engine_loads_nothing_beyond_its_allowlisted_modules() -> None:
    # importlib.resources itself brings in tempfile (and so random) and zipfile: the
    # baseline imports the allowlist the same way, so only the engine's own modules differ.
    allowed = loaded_after(IMPORT_ALLOWED)
    engine = loaded_after(IMPORT_ENGINE)
    extra = {m for m in engine - allowed if m != "ww5" and not m.startswith("ww5.engine")}
    assert extra == set()


def test_the_import_check_sees_plain_from_and_nested_imports(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "import random\nfrom django.db import models\nfrom . import rules\n"
        "def later():\n    import socket\n",
        encoding="utf-8",
    )
    assert absolute_imports(source) == ["random", "django.db", "socket"]
