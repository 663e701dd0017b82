"""No chat's backlog in anyone else's way: one user's flood of messages, in polling and webhook
mode, does not hold up another user's answer, and the flooder is told once, politely, to slow
down."""

import asyncio
import re

import aiohttp

from bot.telegram import webhook
from bot.telegram.app import build
from bot.telegram.webhook import SECRET_HEADER
from tests.bot.telegram.conftest import Running
from tests.bot.telegram.conftest import settings as bot_settings
from tests.bot.telegram.test_app import reply_to

FLOODER, OTHER = 7001, 7002
FLOOD = 300
SECRET = "webhook-secret-for-tests"


def question(i: int) -> str:
    """The flooder's i-th question, each with its own context (1K to 100K tokens)."""
    return f"can I run Qwen2.5-7B with {i % 100 + 1}k context on an RTX 4090?"


def context_of(i: int) -> str:
    return f"{(i % 100 + 1) * 1024:,}"


def answered_after(fake, update: dict, chat: int) -> float:
    """Seconds from the bot receiving `update` to its answer reaching the chat."""
    sent = next(c for c in fake.calls_to("sendMessage") if c.ok and c.params["chat_id"] == chat)
    return sent.time - fake.delivered_at[update["update_id"]]


async def charts_off(storage, *users: int) -> None:
    for user in users:
        row = await storage.users.ensure("telegram", user)
        await storage.users.set_settings(row.id, {"charts": False})


async def test_a_flood_is_cut_short_and_told_once(fake, storage):
    await charts_off(storage, FLOODER, OTHER)
    running = Running(fake, storage, telegram_user_burst=5, telegram_user_messages_per_minute=6)
    await running.start()
    try:
        for i in range(FLOOD):
            fake.send_text(FLOODER, question(i))
        other = fake.send_text(OTHER, "can I run Qwen2.5-7B on an RTX 4090?")
        (answer,) = await fake.wait_messages(OTHER, 1, timeout=30)
        await fake.wait_for(lambda: fake.pending_updates == 0, timeout=30)
        await asyncio.sleep(0.5)  # anything still being answered for the flooder arrives
    finally:
        await running.stop()
    assert answer.plain_text.startswith("Qwen2.5-7B")
    assert answered_after(fake, other, OTHER) < 1.0
    sent = [m.plain_text for m in fake.messages(FLOODER)]
    told = [m for m in sent if m.startswith("You are sending messages faster")]
    assert len(told) == 1
    assert len(sent) == 5 + 1  # the burst answered, then one polite line; the rest dropped
    # Six a minute: the next one is due within ten seconds of the last answered.
    assert re.search(r"Wait (9|10) seconds", told[0])


async def test_a_backlog_waits_for_its_own_chat_not_for_everyone(fake, storage):
    """With no rate limit in the way, the flood is answered in full and in order, and the other
    user's question is answered while it is still being worked through."""
    await charts_off(storage, FLOODER, OTHER)
    running = Running(fake, storage, telegram_user_burst=FLOOD)
    await running.start()
    try:
        for i in range(FLOOD):
            fake.send_text(FLOODER, question(i))
        await fake.wait_for(lambda: fake.messages(FLOODER), timeout=30)
        await reply_to(fake, OTHER, "can I run Qwen2.5-7B on an RTX 4090?")
        answered_before = len(fake.messages(FLOODER))
        await fake.wait_messages(FLOODER, FLOOD, timeout=120)
    finally:
        await running.stop()
    assert answered_before < FLOOD / 2
    contexts = [
        m.plain_text.split(" tokens on")[0].rsplit(", ", 1)[1] for m in fake.messages(FLOODER)
    ]
    assert contexts == [context_of(i) for i in range(FLOOD)]


async def test_webhook_a_backlog_does_not_take_every_slot(fake, storage, database_url):
    await charts_off(storage, FLOODER, OTHER)
    conf = bot_settings(
        fake,
        telegram_webhook_secret=SECRET,
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_port=0,
        telegram_user_burst=FLOOD,
    )
    async with build(conf, storage, webhook=True) as bot:
        await bot.start()
        runner, port = await webhook.start(bot)
        endpoint = f"http://127.0.0.1:{port}{conf.telegram_webhook_path}"
        try:
            async with aiohttp.ClientSession() as session:

                async def post(update) -> int:
                    headers = {SECRET_HEADER: SECRET}
                    async with session.post(endpoint, json=update, headers=headers) as r:
                        return r.status

                # Telegram would send one chat's updates one at a time; a replica must also
                # survive a sender that does not (a redelivery storm, another proxy).
                flood = [
                    asyncio.create_task(post(fake.send_text(FLOODER, question(i))))
                    for i in range(60)
                ]
                await fake.wait_for(lambda: fake.messages(FLOODER), timeout=30)
                other = fake.send_text(OTHER, "can I run Qwen2.5-7B on an RTX 4090?")
                assert await post(other) == 200
                answered_before = len(fake.messages(FLOODER))
                assert set(await asyncio.gather(*flood)) == {200}
        finally:
            await runner.cleanup()
            await bot.stop()
    assert len(fake.messages(OTHER)) == 1
    assert answered_before < 60
