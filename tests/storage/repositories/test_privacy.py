"""Export and forget: everything about one person out, or gone, and nobody else touched."""

from typing import Any

from sqlalchemy import select

from storage import HardwareSpec, NewQuery, Storage
from storage.models import Base
from storage.schemas import User

GPU = HardwareSpec(gpu="GeForce RTX 4090", gpu_count=1, gpu_memory_gb=24, ram_gb=64)
MAC = HardwareSpec(apple_chip="M3 Max", apple_memory_gb=64)
# The columns through which a row belongs to a user (and goes when they are forgotten).
OWNER_COLUMNS = {
    "users": "id",
    "hardware_profiles": "user_id",
    "memberships": "user_id",
    "queries": "user_id",
    "conversation_states": "user_id",
    "shared_questions": "user_id",
}


async def everything(storage: Storage) -> dict[str, list[dict[str, Any]]]:
    async with storage.db.read() as session:
        return {
            table.name: [dict(row._mapping) for row in await session.execute(select(table))]
            for table in Base.metadata.sorted_tables
        }


async def populate(storage: Storage, name: str, team_id: int) -> User:
    user = await storage.users.ensure("telegram", name, language="nl")
    private = await storage.chats.ensure("telegram", f"dm-{name}", "private")
    await storage.profiles.save(user.id, "desk", GPU, text=f"{name}'s desk")
    await storage.profiles.save(user.id, "mac", MAC)
    await storage.chats.share_profile(team_id, user.id, "mac")
    await storage.team_hardware.save(team_id, f"{name} server", GPU, added_by=user.id)
    for chat_id in (team_id, private.id):
        await storage.queries.save(
            NewQuery(user_id=user.id, chat_id=chat_id, text=f"{name} asks", verdict="fits")
        )
        await storage.conversations.put(chat_id, user.id, {"who": name})
    await storage.updates.claim("telegram", ord(name[0]))
    # Telegram's private chat with a person has the person's id: it exists from their first
    # message, also when they never asked anything there.
    await storage.chats.ensure("telegram", name, "private")
    await storage.shared.share(user.id, f"{name} shares", {"model": "Qwen2.5-7B"})
    await storage.outbox.keep("telegram", name, "sendMessage", {"text": f"for {name}"})
    return user


def own_chats(name: str) -> set[str]:
    """The external ids of a person's own chats with the bot, as populate() makes them."""
    return {name, f"dm-{name}"}


async def test_forget_deletes_exactly_the_users_rows(storage: Storage):
    team = await storage.chats.ensure("telegram", -1, "group", title="Team")
    alice = await populate(storage, "alice", team.id)
    bob = await populate(storage, "bob", team.id)
    before = await everything(storage)

    assert await storage.privacy.forget(alice.id)

    after = await everything(storage)
    for table, rows in before.items():
        column = OWNER_COLUMNS.get(table)
        kept = [r for r in rows if column is None or r[column] != alice.id]
        if table == "team_hardware":
            kept = [{**r, "added_by": None} if r["added_by"] == alice.id else r for r in rows]
        if table == "chats":
            kept = [r for r in rows if r["external_id"] not in own_chats("alice")]
        if table == "outbox":
            kept = [r for r in rows if r["chat_key"] not in own_chats("alice")]
        if table == "queries":  # bob's query in alice's private chat cannot exist; none here
            kept = [r for r in kept if r["user_id"] != alice.id]
        assert sorted(map(repr, after[table])) == sorted(map(repr, kept)), table
    assert not any(alice.id == r["added_by"] for r in after["team_hardware"])
    assert await storage.users.get(bob.id) is not None
    assert [s.user.id for s in await storage.chats.shared_profiles(team.id)] == [bob.id]


async def test_forgetting_nobody_changes_nothing(storage: Storage):
    team = await storage.chats.ensure("telegram", -1, "group")
    await populate(storage, "bob", team.id)
    before = await everything(storage)
    assert not await storage.privacy.forget(12345)
    assert await everything(storage) == before


async def test_export_holds_everything_about_the_user_and_nothing_else(storage: Storage):
    team = await storage.chats.ensure("telegram", -1, "group", title="Team")
    alice = await populate(storage, "alice", team.id)
    await populate(storage, "bob", team.id)

    export = await storage.privacy.export(alice.id)

    assert export.user is not None and export.user.id == alice.id
    assert [p.name for p in export.profiles] == ["desk", "mac"]
    assert {c.external_id for c in export.chats} == {"-1", *own_chats("alice")}
    assert [m.chat_id for m in export.memberships] == [team.id]
    assert [h.name for h in export.team_hardware_added] == ["alice server"]
    assert [q.text for q in export.queries] == ["alice asks", "alice asks"]
    assert {s.state["who"] for s in export.conversation_states} == {"alice"}
    assert [q.text for q in export.shared_questions] == ["alice shares"]
    assert "bob" not in export.model_dump_json()


async def test_summary_counts_what_forget_would_delete(storage: Storage):
    team = await storage.chats.ensure("telegram", -1, "group")
    alice = await populate(storage, "alice", team.id)
    summary = await storage.privacy.summary(alice.id)
    assert summary.model_dump() == {
        "profiles": 2,
        "queries": 2,
        "memberships": 1,
        "conversation_states": 2,
    }
