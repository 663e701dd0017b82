"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-30 09:58:40.957832

Generated with `alembic revision --autogenerate`, then reviewed by hand: the application's
UTCDateTime type became plain DateTime(timezone=True) so this file does not import the models
(a migration must keep meaning what it meant when later models change), the boolean server
defaults became sa.false() (autogenerate rendered SQLite's '0', which PostgreSQL refuses for a
boolean), indexes moved out of batch blocks (those are only needed to alter existing SQLite
tables), and the hardware columns shared by two tables come from one helper.
tests/storage/test_migrations.py checks that the result still matches storage/models.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import SchemaItem

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def _timestamps() -> list[sa.Column]:
    return [
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    ]


def _hardware(table: str) -> list[SchemaItem]:
    return [
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("gpu", sa.String(length=128), nullable=True),
        sa.Column("gpu_count", sa.Integer(), nullable=False),
        sa.Column("gpu_memory_gb", sa.Float(), nullable=True),
        sa.Column("ram_gb", sa.Float(), nullable=True),
        sa.Column("apple_chip", sa.String(length=32), nullable=True),
        sa.Column("apple_memory_gb", sa.Integer(), nullable=True),
        sa.Column("cpu", sa.String(length=128), nullable=True),
        sa.CheckConstraint(
            "gpu_count >= 0 AND gpu_count <= 4096", name=op.f(f"ck_{table}_gpu_count_range")
        ),
        sa.CheckConstraint(
            "gpu_memory_gb IS NULL OR gpu_memory_gb > 0",
            name=op.f(f"ck_{table}_gpu_memory_positive"),
        ),
        sa.CheckConstraint("ram_gb IS NULL OR ram_gb > 0", name=op.f(f"ck_{table}_ram_positive")),
        sa.CheckConstraint(
            "apple_memory_gb IS NULL OR apple_memory_gb > 0",
            name=op.f(f"ck_{table}_apple_memory_positive"),
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("external_id", sa.String(length=128), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("settings", JSON, nullable=False),
        *_timestamps(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("platform", "external_id", name=op.f("uq_users_platform_external_id")),
    )
    op.create_table(
        "chats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("external_id", sa.String(length=128), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("title", sa.String(length=256), nullable=True),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("settings", JSON, nullable=False),
        *_timestamps(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chats")),
        sa.UniqueConstraint("platform", "external_id", name=op.f("uq_chats_platform_external_id")),
    )
    op.create_table(
        "hardware_profiles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("is_default", sa.Boolean(), server_default=sa.false(), nullable=False),
        *_hardware("hardware_profiles"),
        *_timestamps(),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_hardware_profiles_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hardware_profiles")),
        sa.UniqueConstraint("user_id", "name", name=op.f("uq_hardware_profiles_user_id_name")),
    )
    op.create_index(
        "uq_hardware_profiles_one_default",
        "hardware_profiles",
        ["user_id"],
        unique=True,
        sqlite_where=sa.text("is_default"),
        postgresql_where=sa.text("is_default"),
    )
    op.create_table(
        "memberships",
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("shares_profile", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("shared_profile_id", sa.Integer(), nullable=True),
        *_timestamps(),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_memberships_chat_id_chats"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_memberships_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["shared_profile_id"],
            ["hardware_profiles.id"],
            name=op.f("fk_memberships_shared_profile_id_hardware_profiles"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("chat_id", "user_id", name=op.f("pk_memberships")),
    )
    op.create_index(op.f("ix_memberships_user_id"), "memberships", ["user_id"])
    op.create_table(
        "team_hardware",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("added_by", sa.Integer(), nullable=True),
        *_hardware("team_hardware"),
        *_timestamps(),
        sa.ForeignKeyConstraint(
            ["chat_id"],
            ["chats.id"],
            name=op.f("fk_team_hardware_chat_id_chats"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["added_by"],
            ["users.id"],
            name=op.f("fk_team_hardware_added_by_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_hardware")),
        sa.UniqueConstraint("chat_id", "name", name=op.f("uq_team_hardware_chat_id_name")),
    )
    op.create_index(op.f("ix_team_hardware_added_by"), "team_hardware", ["added_by"])
    op.create_table(
        "queries",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("inputs", JSON, nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("verdict", sa.String(length=16), nullable=True),
        sa.Column("total_bytes", sa.BigInteger(), nullable=True),
        sa.Column("per_device_bytes", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "total_bytes IS NULL OR total_bytes >= 0",
            name=op.f("ck_queries_total_bytes_not_negative"),
        ),
        sa.CheckConstraint(
            "per_device_bytes IS NULL OR per_device_bytes >= 0",
            name=op.f("ck_queries_per_device_bytes_not_negative"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_queries_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_queries_chat_id_chats"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_queries")),
    )
    op.create_index("ix_queries_user_id_created_at", "queries", ["user_id", "created_at"])
    op.create_index("ix_queries_chat_id_created_at", "queries", ["chat_id", "created_at"])
    op.create_table(
        "conversation_states",
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("state", JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_id"],
            ["chats.id"],
            name=op.f("fk_conversation_states_chat_id_chats"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_conversation_states_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("chat_id", "user_id", name=op.f("pk_conversation_states")),
    )
    op.create_index(op.f("ix_conversation_states_user_id"), "conversation_states", ["user_id"])
    op.create_table(
        "processed_updates",
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("update_id", sa.BigInteger(), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("source", "update_id", name=op.f("pk_processed_updates")),
    )
    op.create_index(
        op.f("ix_processed_updates_processed_at"), "processed_updates", ["processed_at"]
    )


def downgrade() -> None:
    # Dropping a table drops its indexes; children before parents.
    for table in (
        "processed_updates",
        "conversation_states",
        "queries",
        "team_hardware",
        "memberships",
        "hardware_profiles",
        "chats",
        "users",
    ):
        op.drop_table(table)
