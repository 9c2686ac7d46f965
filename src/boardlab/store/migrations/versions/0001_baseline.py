"""Baseline: every table of boardlab -- the pipe levels and codes and the web app's matches.

A database made before migrations existed (``create_all`` of the pipe store) already has
``pipe_levels`` and ``pipe_codes`` but no ``alembic_version``; the baseline creates only
the tables that are missing, so upgrading such a database adopts it (it ends stamped at
the head) and keeps its data. Later revisions assume the baseline's exact schema, which
``create_all`` of that time produced.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _pipe_levels() -> None:
    op.create_table(
        "pipe_levels",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("cols", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("solution_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def _pipe_codes() -> None:
    op.create_table(
        "pipe_codes",
        sa.Column("level_id", sa.Integer(),
                  sa.ForeignKey("pipe_levels.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ordinal", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("code", sa.Text(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
    )
    op.create_index("ix_pipe_codes_level_code", "pipe_codes", ["level_id", "code"])


def _web_matches() -> None:
    op.create_table(
        "web_matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(100), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_web_matches_updated_at", "web_matches", ["updated_at"])


TABLES = {"pipe_levels": _pipe_levels, "pipe_codes": _pipe_codes,
          "web_matches": _web_matches}


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    for name, create in TABLES.items():
        if name not in existing:
            create()


def downgrade() -> None:
    for name in reversed(list(TABLES)):
        op.drop_table(name)
