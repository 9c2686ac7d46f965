"""A Triplex leaderboard that can be trusted, and progress kept on the server.

``triplex_solves`` gains what makes a solve traceable: ``token`` (the nonce of the
server's start token that timed it, unique, so a token records one solve only),
``timed`` (``seconds`` was measured by the server; false for the rows made before this
revision, whose seconds the client sent), ``client_seconds`` (what the client said, kept
as a trace only), ``client`` (an anonymised key of the client's address) and ``suspect``
(faster than the level's floor: shown, but never first and never in the times).

New tables: ``server_secrets`` (the keys the server signs with, made on first use, so
they live with the data and never in the code), ``triplex_players`` (a name and the
scrypt hash of its secret, with its salt and parameters) and ``triplex_progress`` (per
player and pack, the highest level reached and the code that opens it).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _solve_columns() -> list[sa.Column]:
    return [sa.Column("token", sa.String(32), nullable=True),
            sa.Column("timed", sa.Boolean(), nullable=False, server_default=sa.false()),
            sa.Column("client_seconds", sa.Float(), nullable=True),
            sa.Column("client", sa.String(32), nullable=True),
            sa.Column("suspect", sa.Boolean(), nullable=False, server_default=sa.false())]


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    existing = {c["name"] for c in inspector.get_columns("triplex_solves")}
    missing = [c for c in _solve_columns() if c.name not in existing]
    if missing:
        with op.batch_alter_table("triplex_solves") as table:
            for column in missing:
                table.add_column(column)
    indexes = {i["name"] for i in inspector.get_indexes("triplex_solves")}
    if "ix_triplex_solves_token" not in indexes:
        # NULL tokens (the old rows) do not collide: both SQLite and PostgreSQL let a
        # unique index hold any number of NULLs.
        op.create_index("ix_triplex_solves_token", "triplex_solves", ["token"], unique=True)
    if "ix_triplex_solves_name" not in indexes:
        op.create_index("ix_triplex_solves_name", "triplex_solves", ["pack", "name"])
    tables = set(inspector.get_table_names())
    if "server_secrets" not in tables:
        op.create_table(
            "server_secrets",
            sa.Column("name", sa.String(40), primary_key=True),
            sa.Column("secret", sa.LargeBinary(64), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
    if "triplex_players" not in tables:
        op.create_table(
            "triplex_players",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column("name", sa.String(40), nullable=False),
            sa.Column("name_key", sa.String(160), nullable=False),
            sa.Column("kdf", sa.String(60), nullable=False),
            sa.Column("salt", sa.LargeBinary(32), nullable=False),
            sa.Column("digest", sa.LargeBinary(64), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index("ix_triplex_players_name_key", "triplex_players", ["name_key"],
                        unique=True)
    if "triplex_progress" not in tables:
        op.create_table(
            "triplex_progress",
            sa.Column("player_id", sa.Integer(),
                      sa.ForeignKey("triplex_players.id", ondelete="CASCADE"),
                      primary_key=True),
            sa.Column("pack", sa.String(128), primary_key=True),
            sa.Column("level", sa.Integer(), nullable=False),
            sa.Column("code", sa.String(100), nullable=False),
            sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("triplex_progress")
    op.drop_index("ix_triplex_players_name_key", table_name="triplex_players")
    op.drop_table("triplex_players")
    op.drop_table("server_secrets")
    op.drop_index("ix_triplex_solves_name", table_name="triplex_solves")
    op.drop_index("ix_triplex_solves_token", table_name="triplex_solves")
    with op.batch_alter_table("triplex_solves") as table:
        for column in ("suspect", "client", "client_seconds", "timed", "token"):
            table.drop_column(column)
