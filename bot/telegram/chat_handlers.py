"""Handlers of the conversation itself: /start (with a shared question's link), /help, /ask,
plain messages, button presses, and commands and buttons the bot does not know. Each is one
step: read the update, let the conversation core answer, send the reply."""

from __future__ import annotations

import re

from telegram import Message, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from storage import Storage

from ..conversation.service import Conversation
from ..i18n import Language, language, t
from . import buttons
from .identity import button_of, chat_of, client_language, incoming, message_of, user_key
from .send import Sender

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
# The payload of a link that opens a shared question: t.me/<bot>?start=q_<token>
SHARED_PAYLOAD = re.compile(r"^q_([A-Za-z0-9_-]{1,32})$")
# A user's setting: refinement buttons edit the answer they are under instead of answering anew.
EDIT_IN_PLACE = "edit_in_place"


def reader_language(update: Update) -> Language:
    return language(client_language(update))


def share_link(bot_username: str, token: str) -> str:
    """The link that opens a shared question; its payload stays within Telegram's 64
    characters (Bot API, deep linking)."""
    return f"https://t.me/{bot_username}?start=q_{token}"


class ChatHandlers:
    def __init__(self, conversation: Conversation, storage: Storage, sender: Sender) -> None:
        self.conversation = conversation
        self.storage = storage
        self.send = sender

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        found = SHARED_PAYLOAD.match((context.args or [""])[0])
        if found:
            await self._open_shared(update, found.group(1))
            return
        lang = reader_language(update)
        examples = buttons.rows([(q, "say", q) for q in EXAMPLES[lang]])
        await self.send.text(
            chat_of(update).id, t("tg.start", lang), examples, update.effective_message
        )

    async def _open_shared(self, update: Update, token: str) -> None:
        shared = await self.storage.shared.find(token)
        chat_id = chat_of(update).id
        if shared is None:
            await self.send.text(chat_id, t("tg.share.not_found", reader_language(update)))
            return
        async with self.send.acting(chat_id):
            reply = await self.conversation.shared(incoming(update, shared.text), shared.inputs)
        await self.send.reply(chat_id, reply, to=update.effective_message)

    async def help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self.send.text(
            chat_of(update).id,
            t("tg.help", reader_language(update)),
            to=update.effective_message,
        )

    async def ask(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        question = " ".join(context.args or [])
        if not question:
            await self.send.text(
                chat_of(update).id,
                t("tg.ask_usage", reader_language(update)),
                to=update.effective_message,
            )
            return
        await self._answer(update, question)

    async def message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._answer(update, message_of(update).text or "")

    async def group_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """In a group: a message that mentions the bot or replies to it; the rest is talk
        between people (and privacy mode hides it from the bot anyway)."""
        message = message_of(update)
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
        await self._answer(update, text)

    async def unknown_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A command the bot does not have: one line pointing to /help. In a group only when
        addressed to this bot (/cmd@thisbot): a bare /cmd there may be another bot's."""
        message = message_of(update)
        word = (message.text or "").split(maxsplit=1)[0][1:]
        command, _, addressed = word.partition("@")
        if addressed and addressed.lower() != (context.bot.username or "").lower():
            return
        if message.chat.type != ChatType.PRIVATE and not addressed:
            return
        await self.send.text(
            message.chat_id,
            t("tg.unknown_command", reader_language(update), command=command[:32]),
            to=message,
        )

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A refinement, view or share button; other kinds belong to the account handlers."""
        parsed = await buttons.pressed(update)
        if parsed is None:
            return
        kind, value = parsed
        if kind == "say":
            await self._answer(update, value, replacing=await self._in_place(update))
        elif kind == "view":
            chat_id = chat_of(update).id
            async with self.send.acting(chat_id):
                reply = await self.conversation.view(incoming(update, value), value)
            await self.send.reply(chat_id, reply, table=value == "why", to=_answered(update))
        elif kind == "share":
            await self._share(update, context)

    async def expired_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button this bot does not (or no longer) makes: acknowledged with a hint, so the
        client stops spinning."""
        await buttons.pressed(update)

    async def _share(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The link to the presser's latest question in this chat."""
        chat_id = chat_of(update).id
        lang = reader_language(update)
        user = await self.storage.users.find("telegram", user_key(update))
        chat = await self.storage.chats.find("telegram", chat_id)
        latest = (
            await self.storage.queries.latest(user.id, chat.id)
            if user is not None and chat is not None
            else None
        )
        if user is None or latest is None or latest.status != "answered":
            await self.send.text(chat_id, t("reply.nothing_to_show", lang))
            return
        shared = await self.storage.shared.share(user.id, latest.text, latest.inputs)
        link = share_link(context.bot.username, shared.token)
        await self.send.text(chat_id, t("tg.share.link", lang, link=link), to=_answered(update))

    async def _in_place(self, update: Update) -> Message | None:
        """The answer a refinement button was pressed under, when the presser wants
        refinements to edit it."""
        message = button_of(update).message
        if not isinstance(message, Message):
            return None
        user = await self.storage.users.find("telegram", user_key(update))
        if user is None or not user.settings.get(EDIT_IN_PLACE):
            return None
        return message

    async def _answer(self, update: Update, text: str, replacing: Message | None = None) -> None:
        chat_id = chat_of(update).id
        async with self.send.acting(chat_id):
            reply = await self.conversation.handle(incoming(update, text))
        await self.send.reply(chat_id, reply, to=_answered(update), replacing=replacing)


def _answered(update: Update) -> Message | None:
    """The message a reply answers: the user's; for a button, the question its answer answered
    (so that in a group a refined answer still quotes, and belongs to, the asker), else the
    bot's own message whose button was pressed."""
    if update.callback_query is not None:
        message = button_of(update).message
        if not isinstance(message, Message):
            return None
        return message.reply_to_message if buttons.asker(message) else message
    return update.effective_message
