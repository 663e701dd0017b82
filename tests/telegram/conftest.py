"""The real bot (PTB over real HTTP) against the loopback fake Bot API, on real storage."""

from collections.abc import AsyncIterator

import pytest

from bot.telegram.app import build, start_polling, stop_polling
from bot.telegram.settings import BotSettings
from tests.telegram.fake_bot_api import FakeBotApi

TOKEN = "123456:SECRET-token-never-logged"


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(token=TOKEN, username="sizer_bot", max_poll_wait=0.2) as server:
        yield server


def settings(fake: FakeBotApi, **more: object) -> BotSettings:
    return BotSettings(
        telegram_bot_token=TOKEN,
        telegram_api_base_url=fake.base_url,
        telegram_api_file_url=fake.base_file_url,
        **more,
    )


class Running:
    """A started bot that a test can stop and start again (a restart)."""

    def __init__(self, fake: FakeBotApi, storage) -> None:
        self.fake = fake
        self.storage = storage
        self.app = None

    async def start(self) -> None:
        self.app = build(settings(self.fake), self.storage)
        await self.app.initialize()
        await start_polling(self.app)

    async def stop(self) -> None:
        await stop_polling(self.app)
        await self.app.shutdown()


@pytest.fixture
async def bot(fake, storage) -> AsyncIterator[Running]:
    running = Running(fake, storage)
    await running.start()
    try:
        yield running
    finally:
        await running.stop()
