"""The Triplex leaderboard: ``triplex_solves``, one row per accepted solve of a level.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "triplex_solves",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("pack", sa.String(128), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("solved_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_triplex_solves_pack_level", "triplex_solves",
                    ["pack", "level", "id"])


def downgrade() -> None:
    op.drop_index("ix_triplex_solves_pack_level", table_name="triplex_solves")
    op.drop_table("triplex_solves")
