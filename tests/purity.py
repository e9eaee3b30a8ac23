"""What the purity tests of the pure packages share (the two engines, the tournament core):
the modules a source file imports, read from its syntax, and the modules a fresh
interpreter has loaded after some code."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def absolute_imports(path: Path) -> list[str]:
    """Every module ``path`` imports by absolute name (``import x``, ``from x import y``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            assert node.module is not None
            found.append(node.module)
    return found


def dynamic_imports(path: Path) -> list[str]:
    """Calls that could import by name at run time: ``__import__`` and ``import_module``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in {"__import__", "import_module"}:
                names.append(name)
    return names


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running ``code``."""
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
