"""Django's PostgreSQL backend, reading timestamps with psycopg's compiled loader.

Named as the database's ENGINE by the settings whenever ``DATABASE_URL`` is a
PostgreSQL one; everything else is Django's own backend (``base.DatabaseWrapper``).
"""
