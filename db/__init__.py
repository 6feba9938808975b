"""Persistence: database tables, engine and session creation, migrations."""
