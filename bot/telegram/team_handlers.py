"""Handlers of a team's group chat: /team (the pool), /teamhw add|remove (admins only), /share
on|off, /whocan QUESTION, /recent, and a group's move to a supergroup."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus
from telegram.ext import ContextTypes

from storage import Storage
from storage.schemas import Chat, User

from ..conversation import team
from ..conversation.service import Conversation
from ..i18n import t
from ..profile_text import parse as parse_hardware
from ..render import saved_queries
from .chat_handlers import reader_language
from .identity import anonymous_admin, chat_of, incoming, is_chat_type, message_of, user_key
from .send import Sender

ADMINS = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
RECENT_SHOWN = 10


class TeamHandlers:
    def __init__(self, storage: Storage, conversation: Conversation, sender: Sender) -> None:
        self.storage = storage
        self.conversation = conversation
        self.send = sender

    async def _chat_and_user(self, update: Update) -> tuple[Chat, User]:
        chat = chat_of(update)
        user = await self.storage.users.ensure("telegram", user_key(update))
        kind = chat.type if is_chat_type(chat.type) else "group"
        stored = await self.storage.chats.ensure("telegram", chat.id, kind, title=chat.title)
        return stored, user

    async def _say(self, update: Update, context: ContextTypes.DEFAULT_TYPE, text: str) -> None:
        await self.send.text(chat_of(update).id, text, to=update.effective_message)

    async def _is_admin(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
        if anonymous_admin(update):
            return True
        if update.effective_user is None:
            return False
        member = await context.bot.get_chat_member(chat_of(update).id, update.effective_user.id)
        return member.status in ADMINS

    async def pool(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/team: the team hardware and the profiles members share."""
        lang = reader_language(update)
        chat, _ = await self._chat_and_user(update)
        machines = await team.machines(self.storage, chat.id, lang)
        if not machines:
            await self._say(update, context, t("team.no_hardware", lang))
            return
        lines = [t("team.pool", lang)]
        lines += [f"• {m.name}: {m.description}" for m in machines]
        await self._say(update, context, "\n".join(lines))

    async def hardware(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/teamhw add TEXT | /teamhw remove NAME, for the group's admins."""
        lang = reader_language(update)
        args = context.args or []
        if len(args) < 2 or args[0].lower() not in ("add", "remove"):
            await self._say(update, context, t("team.hw_usage", lang))
            return
        if not await self._is_admin(update, context):
            await self._say(update, context, t("team.admins_only", lang))
            return
        chat, user = await self._chat_and_user(update)
        text = " ".join(args[1:])
        if args[0].lower() == "remove":
            await self.storage.team_hardware.remove(chat.id, text)
            await self._say(update, context, t("team.hw_removed", lang, name=text))
            return
        parsed = parse_hardware(text)
        saved = await self.storage.team_hardware.save(
            chat.id, parsed.suggested_name(), parsed.hardware(), text=text, added_by=user.id
        )
        await self._say(update, context, t("team.hw_added", lang, name=saved.name))

    async def share(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/share on|off: a member's own default profile in (or out of) the team's pool."""
        lang = reader_language(update)
        choice = (context.args or [""])[0].lower()
        if choice not in ("on", "off", "aan", "uit"):
            await self._say(update, context, t("team.share_usage", lang))
            return
        chat, user = await self._chat_and_user(update)
        if choice in ("off", "uit"):
            await self.storage.chats.stop_sharing(chat.id, user.id)
            await self._say(update, context, t("team.share_off", lang))
            return
        if await self.storage.profiles.default(user.id) is None:
            await self._say(update, context, t("team.share_no_profile", lang))
            return
        await self.storage.chats.share_profile(chat.id, user.id)
        await self._say(update, context, t("team.share_on", lang))

    async def who_can(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        lang = reader_language(update)
        question = " ".join(context.args or [])
        if not question:
            await self._say(update, context, t("team.whocan_usage", lang))
            return
        await self._chat_and_user(update)
        async with self.send.acting(chat_of(update).id):
            reply = await self.conversation.who_can(incoming(update, question))
        await self.send.reply(chat_of(update).id, reply, to=update.effective_message)

    async def recent(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/recent: the team's latest questions and verdicts (never a member's hardware)."""
        lang = reader_language(update)
        chat, _ = await self._chat_and_user(update)
        queries = await self.storage.queries.recent_for_chat(chat.id, RECENT_SHOWN)
        if not queries:
            await self._say(update, context, t("history.empty", lang))
            return
        lines = [saved_queries.line(q, lang) for q in queries]
        await self._say(update, context, "\n".join(lines))

    async def migrated(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The group became a supergroup with a new id: the team's data moves along."""
        message = message_of(update)
        if message.migrate_to_chat_id:
            await self.storage.chats.migrate(
                "telegram", message.chat.id, message.migrate_to_chat_id
            )
        elif message.migrate_from_chat_id:
            await self.storage.chats.migrate(
                "telegram", message.migrate_from_chat_id, message.chat.id
            )

    async def private_only(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/profile, /history, /export and /forget in a group: they would show private data."""
        await self._say(update, context, t("team.private_only", reader_language(update)))
