"""The standings as a table to download (the admin's CSV export): one row a player,
with every tie-break, as ``history.standings`` computes them.

A player's display name is theirs to choose: one that begins as a formula would
(``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written with a leading
apostrophe, which spreadsheet programs take as "this cell is text" (OWASP's advice on
CSV injection), so opening the file never runs it."""

from __future__ import annotations

import csv
import io

from tournaments.models import Entry, Tournament
from tournaments.selectors import history, report

COLUMNS = (
    "rank",
    "entry",
    "player",
    "status",
    "points",
    "games",
    "byes",
    "opponents",
    "outfinished",
    "outfinished_share",
    "opponents_average",
    "score_share",
    "draw",
    "withdrawn",
    "separated_by",
)


def standings_rows(event: Tournament) -> list[list[str]]:
    """The header, then each player's line, best first. Before round 1 is paired, the
    header alone: no one has played, and the order and the draw would tell of the
    event's seed, secret until then (``report.seed_revealed``)."""
    rows = [list(COLUMNS)]
    if not report.seed_revealed(event):
        return rows
    standings = history.standings(event)
    entries = {e.pk: e for e in event.entries.select_related("user__profile")}
    for line in standings.lines:
        entry: Entry = entries[line.player]
        rows.append(
            [
                str(line.rank),
                str(line.player),
                _text(entry.name),
                _text(entry.status),
                _number(line.points),
                str(line.games),
                str(line.byes),
                str(line.opponents),
                _number(line.outfinished),
                _number(line.outfinished_share),
                _number(line.opponents_average),
                _number(line.score_share),
                str(line.draw),
                "yes" if line.withdrawn else "no",
                _text(line.separated_by or ""),
            ]
        )
    return rows


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    """A text cell no spreadsheet reads as a formula."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _number(value: float) -> str:
    """Up to six decimals (as the standings keep them), no trailing zeros."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text or "0"


def standings_csv(event: Tournament) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(standings_rows(event))
    return out.getvalue()
