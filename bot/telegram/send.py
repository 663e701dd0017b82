"""Sending a Reply: HTML messages under the length limit, the buttons on the last one, and the
chart as a photo with a caption under Telegram's 1024 characters. In a group each reply quotes
the message it answers and stays in its forum topic."""

from __future__ import annotations

from html import escape
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, Message, ReplyParameters
from telegram.constants import ChatType, ParseMode

from ..conversation.reply import Reply
from . import buttons, charts, html

# A headline cut before escaping: "&amp;" may make it five times longer, never past 1024.
CAPTION_CHARS = html.CAPTION_LIMIT // 5


def _placement(to: Message | None) -> dict[str, Any]:
    if to is None or to.chat.type == ChatType.PRIVATE:
        return {}
    where: dict[str, Any] = {
        "reply_parameters": ReplyParameters(to.message_id, allow_sending_without_reply=True)
    }
    if to.is_topic_message and to.message_thread_id is not None:
        where["message_thread_id"] = to.message_thread_id
    return where


async def messages(
    bot: Bot,
    chat_id: int,
    chunks: list[str],
    markup: InlineKeyboardMarkup | None = None,
    to: Message | None = None,
) -> None:
    where = _placement(to)
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        await bot.send_message(
            chat_id,
            chunk,
            parse_mode=ParseMode.HTML,
            reply_markup=markup if last else None,
            **where,
        )


async def text(
    bot: Bot,
    chat_id: int,
    plain: str,
    markup: InlineKeyboardMarkup | None = None,
    to: Message | None = None,
) -> None:
    """Plain text from the catalogs (escaped here), with optional buttons."""
    await messages(bot, chat_id, html.split(plain.split("\n")), markup, to)


async def reply(
    bot: Bot, chat_id: int, answer: Reply, *, table: bool = False, to: Message | None = None
) -> None:
    """The reply, then its chart when it has one and the reader wants charts."""
    chunks = html.preformatted(answer.text) if table else html.reply(answer)
    await messages(bot, chat_id, chunks, None if table else buttons.keyboard(answer), to)
    if table:
        return
    png = await charts.chart(answer)
    if png is not None:
        caption = escape(answer.text.split("\n", 1)[0][:CAPTION_CHARS])
        await bot.send_photo(
            chat_id,
            png,
            caption=caption,
            parse_mode=ParseMode.HTML,
            filename="memory.png",
            **_placement(to),
        )
