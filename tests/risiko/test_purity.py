"""The RisiKo engine is a library: it imports only the standard library it needs.

No Django, no Celery, no I/O, no clock and no global randomness: every import in
``risiko/engine/*.py`` is relative or on the allowlist below, checked in the source and
in a fresh interpreter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.purity import REPO_ROOT, absolute_imports, dynamic_imports, loaded_after

ENGINE = REPO_ROOT / "risiko" / "engine"
MODULES = sorted(ENGINE.glob("*.py"))
ALLOWED = {
    "__future__",
    "collections",
    "collections.abc",
    "dataclasses",
    "fractions",
    "functools",
    "hashlib",
    "hmac",
    "importlib",
    "importlib.resources",
    "itertools",
    "json",
    "re",
    "typing",
    "unicodedata",
}
FORBIDDEN = {
    "asyncio",
    "celery",
    "datetime",
    "django",
    "os",
    "random",
    "redis",
    "secrets",
    "socket",
    "subprocess",
    "threading",
    "time",
}


def test_the_engine_has_modules_to_check() -> None:
    names = {p.name for p in MODULES}
    assert names >= {"__init__.py", "rules.py", "position.py", "board.py", "bots.py"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_engine_import_is_relative_or_allowlisted_standard_library(path: Path) -> None:
    for module in absolute_imports(path):
        assert module in ALLOWED, f"{path.name} imports {module}"
        assert module.split(".")[0] not in FORBIDDEN, f"{path.name} imports {module}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_engine_module_imports_by_name_at_run_time(path: Path) -> None:
    assert dynamic_imports(path) == [], path.name


def test_importing_the_engine_loads_nothing_beyond_its_allowlisted_modules() -> None:
    imports = ["import risiko.engine"] + [
        f"import risiko.engine.{p.stem}" for p in MODULES if p.stem != "__init__"
    ]
    # importlib.resources itself loads tempfile (and so random): the baseline imports the
    # allowlist the same way, so only the engine's own modules differ.
    baseline = [f"import {m}" for m in sorted(ALLOWED)] + [
        "importlib.resources.files('json').joinpath('__init__.py').read_text(encoding='utf-8')"
    ]
    allowed = loaded_after("\n".join(baseline))
    engine = loaded_after("\n".join(imports))
    assert "risiko.engine.rules" in engine
    for name in ("django", "celery", "redis", "kombu", "psycopg"):
        assert not any(m == name or m.startswith(name + ".") for m in engine), name
    extra = {m for m in engine - allowed if m != "risiko" and not m.startswith("risiko.engine")}
    assert extra == set()
