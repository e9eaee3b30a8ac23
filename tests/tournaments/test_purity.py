"""The tournament core is pure: no Django, no database, no I/O, no clock and no global
randomness (conventions, "The engine is a library", applied to the core), and no game:
what a game's kind knows is handed to it as plain values."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.purity import REPO_ROOT, absolute_imports

CORE = REPO_ROOT / "tournaments" / "core"
MODULES = sorted(CORE.glob("*.py"))
ALLOWED = {
    "__future__",
    "collections",
    "collections.abc",
    "dataclasses",
    "functools",
    "hashlib",
    "itertools",
    "math",
    "random",
    "typing",
}


def test_the_core_has_its_modules() -> None:
    names = {p.stem for p in MODULES}
    assert {"pairing", "standings", "seating", "cut", "roundrobin", "adjudication"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_every_import_is_allowlisted(path: Path) -> None:
    for module in absolute_imports(path):
        assert module in ALLOWED, f"{path.name} imports {module}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_randomness_comes_only_from_a_seeded_random_instance(path: Path) -> None:
    """``random.Random(seed)`` is the only use of the random module: its module-level
    functions share one global, unseeded state."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random":
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            raise AssertionError(f"{path.name} imports names from random")


def test_the_purity_check_catches_global_randomness(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import random\nx = random.shuffle\n", encoding="utf-8")
    with pytest.raises(AssertionError):
        test_randomness_comes_only_from_a_seeded_random_instance(sample)


def test_importing_the_core_loads_no_django() -> None:
    code = (
        "import sys\n"
        + "".join(f"import tournaments.core.{p.stem}\n" for p in MODULES)
        + "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'django', 'celery', 'redis', 'psycopg', 'accounts', 'mail', 'games', 'ww5'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert result.stdout.strip() == "[]"
