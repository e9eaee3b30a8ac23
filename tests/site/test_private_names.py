"""A private name (one leading underscore) stays inside its module: no module of the
project's packages imports one from another module, nor reaches one as an attribute of a
project module it imported. A helper that several modules share has a public name."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PACKAGES = ("accounts", "games", "inbound", "mail", "ratings", "tournaments", "ww5site", "bench")


def module_name(path: Path) -> str:
    """The dotted name of the module in ``path`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files() -> dict[str, Path]:
    """Every module of the project's packages but their migrations, by dotted name."""
    files: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.relative_to(ROOT).parts:
                files[module_name(path)] = path
    return files


MODULES = project_files()


def is_private(name: str) -> bool:
    """One leading underscore: ``_lock`` is private, ``__init__`` and ``__all__`` are not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def imported_from(node: ast.ImportFrom, module: str, package: bool) -> str:
    """The absolute name of the module a ``from … import`` in ``module`` (a ``package``'s
    ``__init__`` or not) reads, relative ones resolved."""
    if not node.level:
        return node.module or ""
    package_parts = module.split(".") if package else module.split(".")[:-1]
    base = package_parts[: len(package_parts) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def private_names(module: str, package: bool, source: str) -> Iterator[tuple[int, str]]:
    """(line, what) for each private name the ``source`` of ``module`` (a ``package``'s
    ``__init__`` or not) takes from another project module."""
    tree = ast.parse(source, filename=module)
    # The names this file binds to a project module, as ``import games.services as s``,
    # ``import games.services`` (binds ``games``) or ``from games import services``.
    # Bindings are gathered for the whole file: a name a function binds to a module is
    # taken as that module anywhere in the file (good enough for a guard).
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in MODULES:
                    continue
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom):
            origin = imported_from(node, module, package)
            for alias in node.names:
                if f"{origin}.{alias.name}" in MODULES:
                    bound[alias.asname or alias.name] = f"{origin}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            origin = imported_from(node, module, package)
            if origin == module or origin not in MODULES:
                continue
            for alias in node.names:
                if is_private(alias.name):
                    yield node.lineno, f"from {origin} import {alias.name}"
        elif isinstance(node, ast.Attribute) and is_private(node.attr):
            # ``a.b.c._name``: read the dotted chain left of ``_name``; it must be a
            # project module (not a class or object reached through one).
            chain: list[str] = []
            value: ast.expr = node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if not isinstance(value, ast.Name) or value.id not in bound:
                continue
            target = ".".join([bound[value.id], *reversed(chain)])
            if target != module and target in MODULES:
                yield node.lineno, f"{target}.{node.attr}"


def test_the_scan_sees_every_package_and_no_migration() -> None:
    assert {name.split(".")[0] for name in MODULES} == set(PACKAGES)
    assert "games.services.core" in MODULES and "tournaments.services" in MODULES
    assert not any(".migrations" in name for name in MODULES)


def test_a_private_name_taken_from_another_module_is_found() -> None:
    source = """
from games.services.core import _secret, public
from .clocks import (
    time_allowed,
    _hidden,
)
from . import core
import games.services.lobby
import tournaments.services as events
core._inner(); games.services.lobby._inner(); events._lock()
from games.services.record import _own  # its own module
from collections import _chain_map  # not the project's
core.Decision._fields; events.__name__; self._x  # no module's private name
"""
    found = sorted(private_names("games.services.record", False, source))

    assert found == [
        (2, "from games.services.core import _secret"),
        (3, "from games.services.clocks import _hidden"),
        (10, "games.services.core._inner"),
        (10, "games.services.lobby._inner"),
        (10, "tournaments.services._lock"),
    ]


def test_relative_imports_in_a_package_resolve_from_the_package() -> None:
    source = "from .core import _store\nfrom ..models import _x\n"

    found = sorted(private_names("games.services", True, source))

    assert found == [
        (1, "from games.services.core import _store"),
        (2, "from games.models import _x"),
    ]


def test_no_module_imports_another_modules_private_name() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for module, path in MODULES.items()
        for line, what in private_names(
            module, path.name == "__init__.py", path.read_text(encoding="utf-8")
        )
    ]

    assert not found, "private names used outside their module:\n" + "\n".join(found)
