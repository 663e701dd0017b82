"""Sending a Reply: HTML messages under the length limit, the buttons on the last one, and the
chart as a photo with a caption under Telegram's 1024 characters."""

from __future__ import annotations

from html import escape

from telegram import Bot, InlineKeyboardMarkup
from telegram.constants import ParseMode

from ..conversation.reply import Reply
from . import buttons, charts, html

# A headline cut before escaping: "&amp;" may make it five times longer, never past 1024.
CAPTION_CHARS = html.CAPTION_LIMIT // 5


async def messages(
    bot: Bot, chat_id: int, chunks: list[str], markup: InlineKeyboardMarkup | None = None
) -> None:
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        await bot.send_message(
            chat_id, chunk, parse_mode=ParseMode.HTML, reply_markup=markup if last else None
        )


async def text(
    bot: Bot, chat_id: int, plain: str, markup: InlineKeyboardMarkup | None = None
) -> None:
    """Plain text from the catalogs (escaped here), with optional buttons."""
    await messages(bot, chat_id, html.split(plain.split("\n")), markup)


async def reply(bot: Bot, chat_id: int, answer: Reply, *, table: bool = False) -> None:
    """The reply, then its chart when it has one and the reader wants charts."""
    chunks = html.preformatted(answer.text) if table else html.answer(answer.text)
    await messages(bot, chat_id, chunks, None if table else buttons.keyboard(answer))
    if table:
        return
    png = await charts.chart(answer)
    if png is not None:
        caption = escape(answer.text.split("\n", 1)[0][:CAPTION_CHARS])
        await bot.send_photo(
            chat_id, png, caption=caption, parse_mode=ParseMode.HTML, filename="memory.png"
        )
