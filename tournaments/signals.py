"""What the tournaments app tells other apps, which register receivers here.

``result_corrected`` is sent when an organiser corrects a finished table's result,
inside the correction's transaction. Keyword arguments: ``game`` (the table's
``games.models.Game``) and ``ranks`` (the corrected rank of each of its seats, by game
seat id; 1 is best, tied seats share a rank).
"""

from __future__ import annotations

from django.dispatch import Signal

result_corrected = Signal()
