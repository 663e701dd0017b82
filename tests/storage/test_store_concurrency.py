"""Many writers at once, in separate sessions: nothing lost, no constraint broken, on both
backends."""

import asyncio
import random

from sqlalchemy import func, select

from storage import HardwareSpec, NewQuery, Storage
from storage.models import ProfileRow, QueryRow, UserRow

WRITERS = 50
USERS = 5


def spec(i: int) -> HardwareSpec:
    return HardwareSpec(gpu="GeForce RTX 4090", gpu_count=1 + i % 8, gpu_memory_gb=24, ram_gb=64)


async def defaults_per_user(storage: Storage) -> dict[int, int]:
    async with storage.db.read() as session:
        rows = await session.execute(
            select(ProfileRow.user_id, func.count())
            .where(ProfileRow.is_default)
            .group_by(ProfileRow.user_id)
        )
        return dict(rows.all())


async def test_fifty_writers_save_profiles_and_queries(storage: Storage):
    users = [await storage.users.ensure("telegram", n) for n in range(USERS)]

    async def writer(i: int) -> None:
        user = users[i % USERS]
        await storage.profiles.save(user.id, f"machine {i}", spec(i), text=f"writer {i}")
        await storage.queries.save(
            NewQuery(user_id=user.id, text=f"question {i}", inputs={"i": i}, total_bytes=i)
        )

    await asyncio.gather(*(writer(i) for i in range(WRITERS)))

    for user in users:
        profiles = await storage.profiles.of_user(user.id)
        assert len(profiles) == WRITERS // USERS
        assert sum(p.is_default for p in profiles) == 1
    async with storage.db.read() as session:
        texts = set(await session.scalars(select(QueryRow.text)))
    assert texts == {f"question {i}" for i in range(WRITERS)}
    assert await defaults_per_user(storage) == {u.id: 1 for u in users}


async def test_concurrent_use_leaves_exactly_one_default(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    names = [f"p{i}" for i in range(10)]
    for i, name in enumerate(names):
        await storage.profiles.save(user.id, name, spec(i))
    picks = [random.Random(i).choice(names) for i in range(WRITERS)]

    results = await asyncio.gather(*(storage.profiles.use(user.id, n) for n in picks))

    assert all(r.is_default for r in results)
    default = await storage.profiles.default(user.id)
    assert default is not None and default.name in picks
    assert await defaults_per_user(storage) == {user.id: 1}


async def test_concurrent_saves_delete_and_use_keep_the_invariant(storage: Storage):
    user = await storage.users.ensure("local", "alice")
    await storage.profiles.save(user.id, "base", spec(0))

    async def churn(i: int) -> None:
        name = f"m{i % 7}"
        await storage.profiles.save(user.id, name, spec(i), make_default=i % 3 == 0)
        if i % 5 == 0:
            await storage.profiles.use(user.id, "base")

    await asyncio.gather(*(churn(i) for i in range(WRITERS)))

    profiles = await storage.profiles.of_user(user.id)
    assert sorted(p.name for p in profiles) == ["base"] + [f"m{i}" for i in range(7)]
    assert await defaults_per_user(storage) == {user.id: 1}


async def test_two_engines_write_to_one_database(database_url: str):
    """Two Storage objects stand in for two processes (two bot replicas)."""
    first = await Storage.open(database_url)
    second = await Storage.open(database_url)
    try:
        user = await first.users.ensure("telegram", 1)

        async def write(storage: Storage, i: int) -> None:
            await storage.profiles.save(user.id, f"m{i}", spec(i))
            await storage.queries.save(NewQuery(user_id=user.id, text=f"q{i}"))

        await asyncio.gather(*(write((first, second)[i % 2], i) for i in range(WRITERS)))

        assert len(await second.profiles.of_user(user.id)) == WRITERS
        assert len(await first.queries.recent_for_user(user.id, limit=1000)) == WRITERS
        assert await defaults_per_user(first) == {user.id: 1}
    finally:
        await first.close()
        await second.close()


async def test_a_user_seen_by_many_messages_at_once_is_created_once(storage: Storage):
    users = await asyncio.gather(
        *(storage.users.ensure("telegram", 777, language="nl") for _ in range(WRITERS))
    )
    assert len({u.id for u in users}) == 1
    async with storage.db.read() as session:
        assert await session.scalar(select(func.count()).select_from(UserRow)) == 1


async def test_a_chat_seen_by_many_messages_at_once_is_created_once(storage: Storage):
    chats = await asyncio.gather(
        *(storage.chats.ensure("telegram", -1, "group", title="Team") for _ in range(WRITERS))
    )
    assert len({c.id for c in chats}) == 1


async def test_an_update_delivered_many_times_at_once_is_claimed_once(storage: Storage):
    claims = await asyncio.gather(*(storage.updates.claim("telegram", 5) for _ in range(WRITERS)))
    assert claims.count(True) == 1


async def test_distinct_updates_at_once_are_each_claimed(storage: Storage):
    claims = await asyncio.gather(*(storage.updates.claim("telegram", i) for i in range(WRITERS)))
    assert all(claims)
    again = await asyncio.gather(*(storage.updates.claim("telegram", i) for i in range(WRITERS)))
    assert not any(again)


async def test_concurrent_conversation_updates_keep_one_row(storage: Storage):
    chat = await storage.chats.ensure("telegram", 1, "private")
    user = await storage.users.ensure("telegram", 1)
    await asyncio.gather(
        *(storage.conversations.put(chat.id, user.id, {"step": i}) for i in range(WRITERS))
    )
    state = await storage.conversations.get(chat.id, user.id)
    assert state is not None and 0 <= state.state["step"] < WRITERS
