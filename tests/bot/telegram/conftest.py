"""The real bot (PTB over real HTTP) against the loopback fake Bot API, on real storage."""

from collections.abc import AsyncIterator

import pytest

from bot.telegram.app import TelegramBot, build
from bot.telegram.settings import BotSettings
from tests.bot.telegram.fake_bot_api import FakeBotApi

TOKEN = "123456:SECRET-token-never-logged"
# Short enough for tests to wait out; the defaults (20 s, 30 s, 10 s) are for Telegram. The
# read timeout stays above what a busy test machine takes to answer (at 0.5 s a reply came late
# and its retry showed twice); the window leaves room for one send to meet each kind of fault.
FAST = {
    "telegram_read_timeout_s": 2.0,
    "telegram_retry_window_s": 10.0,
    "telegram_poll_timeout_s": 1,
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(token=TOKEN, username="sizer_bot", max_poll_wait=0.2) as server:
        yield server


def settings(fake: FakeBotApi, **more: object) -> BotSettings:
    return BotSettings(
        telegram_bot_token=TOKEN,
        telegram_api_base_url=fake.base_url,
        telegram_api_file_url=fake.base_file_url,
        **{**FAST, **more},
    )


class Running:
    """A started bot that a test can stop and start again (a restart)."""

    def __init__(self, fake: FakeBotApi, storage, **more: object) -> None:
        self.fake = fake
        self.storage = storage
        self.more = more
        self.bot: TelegramBot | None = None

    @property
    def app(self):
        return self.bot.app

    async def start(self) -> None:
        self.bot = build(settings(self.fake, **self.more), self.storage)
        await self.bot.__aenter__()
        await self.bot.start()

    async def stop(self) -> None:
        await self.bot.stop()
        await self.bot.__aexit__(None, None, None)


@pytest.fixture
async def bot(fake, storage) -> AsyncIterator[Running]:
    running = Running(fake, storage)
    await running.start()
    try:
        yield running
    finally:
        await running.stop()
