"""The RisiKo engine is a library: it imports only the standard library it needs.

No Django, no Celery, no I/O, no clock and no global randomness: every import in
``risiko/engine/*.py`` is relative or on the allowlist below, checked in the source and
in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.risiko.helpers import REPO_ROOT

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


def absolute_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            assert node.module is not None
            found.append(node.module)
    return found


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
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            assert name not in {"__import__", "import_module"}, path.name


def loaded_after(code: str) -> set[str]:
    script = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(json.loads(result.stdout.strip().splitlines()[-1]))


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
