"""Two bot replicas in webhook mode on one database receive the same 1,000 updates, chats
interleaved at random, every tenth one delivered again to a random replica: each update is
answered exactly once and each chat's answers come in the order of its questions."""

import asyncio
import random
import re

import aiohttp
import pytest

from bot.telegram import webhook
from bot.telegram.app import build
from bot.telegram.webhook import SECRET_HEADER
from storage import Storage
from tests.bot.telegram.conftest import settings as bot_settings

SECRET = "webhook-secret-for-tests"
CHATS = 50
PER_CHAT = 20
SENDERS = 16


class Replica:
    def __init__(self, fake, url: str) -> None:
        self.fake, self.url = fake, url

    async def __aenter__(self) -> "Replica":
        self.storage = await Storage.open(self.url)
        conf = bot_settings(
            self.fake,
            telegram_webhook_secret=SECRET,
            telegram_webhook_listen="127.0.0.1",
            telegram_webhook_port=0,
            telegram_user_burst=PER_CHAT,  # each chat asks its 20 questions at once
        )
        self.bot = build(conf, self.storage, webhook=True)
        await self.bot.__aenter__()
        await self.bot.start()
        self.runner, port = await webhook.start(self.bot)
        self.endpoint = f"http://127.0.0.1:{port}{conf.telegram_webhook_path}"
        return self

    async def __aexit__(self, *exc) -> None:
        await self.runner.cleanup()
        await self.bot.stop()
        await self.bot.__aexit__(*exc)
        await self.storage.close()


@pytest.fixture
async def replicas(fake, database_url, storage):
    for user in range(1, CHATS + 1):
        row = await storage.users.ensure("telegram", user)
        await storage.users.set_settings(row.id, {"charts": False})
    async with Replica(fake, database_url) as one, Replica(fake, database_url) as two:
        yield one, two


def question(i: int) -> str:
    return f"can I run Qwen2.5-7B on an RTX 4090 with {i + 1}k context?"


async def test_every_update_once_and_in_order(fake, replicas):
    rng = random.Random(5)
    chats = {
        user: [fake.send_text(user, question(i)) for i in range(PER_CHAT)]
        for user in range(1, CHATS + 1)
    }
    queue: asyncio.Queue = asyncio.Queue()
    for user in rng.sample(sorted(chats), len(chats)):
        queue.put_nowait(user)
    duplicates = []

    async def post(session, update) -> int:
        target = rng.choice(replicas)
        headers = {SECRET_HEADER: SECRET}
        async with session.post(target.endpoint, json=update, headers=headers) as response:
            return response.status

    async def sender(session) -> None:
        # Telegram sends a chat's next update once the previous one is acknowledged.
        while not queue.empty():
            user = queue.get_nowait()
            for update in chats[user]:
                assert await post(session, update) == 200
                if rng.random() < 0.1:
                    duplicates.append(update)

    async with aiohttp.ClientSession() as session:
        await asyncio.gather(*(sender(session) for _ in range(SENDERS)))
        rng.shuffle(duplicates)
        assert {await post(session, update) for update in duplicates} == {200}

    assert duplicates
    for user in chats:
        replies = fake.messages(user)
        assert len(replies) == PER_CHAT, user
        contexts = [
            int(re.search(r"([\d,]+) tokens on", m.plain_text)[1].replace(",", "")) for m in replies
        ]
        assert contexts == [(i + 1) * 1024 for i in range(PER_CHAT)], user


async def test_a_wrong_secret_is_refused(fake, replicas):
    update = fake.send_text(1, question(0))
    async with aiohttp.ClientSession() as session:
        for headers in ({}, {SECRET_HEADER: "guess"}):
            async with session.post(replicas[0].endpoint, json=update, headers=headers) as r:
                assert r.status == 403
    await asyncio.sleep(0.2)
    assert fake.messages(1) == []


async def test_an_update_no_database_can_claim_is_one_apology_and_acknowledged(fake, replicas):
    """An id past 2^63 is no fault of the database: a 503 would have Telegram send it again
    for as long as it retries, so it is acknowledged with the general apology."""
    update = {**fake.send_text(1, question(0)), "update_id": 2**63}
    async with aiohttp.ClientSession() as session:
        headers = {SECRET_HEADER: SECRET}
        async with session.post(replicas[0].endpoint, json=update, headers=headers) as r:
            assert r.status == 200
    (apology,) = await fake.wait_messages(1, 1, timeout=15)
    assert apology.plain_text.startswith("Sorry, something went wrong")


async def test_a_malformed_body_is_acknowledged_and_dropped(fake, replicas):
    async with aiohttp.ClientSession() as session:
        headers = {SECRET_HEADER: SECRET}
        async with session.post(replicas[0].endpoint, data=b"{not json", headers=headers) as r:
            assert r.status == 200
        async with session.get(replicas[0].endpoint.replace("/telegram", "/healthz")) as r:
            assert await r.text() == "ok"
