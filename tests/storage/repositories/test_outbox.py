"""The outbox: messages kept in order per chat, claimed by one process at a time, released
for another try, gone once sent, pruned when too old."""

from datetime import timedelta

from storage import Storage
from storage.models import OutboxRow, utcnow

HOLD = timedelta(seconds=60)


async def keep(storage: Storage, chat: str, text: str) -> int:
    kept = await storage.outbox.keep("telegram", chat, "sendMessage", {"text": text})
    return kept.id


async def test_the_oldest_message_of_each_chat_comes_first(storage: Storage):
    a1 = await keep(storage, "1", "a1")
    b1 = await keep(storage, "2", "b1")
    a2 = await keep(storage, "1", "a2")
    assert await storage.outbox.chats("telegram") == {"1", "2"}
    first = await storage.outbox.claim("telegram", HOLD)
    assert [m.id for m in first] == [a1, b1]  # one per chat: a2 waits for a1
    assert await storage.outbox.claim("telegram", HOLD) == []  # all held
    await storage.outbox.sent(a1)
    second = await storage.outbox.claim("telegram", HOLD)
    assert [m.params["text"] for m in second] == ["a2"]
    await storage.outbox.sent(a2)
    await storage.outbox.sent(b1)
    assert await storage.outbox.chats("telegram") == set()


async def test_a_released_message_is_claimed_again(storage: Storage):
    a1 = await keep(storage, "1", "a1")
    (claimed,) = await storage.outbox.claim("telegram", HOLD)
    await storage.outbox.release(claimed.id)
    (again,) = await storage.outbox.claim("telegram", HOLD)
    assert again.id == a1


async def test_a_hold_that_ran_out_is_free_again(storage: Storage):
    """A process that died holding a message only delays it."""
    await keep(storage, "1", "a1")
    assert len(await storage.outbox.claim("telegram", timedelta(seconds=-1))) == 1
    assert len(await storage.outbox.claim("telegram", HOLD)) == 1


async def test_a_photo_keeps_its_bytes(storage: Storage):
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    await storage.outbox.keep("telegram", "7", "sendPhoto", {"caption": "chart"}, png)
    (photo,) = await storage.outbox.claim("telegram", HOLD)
    assert (photo.method, photo.body, photo.params) == ("sendPhoto", png, {"caption": "chart"})


async def test_old_messages_are_pruned(storage: Storage):
    old = await keep(storage, "1", "old")
    new = await keep(storage, "2", "new")
    async with storage.db.write() as session:
        row = await session.get(OutboxRow, old)
        row.created_at = utcnow() - timedelta(hours=49)
    assert await storage.outbox.prune(timedelta(hours=48)) == 1
    assert [m.id for m in await storage.outbox.claim("telegram", HOLD)] == [new]
