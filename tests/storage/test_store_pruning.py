"""Scheduled pruning: update claims and conversation states older than their retention go,
newer ones stay, and an update id seen again after pruning is new again (Telegram may reuse
ids after a quiet week)."""

from datetime import timedelta

from sqlalchemy import update

from storage import Storage
from storage.models import ConversationStateRow, ProcessedUpdateRow, utcnow

DAY = timedelta(days=1)


async def age(storage: Storage, table, column, hours: float) -> None:
    async with storage.db.write() as session:
        await session.execute(update(table).values({column: utcnow() - timedelta(hours=hours)}))


async def test_old_claims_and_states_go_new_ones_stay(storage: Storage):
    user = await storage.users.ensure("telegram", 1)
    chat = await storage.chats.ensure("telegram", 1, "private")
    other = await storage.chats.ensure("telegram", 2, "private")
    assert await storage.updates.claim("telegram", 100)
    await storage.conversations.put(chat.id, user.id, {"answered": True})
    await age(storage, ProcessedUpdateRow, "processed_at", 49)
    await age(storage, ConversationStateRow, "updated_at", 25)
    assert await storage.updates.claim("telegram", 101)  # fresh
    await storage.conversations.put(other.id, user.id, {"answered": False})  # fresh

    pruned = await storage.prune(updates=2 * DAY, states=DAY)

    assert (pruned.updates, pruned.states, pruned.outbox) == (1, 1, 0)
    assert await storage.updates.claim("telegram", 100)  # new again
    assert not await storage.updates.claim("telegram", 101)
    assert await storage.conversations.get(chat.id, user.id) is None
    assert await storage.conversations.get(other.id, user.id) is not None


async def test_pruning_nothing_is_harmless(storage: Storage):
    pruned = await storage.prune(updates=2 * DAY, states=DAY)
    assert (pruned.updates, pruned.states, pruned.outbox) == (0, 0, 0)


async def test_the_database_answers_a_ping(storage: Storage):
    await storage.ping()
