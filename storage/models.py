"""The tables, as SQLAlchemy 2 typed models. Repositories return pydantic objects, never these.

Deleting a user must delete exactly their data, so every row that belongs to a user references
it with ON DELETE CASCADE, while rows that belong to a team and merely record who did something
(team hardware's `added_by`, a query's chat) use ON DELETE SET NULL. The database enforces this,
not the ORM, so a plain DELETE (or another process) gets the same result.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Stable constraint names, so later migrations can alter or drop them on both backends.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

JSONDocument = JSON().with_variant(JSONB(), "postgresql")
# SQLite only aliases the rowid (and so autoincrements) for a column typed exactly INTEGER.
BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on both backends (SQLite stores them without an offset)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    if TYPE_CHECKING:
        # DeclarativeBase types __table__ as any FromClause (a class may be mapped to a join or
        # a select); every row class here is mapped to one Table.
        __table__: ClassVar[Table]

    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSONDocument,
    }


class Timestamps:
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class HardwareColumns:
    """What a machine has; shared by personal profiles and team hardware."""

    text: Mapped[str] = mapped_column(Text, default="")
    gpu: Mapped[str | None] = mapped_column(String(128))
    gpu_count: Mapped[int] = mapped_column(Integer, default=0)
    gpu_memory_gb: Mapped[float | None] = mapped_column(Float)
    ram_gb: Mapped[float | None] = mapped_column(Float)
    apple_chip: Mapped[str | None] = mapped_column(String(32))
    apple_memory_gb: Mapped[int | None] = mapped_column(Integer)
    cpu: Mapped[str | None] = mapped_column(String(128))


def _hardware_checks() -> tuple[CheckConstraint, ...]:
    return (
        CheckConstraint("gpu_count >= 0 AND gpu_count <= 4096", name="gpu_count_range"),
        CheckConstraint("gpu_memory_gb IS NULL OR gpu_memory_gb > 0", name="gpu_memory_positive"),
        CheckConstraint("ram_gb IS NULL OR ram_gb > 0", name="ram_positive"),
        CheckConstraint(
            "apple_memory_gb IS NULL OR apple_memory_gb > 0", name="apple_memory_positive"
        ),
    )


class UserRow(Timestamps, Base):
    """A person: a Telegram account or a local OS user (`platform` + its id for them)."""

    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("platform", "external_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    # A string because not every platform's ids are numbers (Slack's are "U024BE7LH").
    external_id: Mapped[str] = mapped_column(String(128))
    language: Mapped[str | None] = mapped_column(String(8))
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)


class ProfileRow(HardwareColumns, Timestamps, Base):
    __tablename__ = "hardware_profiles"
    __table_args__ = (
        UniqueConstraint("user_id", "name"),
        # At most one default per user, enforced by the database under any concurrency.
        Index(
            "uq_hardware_profiles_one_default",
            "user_id",
            unique=True,
            sqlite_where=text("is_default"),
            postgresql_where=text("is_default"),
        ),
        *_hardware_checks(),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    is_default: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ChatRow(Timestamps, Base):
    """A place where questions are asked: a Telegram private chat or group, or a terminal."""

    __tablename__ = "chats"
    __table_args__ = (UniqueConstraint("platform", "external_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    external_id: Mapped[str] = mapped_column(String(128))
    type: Mapped[str] = mapped_column(String(16))
    title: Mapped[str | None] = mapped_column(String(256))
    language: Mapped[str | None] = mapped_column(String(8))
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)


class MembershipRow(Timestamps, Base):
    """A user seen in a team chat, and whether they share a hardware profile with the team."""

    __tablename__ = "memberships"

    chat_id: Mapped[int] = mapped_column(
        ForeignKey("chats.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    shares_profile: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # NULL while sharing means "whichever profile is my default".
    shared_profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("hardware_profiles.id", ondelete="SET NULL")
    )


class TeamHardwareRow(HardwareColumns, Timestamps, Base):
    __tablename__ = "team_hardware"
    __table_args__ = (UniqueConstraint("chat_id", "name"), *_hardware_checks())

    id: Mapped[int] = mapped_column(primary_key=True)
    chat_id: Mapped[int] = mapped_column(ForeignKey("chats.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    # The team keeps the machine when the person who added it leaves or is forgotten.
    added_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )


class QueryRow(Base):
    """One question and the headline of its answer."""

    __tablename__ = "queries"
    __table_args__ = (
        Index("ix_queries_user_id_created_at", "user_id", "created_at"),
        Index("ix_queries_chat_id_created_at", "chat_id", "created_at"),
        CheckConstraint("total_bytes IS NULL OR total_bytes >= 0", name="total_bytes_not_negative"),
        CheckConstraint(
            "per_device_bytes IS NULL OR per_device_bytes >= 0",
            name="per_device_bytes_not_negative",
        ),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    chat_id: Mapped[int | None] = mapped_column(ForeignKey("chats.id", ondelete="SET NULL"))
    text: Mapped[str] = mapped_column(Text)
    inputs: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(16))
    verdict: Mapped[str | None] = mapped_column(String(16))
    total_bytes: Mapped[int | None] = mapped_column(BigInteger)
    per_device_bytes: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ConversationStateRow(Base):
    """Where a half-finished conversation stands, per (chat, user), shared by bot replicas."""

    __tablename__ = "conversation_states"

    chat_id: Mapped[int] = mapped_column(
        ForeignKey("chats.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class ProcessedUpdateRow(Base):
    """An incoming update already handled; redelivered updates are recognised and skipped."""

    __tablename__ = "processed_updates"

    source: Mapped[str] = mapped_column(String(16), primary_key=True)
    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    processed_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class OutboxRow(Base):
    """A message the Bot API would not take: kept until it is back, sent then (also by the next
    process after a restart), oldest first per chat."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_platform_chat_key_id", "platform", "chat_key", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    # The platform's own chat id (a Telegram chat id), not chats.id: the message goes there.
    chat_key: Mapped[str] = mapped_column(String(128))
    method: Mapped[str] = mapped_column(String(32))
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    body: Mapped[bytes | None] = mapped_column(LargeBinary)  # a chart's PNG
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # A process sending the row holds it until then, so another replica does not send it too.
    claimed_until: Mapped[datetime | None] = mapped_column()


class SharedQuestionRow(Base):
    """A question someone shared (a share button, an inline answer): a link opens it for anyone
    who has the link, until its author is forgotten."""

    __tablename__ = "shared_questions"

    token: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    text: Mapped[str] = mapped_column(Text)
    inputs: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
