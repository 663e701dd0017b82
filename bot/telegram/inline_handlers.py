"""Inline mode: "@bot 7B on 24GB" in any chat. The answer is a verdict card (the headline and
the verdict, what the chat sees when the user picks it) with a button that opens the full
answer in a private chat with the bot, through a shared question's link.

Inline answers are computed without anyone's saved hardware (the chat they are posted in may be
a group) and stored only as the shared question the button opens. Telegram sends an inline
query as the user types; it needs inline mode switched on with @BotFather's /setinline.
"""

from __future__ import annotations

import logging
from html import escape

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from storage import Storage

from ..conversation.parse import MAX_TEXT
from ..conversation.reply import Reply
from ..conversation.service import Conversation
from ..i18n import supported, t
from .chat_handlers import reader_language, share_link
from .identity import inline_of, user_key

log = logging.getLogger(__name__)
# Telegram may keep an inline answer this long for the same query text (Bot API,
# answerInlineQuery cache_time); the numbers do not change.
CACHE_S = 300
START_PAYLOAD = "inline"  # the /start payload when someone opens the bot from an empty query


class InlineHandlers:
    def __init__(self, conversation: Conversation, storage: Storage) -> None:
        self.conversation = conversation
        self.storage = storage

    async def answer(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = inline_of(update)
        lang = reader_language(update)
        text = query.query.strip()[:MAX_TEXT]
        if not text:
            await self._reply(update, [], t("tg.inline.ask", lang), START_PAYLOAD)
            return
        reply = await self.conversation.preview(text, lang, f"telegram:{user_key(update)}")
        if not reply.about_one_workload:
            # A question back ("which GPU?") or a list: better asked in the private chat.
            await self._reply(update, [], t("tg.inline.incomplete", lang), START_PAYLOAD)
            return
        user = await self.storage.users.ensure(
            "telegram", user_key(update), language=supported(query.from_user.language_code)
        )
        inputs = reply.parsed.model_dump(mode="json", exclude_none=True)
        shared = await self.storage.shared.share(user.id, text, inputs)
        link = share_link(context.bot.username, shared.token)
        card = _card(reply)
        open_full = InlineKeyboardMarkup(
            [[InlineKeyboardButton(t("tg.inline.open", reply.language), url=link)]]
        )
        article = InlineQueryResultArticle(
            id=shared.token,
            title=card[0][:256],
            description=" ".join(card[1:])[:512] or None,
            input_message_content=InputTextMessageContent(
                "\n".join([f"<b>{escape(card[0])}</b>", *map(escape, card[1:])]),
                parse_mode=ParseMode.HTML,
            ),
            reply_markup=open_full,
        )
        await self._reply(update, [article], t("tg.inline.open", lang), f"q_{shared.token}")

    async def _reply(
        self, update: Update, results: list[InlineQueryResultArticle], label: str, payload: str
    ) -> None:
        button = InlineQueryResultsButton(text=label, start_parameter=payload)
        try:
            await inline_of(update).answer(results, cache_time=CACHE_S, button=button)
        except TelegramError as error:
            # The user typed on and Telegram no longer wants this one ("query is too old").
            log.info("an inline answer was not taken: %s", error)


def _card(reply: Reply) -> list[str]:
    """The headline, then the verdict's lines."""
    lines = []
    for kind in ("headline", "verdict"):
        section = reply.section(kind)
        if section is not None:
            lines += [item.text for item in section.items if item.primary or kind == "headline"]
    return lines or reply.text.split("\n")[:2]
