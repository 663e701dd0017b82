"""Sending a Reply: HTML messages under the length limit, the buttons on the last one, and the
chart as a photo with a caption under Telegram's 1024 characters, drawn after the text went
out so that it never holds the text back. In a group each reply quotes the message it answers
and stays in its forum topic.

Every message goes through `_send`: what the Bot API would not take after delivery's retries
is kept in the outbox, and while a chat has messages kept, new ones queue behind them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from html import escape
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.constants import ChatAction, ChatType, ParseMode
from telegram.error import BadRequest, TelegramError

from ..conversation.reply import Reply
from . import buttons, html
from .charts import Charts
from .delivery import passing
from .outbox import Outbox, dispatch

log = logging.getLogger(__name__)
# A headline cut before escaping: "&amp;" may make it five times longer, never past 1024.
CAPTION_CHARS = html.CAPTION_LIMIT // 5
# A chat action appears only for answers that take this long: a quick answer is there before
# the client would show it, and the request would only cost time (at 0.5 s a loaded bot sent
# one for most answers, which loaded it more).
ACTION_AFTER_S = 1.0
# Telegram shows an action for 5 seconds, or until the bot's next message arrives.
ACTION_EVERY_S = 4.5
NOT_MODIFIED = "message is not modified"


def _placement(to: Message | None) -> dict[str, Any]:
    if to is None or to.chat.type == ChatType.PRIVATE:
        return {}
    where: dict[str, Any] = {
        "reply_parameters": ReplyParameters(
            to.message_id, allow_sending_without_reply=True
        ).to_dict()
    }
    if to.is_topic_message and to.message_thread_id is not None:
        where["message_thread_id"] = to.message_thread_id
    return where


class Sender:
    def __init__(self, bot: Bot, outbox: Outbox, charts: Charts) -> None:
        self.bot = bot
        self.outbox = outbox
        self.charts = charts
        self._later: set[asyncio.Task[None]] = set()

    async def messages(
        self,
        chat_id: int,
        chunks: list[str],
        markup: InlineKeyboardMarkup | None = None,
        to: Message | None = None,
    ) -> None:
        """The chunks as HTML messages, the buttons on the last."""
        where = _placement(to)
        for i, chunk in enumerate(chunks):
            params: dict[str, Any] = {"text": chunk, "parse_mode": ParseMode.HTML, **where}
            if markup is not None and i == len(chunks) - 1:
                params["reply_markup"] = markup.to_dict()
            await self._send(chat_id, "sendMessage", params)

    async def text(
        self,
        chat_id: int,
        plain: str,
        markup: InlineKeyboardMarkup | None = None,
        to: Message | None = None,
    ) -> None:
        """Plain text from the catalogs (escaped here), with optional buttons."""
        await self.messages(chat_id, html.split(plain.split("\n")), markup, to)

    async def reply(
        self,
        chat_id: int,
        answer: Reply,
        *,
        table: bool = False,
        to: Message | None = None,
        replacing: Message | None = None,
    ) -> None:
        """The reply, then (in the background) its chart when it has one and the reader
        wants charts. `replacing`: the bot's message to edit into this reply instead of
        sending a new one (a refinement, when the reader chose answers edited in place)."""
        chunks = html.preformatted(answer.text) if table else html.reply(answer)
        markup = None if table else buttons.keyboard(answer)
        if replacing is not None and await self._edit(replacing, chunks[0], markup, len(chunks)):
            chunks = chunks[1:]
        if chunks:
            await self.messages(chat_id, chunks, markup, to)
        if not table and self.charts.wanted(answer):
            self._in_background(self._chart(chat_id, answer, to))

    async def _edit(
        self, message: Message, chunk: str, markup: InlineKeyboardMarkup | None, parts: int
    ) -> bool:
        """Edits `message` to the first chunk (the buttons go with the last chunk, so only on
        a one-message reply); False when it cannot be edited and a new message must go."""
        try:
            await self.bot.edit_message_text(
                chunk,
                message.chat_id,
                message.message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup if parts == 1 else None,
            )
        except BadRequest as error:
            # The same answer again, or a retried edit that had gone through: it shows.
            if NOT_MODIFIED in str(error).lower():
                return True
            log.info("could not edit an answer in place (%s); sending it anew", error)
            return False
        except TelegramError as error:
            if not passing(error):
                raise
            return False
        else:
            self.outbox.api_is_back()
        return True

    async def _chart(self, chat_id: int, answer: Reply, to: Message | None) -> None:
        job = await self.charts.prepare(answer)
        if job is None:
            return
        async with self.acting(chat_id, ChatAction.UPLOAD_PHOTO):
            photo = await self.charts.photo(job)
        if photo is None:
            return
        params: dict[str, Any] = {
            "caption": escape(answer.text.split("\n", 1)[0][:CAPTION_CHARS]),
            "parse_mode": ParseMode.HTML,
            **_placement(to),
        }
        if isinstance(photo, str):
            try:
                sent = await self._send(chat_id, "sendPhoto", {**params, "photo": photo})
            except BadRequest:  # a file id Telegram no longer knows: upload it again
                self.charts.forget(job)
                job = await self.charts.prepare(answer)
                png = None if job is None else await self.charts.photo(job)
                if job is None or not isinstance(png, bytes):
                    return
                sent = await self._send(
                    chat_id, "sendPhoto", {**params, "filename": "memory.png"}, png
                )
        else:
            sent = await self._send(
                chat_id, "sendPhoto", {**params, "filename": "memory.png"}, photo
            )
        if sent is not None and sent.photo:
            self.charts.remember(job, sent.photo[-1].file_id)

    async def _send(
        self, chat_id: int, method: str, params: dict[str, Any], body: bytes | None = None
    ) -> Message | None:
        """Sends now, or keeps the message for later when the chat has messages kept or the
        API stays away past delivery's retries."""
        if self.outbox.waiting(chat_id):
            await self.outbox.keep(chat_id, method, params, body)
            return None
        try:
            sent = await dispatch(self.bot, method, chat_id, params, body)
        except TelegramError as error:
            if not passing(error):
                raise
            log.warning("kept a message for later: %s", error)
            await self.outbox.keep(chat_id, method, params, body)
            return None
        self.outbox.api_is_back()
        return sent

    @contextlib.asynccontextmanager
    async def acting(self, chat_id: int, action: str = ChatAction.TYPING) -> AsyncIterator[None]:
        """Shows `action` ("typing…") in the chat while the block runs, when it runs longer
        than ACTION_AFTER_S. Only a timer until then: most answers end before it, and a task
        made and cancelled for each of them cost more than the timer."""
        acts: list[asyncio.Task[None]] = []
        timer = asyncio.get_running_loop().call_later(
            ACTION_AFTER_S, lambda: acts.append(asyncio.create_task(self._act(chat_id, action)))
        )
        try:
            yield
        finally:
            timer.cancel()
            for task in acts:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _act(self, chat_id: int, action: str) -> None:
        while True:
            try:
                await self.bot.send_chat_action(chat_id, action)
            except TelegramError as error:  # only a courtesy: never worth failing an answer
                log.info("chat action failed: %s", error)
            await asyncio.sleep(ACTION_EVERY_S)

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._later.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._later.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a chart could not be sent", exc_info=task.exception())

    async def drain(self) -> None:
        """Waits for the charts still being drawn or sent (before stopping)."""
        while self._later:
            await asyncio.gather(*self._later, return_exceptions=True)
