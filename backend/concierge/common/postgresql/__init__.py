"""Django's PostgreSQL backend with timestamps read by psycopg's C loader (see base.py)."""
