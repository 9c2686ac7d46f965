"""Alembic revisions, oldest first: ``0001_baseline`` holds every table of boardlab."""
