"""The running bot prunes on its schedule (the first round on start): update claims past their
retention go, so an id Telegram hands out again after a quiet week is answered; fresh claims
stay and still stop redeliveries."""

import asyncio
import time
from datetime import timedelta

from sqlalchemy import func, select, update

from storage.models import ProcessedUpdateRow, utcnow
from tests.bot.telegram.conftest import Running
from tests.bot.telegram.fake_updates import command_entities, user_dict
from tests.bot.telegram.test_app import ALICE


async def claims(storage, update_id: int) -> int:
    async with storage.db.read() as session:
        return await session.scalar(
            select(func.count()).where(ProcessedUpdateRow.update_id == update_id)
        )


def help_message(fake, update_id: int) -> dict:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "chat": fake.add_chat(ALICE),
            "from": user_dict(ALICE, "Test", "en"),
            "text": "/help",
            "entities": command_entities("/help"),
        },
    }


async def test_the_bot_prunes_old_claims_when_it_starts(fake, storage):
    assert await storage.updates.claim("telegram", 5)
    assert await storage.updates.claim("telegram", 6)
    async with storage.db.write() as session:
        await session.execute(
            update(ProcessedUpdateRow)
            .where(ProcessedUpdateRow.update_id == 5)
            .values(processed_at=utcnow() - timedelta(hours=49))
        )
    running = Running(fake, storage, telegram_update_retention_hours=48)
    await running.start()
    try:
        async with asyncio.timeout(15):
            while await claims(storage, 5):
                await asyncio.sleep(0.05)
        fake.enqueue(help_message(fake, 6))  # a redelivery: dropped
        fake.enqueue(help_message(fake, 5))  # an id used again after its claim was pruned
        (answer,) = await fake.wait_messages(ALICE, 1, timeout=15)
        await asyncio.sleep(1.0)
    finally:
        await running.stop()
    assert answer.plain_text.startswith("Ask any question")
    assert len(fake.messages(ALICE)) == 1
