"""The games app's pure core: no Django, no I/O, no clock (``fairdice``)."""
