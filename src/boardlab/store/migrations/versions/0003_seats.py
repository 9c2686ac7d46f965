"""Seats, clocks and live play for the web app's matches.

``web_matches`` gains: ``tokens`` (per seat, the SHA-256 of the secret seat token, or
null for a bot or an open seat; a match made before this revision has none, so nobody
holds its seats and it stays readable only), ``public`` (listed in the lobby),
``clock`` (time control and the time left), ``offers`` (pending draw offer and
take-back request), ``reason`` (how the game ended) and ``rematch`` (the id of the match
that continues it with the colours swapped).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _columns() -> list[sa.Column]:
    return [sa.Column("tokens", sa.JSON(), nullable=True),
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false()),
            sa.Column("clock", sa.JSON(), nullable=True),
            sa.Column("offers", sa.JSON(), nullable=True),
            sa.Column("reason", sa.String(20), nullable=True),
            sa.Column("rematch", sa.String(32), nullable=True)]


def upgrade() -> None:
    # A database adopted by the baseline was made by ``create_all`` of the models of
    # its day, which may already have some of these columns: only the missing ones are
    # added (as the baseline creates only the missing tables).
    inspector = sa.inspect(op.get_bind())
    existing = {c["name"] for c in inspector.get_columns("web_matches")}
    missing = [c for c in _columns() if c.name not in existing]
    if missing:
        with op.batch_alter_table("web_matches") as table:
            for column in missing:
                table.add_column(column)
    indexes = {i["name"] for i in inspector.get_indexes("web_matches")}
    if "ix_web_matches_public_updated_at" not in indexes:
        op.create_index("ix_web_matches_public_updated_at", "web_matches",
                        ["public", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_web_matches_public_updated_at", table_name="web_matches")
    with op.batch_alter_table("web_matches") as table:
        for column in ("rematch", "reason", "offers", "clock", "public", "tokens"):
            table.drop_column(column)
