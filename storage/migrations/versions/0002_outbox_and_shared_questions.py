"""outbox and shared questions

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 10:00:00

The outbox keeps the messages the Bot API would not take until it is back; shared questions are
what a share link or an inline answer opens. Written in the style of 0001 (plain DateTime, no
import of the models); tests/storage/test_migrations.py checks the result matches
storage/models.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_key", sa.String(length=128), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("params", JSON, nullable=False),
        sa.Column("body", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
    )
    op.create_index(op.f("ix_outbox_created_at"), "outbox", ["created_at"])
    op.create_index("ix_outbox_platform_chat_key_id", "outbox", ["platform", "chat_key", "id"])
    op.create_table(
        "shared_questions",
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("inputs", JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_shared_questions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_shared_questions")),
    )
    op.create_index(op.f("ix_shared_questions_user_id"), "shared_questions", ["user_id"])


def downgrade() -> None:
    op.drop_table("shared_questions")
    op.drop_table("outbox")
