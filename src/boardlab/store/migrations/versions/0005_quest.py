"""The Plumber city quest: quests, their location and solution codes, teams and finds.

New tables (see :mod:`boardlab.store.quest`): ``quests`` (a level, its name and the
digest of the organiser's key), ``quest_locations`` (one code per segment, unique among
all quests), ``quest_codes`` (every solution code), ``quest_teams`` (name unique per quest
case-insensitively, token digest, join and finish times, attempts) and ``quest_finds``
(the segments each team revealed, once each).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "quests" not in tables:
        op.create_table(
            "quests",
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("name", sa.String(200), nullable=False),
            sa.Column("text", sa.Text(), nullable=False),
            sa.Column("rows", sa.Integer(), nullable=False),
            sa.Column("cols", sa.Integer(), nullable=False),
            sa.Column("code_count", sa.Integer(), nullable=False),
            sa.Column("organiser_hash", sa.String(64), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
    if "quest_locations" not in tables:
        op.create_table(
            "quest_locations",
            sa.Column("quest_id", sa.String(16),
                      sa.ForeignKey("quests.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("row", sa.Integer(), primary_key=True, autoincrement=False),
            sa.Column("col", sa.Integer(), primary_key=True, autoincrement=False),
            sa.Column("code", sa.String(16), nullable=False),
        )
        op.create_index("ix_quest_locations_code", "quest_locations", ["code"], unique=True)
    if "quest_codes" not in tables:
        op.create_table(
            "quest_codes",
            sa.Column("quest_id", sa.String(16),
                      sa.ForeignKey("quests.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("code", sa.Text(), primary_key=True),
        )
    if "quest_teams" not in tables:
        op.create_table(
            "quest_teams",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column("quest_id", sa.String(16),
                      sa.ForeignKey("quests.id", ondelete="CASCADE"), nullable=False),
            sa.Column("name", sa.String(40), nullable=False),
            sa.Column("name_key", sa.String(120), nullable=False),
            sa.Column("token_hash", sa.String(64), nullable=False),
            sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
            sa.Column("answer", sa.Text(), nullable=True),
            sa.Column("location_tries", sa.Integer(), nullable=False),
            sa.Column("wrong_locations", sa.Integer(), nullable=False),
            sa.Column("answer_tries", sa.Integer(), nullable=False),
        )
        op.create_index("ix_quest_teams_quest_name", "quest_teams", ["quest_id", "name_key"],
                        unique=True)
        op.create_index("ix_quest_teams_token", "quest_teams", ["token_hash"], unique=True)
    if "quest_finds" not in tables:
        op.create_table(
            "quest_finds",
            sa.Column("team_id", sa.Integer(),
                      sa.ForeignKey("quest_teams.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("row", sa.Integer(), primary_key=True, autoincrement=False),
            sa.Column("col", sa.Integer(), primary_key=True, autoincrement=False),
            sa.Column("found_at", sa.DateTime(timezone=True), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("quest_finds")
    op.drop_index("ix_quest_teams_token", table_name="quest_teams")
    op.drop_index("ix_quest_teams_quest_name", table_name="quest_teams")
    op.drop_table("quest_teams")
    op.drop_table("quest_codes")
    op.drop_index("ix_quest_locations_code", table_name="quest_locations")
    op.drop_table("quest_locations")
    op.drop_table("quests")
