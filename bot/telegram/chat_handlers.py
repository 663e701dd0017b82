"""Handlers of the conversation itself: /start, /help, /ask, plain messages and button presses.
Each is one step: read the update, let the conversation core answer, send the reply."""

from __future__ import annotations

import re

from telegram import Message, Update
from telegram.ext import ContextTypes

from ..conversation.service import Conversation
from ..i18n import language, t
from . import buttons, send
from .identity import incoming

EXAMPLES = {
    "en": (
        "can I fine-tune 7B on 24GB?",
        "will Qwen2.5-14B in int4 run on my RTX 4090 with 32k context?",
        "what's the biggest model I can run on an M3 Max 64GB?",
    ),
    "nl": (
        "kan ik een 7B model fine-tunen op 24GB?",
        "draait Qwen2.5-14B in int4 op mijn RTX 4090 met 32k context?",
        "wat is het grootste model voor een M3 Max 64GB?",
    ),
}


def reader_language(update: Update) -> str:
    user = update.effective_user
    return language(user.language_code if user else None)


class ChatHandlers:
    def __init__(self, conversation: Conversation) -> None:
        self.conversation = conversation

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        lang = reader_language(update)
        examples = buttons.rows([(q, "say", q) for q in EXAMPLES[lang]])
        await send.text(
            context.bot,
            update.effective_chat.id,
            t("tg.start", lang),
            examples,
            update.effective_message,
        )

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await send.text(
            context.bot,
            update.effective_chat.id,
            t("tg.help", reader_language(update)),
            to=update.effective_message,
        )

    async def ask(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        question = " ".join(context.args or [])
        if not question:
            await send.text(
                context.bot,
                update.effective_chat.id,
                t("tg.ask_usage", reader_language(update)),
                to=update.effective_message,
            )
            return
        await self._answer(update, context, question)

    async def message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._answer(update, context, update.effective_message.text or "")

    async def group_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """In a group: a message that mentions the bot or replies to it; the rest is talk
        between people (and privacy mode hides it from the bot anyway)."""
        message = update.effective_message
        mention = f"@{context.bot.username}"
        replied = message.reply_to_message
        to_bot = (
            replied is not None
            and replied.from_user is not None
            and replied.from_user.id == context.bot.id
        )
        if mention.lower() not in (message.text or "").lower() and not to_bot:
            return
        text = re.sub(re.escape(mention), " ", message.text or "", flags=re.IGNORECASE)
        await self._answer(update, context, text)

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A refinement or view button; other kinds belong to the account handlers."""
        parsed = await buttons.pressed(update)
        if parsed is None:
            return
        kind, value = parsed
        if kind == "say":
            await self._answer(update, context, value)
        elif kind == "view":
            reply = await self.conversation.view(incoming(update, value), value)
            await send.reply(
                context.bot,
                update.effective_chat.id,
                reply,
                table=value == "why",
                to=_answered(update),
            )

    async def _answer(self, update: Update, context: ContextTypes.DEFAULT_TYPE, text: str) -> None:
        reply = await self.conversation.handle(incoming(update, text))
        await send.reply(context.bot, update.effective_chat.id, reply, to=_answered(update))


def _answered(update: Update) -> Message | None:
    """The message a reply answers: the user's; for a button, the question its answer answered
    (so that in a group a refined answer still quotes, and belongs to, the asker), else the
    bot's own message whose button was pressed."""
    if update.callback_query is not None:
        message = update.callback_query.message
        if not isinstance(message, Message):
            return None
        return message.reply_to_message if buttons.asker(message) else message
    return update.effective_message
