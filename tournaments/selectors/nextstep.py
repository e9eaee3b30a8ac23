"""What a player of a running event is told on its page: their part in the current
round and, once their table is over (or they sit out with a bye), how the round ends
and what follows it. Read from the event's report (``report.event_report``)."""

from __future__ import annotations

from typing import Any

from tournaments.models import Round, Tournament

UNDER_WAY = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)


def current_round(event: Tournament, whole: dict[str, Any], entry_id: int) -> dict[str, Any] | None:
    """The player's line for the event's latest round while the event runs: ``state``
    is playing, over, bye, paired (waiting for an organiser), ended (the round is
    over, the next not yet paired) or out (no table this round); None before the
    event starts and after it ends."""
    if event.status not in UNDER_WAY or not whole["rounds"]:
        return None
    latest = whole["rounds"][-1]
    line: dict[str, Any] = {
        "round": latest,
        "planned": whole["settings"].get("planned_rounds"),
        "paused": event.status == Tournament.Status.PAUSED,
        "table": None,
        "seat": None,
        "place": None,
    }
    for table in latest["tables"]:
        for seat in table["seats"]:
            if seat["player"] == entry_id:
                line["table"], line["seat"], line["place"] = table, seat, seat["place"]
    line["state"] = _state(latest, line["table"], entry_id)
    if line["state"] in ("over", "bye") and latest["status"] == Round.Status.RUNNING:
        line["tables_left"] = sum(1 for t in latest["tables"] if t["finished_at"] is None)
        line["next"] = _after(event, latest, line["planned"])
    return line


def _state(latest: dict[str, Any], table: dict[str, Any] | None, entry_id: int) -> str:
    if latest["status"] == Round.Status.PAIRED:
        return "paired" if table or _has_bye(latest, entry_id) else "out"
    if latest["status"] == Round.Status.FINISHED:
        return "ended"
    if table is not None:
        return "playing" if table["finished_at"] is None else "over"
    return "bye" if _has_bye(latest, entry_id) else "out"


def _has_bye(latest: dict[str, Any], entry_id: int) -> bool:
    return any(bye["player"] == entry_id for bye in latest["byes"])


def _after(event: Tournament, latest: dict[str, Any], planned: int | None) -> dict[str, Any]:
    """What follows the round: the event's end, its top cut, or the next round, paired
    when the round ends and started at once or after an organiser's review."""
    number = latest["number"]
    cut = (
        event.format == Tournament.Format.SWISS_CUT
        and latest["stage"] not in ("cut", "final")
        and planned is not None
        and number >= planned
    )
    if latest["stage"] == "final" or (
        event.format in (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN)
        and planned is not None
        and number >= planned
    ):
        return {"ends": True}
    return {
        "ends": False,
        "cut": cut,
        "cut_size": event.cut_size,
        # In an elimination (and a cut's pods) only the best of each table go on.
        "advance": event.advance_per_table if latest["stage"] in ("elimination", "cut") else 0,
        "number": number + 1,
        "review": event.review_pairings,
    }
