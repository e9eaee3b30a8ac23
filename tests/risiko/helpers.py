"""Paths and data shared by the RisiKo engine tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGED_BOARD = REPO_ROOT / "risiko" / "engine" / "board.json"


def shared_file(name: str) -> Path | None:
    """``shared/risiko/<name>`` in the nearest folder above the repository that has it
    (``../shared`` beside a checkout; a worktree sits one level deeper)."""
    for folder in REPO_ROOT.parents:
        candidate = folder / "shared" / "risiko" / name
        if candidate.exists():
            return candidate
    return None


def cases() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "cases.json").read_text(encoding="utf-8"))
    return data
