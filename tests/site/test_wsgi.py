"""The WSGI application a server process loads: ready to serve when loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LOADED = """
import json, sys
import ww5site.wsgi
from django.urls import get_resolver
resolver = get_resolver()
print(json.dumps({
    "pages": [name for name in ("games.views", "tournaments.views", "ratings.views")
              if name in sys.modules],
    "names": resolver._populated,
    "games names": resolver.namespace_dict["games"][1]._populated,
    "frozen": __import__("gc").get_freeze_count(),
}))
"""


def test_a_loaded_application_has_its_pages_and_their_names_ready() -> None:
    # A gunicorn worker loads the application as it starts; its first request used to
    # import every page and build the table of names, 0.2 s of CPU against 6 ms for a
    # move. In a process of its own: this one has long imported them all.
    out = subprocess.run(
        [sys.executable, "-c", LOADED], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    # What it made in loading is kept out of the collector's walks (gc.freeze): Django,
    # the site's modules and their objects, some hundred thousand of them.
    assert loaded.pop("frozen") > 50_000
    assert loaded == {
        "pages": ["games.views", "tournaments.views", "ratings.views"],
        "names": True,
        "games names": True,
    }
