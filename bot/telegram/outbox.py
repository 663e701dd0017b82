"""Messages the Bot API would not take, kept in the database and sent when it is back.

A send that still fails after delivery's retries (the API down for longer than the retry
window) is kept here instead of lost; so is every later message to the same chat until the
kept ones went out, which keeps a chat's messages in order. A background task sends what is
kept, oldest first, as soon as the API takes messages again, and on start, what an earlier
process could not send (a restart while the API was away).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta
from typing import Any

from telegram import Bot, Message, ReplyParameters
from telegram.error import TelegramError

from storage import Storage, StorageError
from storage.schemas import OutboxMessage, Platform

from .delivery import passing
from .tolerant_bot import post_json

log = logging.getLogger(__name__)
PLATFORM: Platform = "telegram"
# A kept message is held by the process sending it this long, so that a replica does not send
# it at the same time; a process that dies holding it only delays it by as much.
HOLD = timedelta(seconds=60)
FIRST_PAUSE_S = 1.0
MAX_PAUSE_S = 5.0


async def dispatch(
    bot: Bot, method: str, chat_id: int, params: dict[str, Any], body: bytes | None = None
) -> Message | None:
    """One sendMessage or sendPhoto from JSON parameters (as the outbox keeps them). Returns
    the photo's message, whose file id lets the chart go again without an upload. A text
    message goes as the JSON it is and its reply is not read: nothing needs it, and PTB's
    send_message turned the buttons into objects and back and read the reply into a Message,
    about 0.3 ms of each answer's CPU (py-spy over bench/telegram_speed.py)."""
    if method == "sendMessage":
        await post_json(bot, method, {"chat_id": chat_id, **params})
        return None
    kwargs = dict(params)
    if "reply_parameters" in kwargs:
        kwargs["reply_parameters"] = ReplyParameters.de_json(kwargs["reply_parameters"], bot)
    photo = body if body is not None else kwargs.pop("photo")
    kwargs.pop("photo", None)
    return await bot.send_photo(chat_id, photo, **kwargs)


class Outbox:
    def __init__(self, storage: Storage, bot: Bot) -> None:
        self._storage = storage
        self._bot = bot
        self._waiting: set[str] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # What this process holds: released when it stops, so that a restart sends it at once
        # instead of after the hold.
        self._held: dict[int, OutboxMessage] = {}

    def waiting(self, chat_id: int) -> bool:
        """Whether messages to this chat are kept, so a new one must queue behind them."""
        return str(chat_id) in self._waiting

    async def keep(
        self, chat_id: int, method: str, params: dict[str, Any], body: bytes | None = None
    ) -> None:
        """Keeps a message to send later. With the database down as well it is lost, and
        said so in the log."""
        try:
            await self._storage.outbox.keep(PLATFORM, str(chat_id), method, params, body)
        except StorageError as error:
            log.error("could not keep a message for later: %s", error.code)
            return
        self._waiting.add(str(chat_id))
        self._wake.set()

    def api_is_back(self) -> None:
        """A request went through: time to send what is kept."""
        if self._waiting:
            self._wake.set()

    async def start(self) -> None:
        """Sends, in the background, what an earlier process kept and whatever is kept later."""
        try:
            self._waiting = await self._storage.outbox.chats(PLATFORM)
        except StorageError as error:
            log.error("could not read the outbox: %s", error.code)
        self._task = asyncio.create_task(self._run(), name="outbox")
        if self._waiting:
            self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        try:
            await self._release(list(self._held.values()))
        except StorageError as error:
            log.error("could not release kept messages: %s", error.code)

    async def _run(self) -> None:
        pause = FIRST_PAUSE_S
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                done = await self.flush()
            except StorageError as error:
                log.error("could not send from the outbox: %s", error.code)
                done = False
            if done:
                pause = FIRST_PAUSE_S
                continue
            await asyncio.sleep(pause)
            pause = min(MAX_PAUSE_S, pause * 2)
            self._wake.set()

    async def flush(self) -> bool:
        """Sends what is kept, oldest first per chat, until nothing is left (True) or the API
        fails again (False)."""
        while True:
            # Shielded: a claim the database made is known here even if stopping cuts in.
            claiming = asyncio.ensure_future(self._storage.outbox.claim(PLATFORM, HOLD))
            try:
                batch = await asyncio.shield(claiming)
            except asyncio.CancelledError:
                with contextlib.suppress(StorageError):
                    self._held.update((m.id, m) for m in await claiming)
                raise
            self._held.update((m.id, m) for m in batch)
            if not batch:
                self._waiting = await self._storage.outbox.chats(PLATFORM)
                # What is left is held by another process, which sends it.
                return True
            for index, message in enumerate(batch):
                sent = await self._send(message)
                if not sent:
                    await self._release(batch[index:])
                    return False

    async def _release(self, messages: list[OutboxMessage]) -> None:
        for message in messages:
            await self._storage.outbox.release(message.id)
            self._held.pop(message.id, None)

    async def _send(self, message: OutboxMessage) -> bool:
        """False when the API failed for a passing reason (the message stays kept)."""
        try:
            await dispatch(
                self._bot, message.method, int(message.chat_key), message.params, message.body
            )
        except TelegramError as error:
            if passing(error):
                return False
            # Refused for what it is (the user blocked the bot, the chat is gone): never sent.
            log.warning("dropped a kept message Telegram refused: %s", error)
        await self._storage.outbox.sent(message.id)
        self._held.pop(message.id, None)
        return True
