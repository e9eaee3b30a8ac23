"""What accounts tells the apps above it, which it may not import: they register
receivers here (in their ``AppConfig.ready``).

Both absence signals are sent inside the transaction that changes the absence, once the
player's profile row is locked, with ``user`` and ``absence`` (a withdrawn absence is the
deleted row, its times still set). A receiver's changes commit with the absence, or roll
back with it: one that raises refuses the change. Receivers lock their own rows after the
profile, never before it, so that two changes cannot wait for each other.
"""

from django.dispatch import Signal

absence_declared = Signal()
absence_withdrawn = Signal()
