"""Who wrote an update and where, as the conversation core knows people and chats.

Not every message has a person behind it. An anonymous group admin writes as the group itself
(Telegram puts the group in `sender_chat` and a shared placeholder user in `from`), and
someone may write on behalf of a channel: such a sender is keyed by that chat, so an
anonymous admin of one group is not the anonymous admin of every other group (they would
share settings and history). A message without any sender is keyed by its chat."""

from __future__ import annotations

from typing import TypeGuard, TypeVar

from telegram import CallbackQuery, Chat, InlineQuery, Message, Update, User
from telegram.constants import ChatID

from storage.schemas import ChatType

from ..conversation.service import Incoming

T = TypeVar("T")
CHAT_TYPES: tuple[ChatType, ...] = ("private", "group", "supergroup", "channel")


def is_chat_type(kind: str) -> TypeGuard[ChatType]:
    return kind in CHAT_TYPES


def _there(part: T | None) -> T:
    # Each caller below is only called by the handlers registered for updates that carry it.
    assert part is not None
    return part


def chat_of(update: Update) -> Chat:
    """The chat of an update that comes from one: a message, a command, a button press under a
    message of the bot's (inline queries have none)."""
    return _there(update.effective_chat)


def message_of(update: Update) -> Message:
    """The message of a message or command update."""
    return _there(update.effective_message)


def user_of(update: Update) -> User:
    """Whoever sent an update from a person: a message, a command, a button press, an inline
    query (channel posts have none)."""
    return _there(update.effective_user)


def inline_of(update: Update) -> InlineQuery:
    """The inline query of an inline-query update."""
    return _there(update.inline_query)


def button_of(update: Update) -> CallbackQuery:
    """The button press of a callback-query update."""
    return _there(update.callback_query)


def user_key(update: Update) -> str:
    """The stored id of whoever wrote the update."""
    message = update.effective_message if update.callback_query is None else None
    sender_chat = message.sender_chat if isinstance(message, Message) else None
    if sender_chat is not None:
        return f"chat:{sender_chat.id}"
    user = update.effective_user
    if user is not None and user.id not in (ChatID.ANONYMOUS_ADMIN, ChatID.FAKE_CHANNEL):
        return str(user.id)
    chat = update.effective_chat
    return f"chat:{chat.id}" if chat is not None else "nobody"


def client_language(update: Update) -> str | None:
    """The language of the sender's Telegram app, when a person sent the update."""
    user = update.effective_user
    return user.language_code if user is not None else None


def anonymous_admin(update: Update) -> bool:
    """An admin of the group writing as the group: only admins can."""
    message = update.effective_message
    chat = update.effective_chat
    return (
        isinstance(message, Message)
        and chat is not None
        and message.sender_chat is not None
        and message.sender_chat.id == chat.id
    )


def incoming(update: Update, text: str) -> Incoming:
    chat = chat_of(update)
    return Incoming(
        platform="telegram",
        chat_id=str(chat.id),
        chat_type=chat.type if is_chat_type(chat.type) else "private",
        user_id=user_key(update),
        text=text,
        language=client_language(update),
        title=chat.title,
    )


def chat_key(update: Update) -> str:
    """What one chat's updates share, for handling them one at a time: the chat, else (an
    update without one, like an inline query) the user."""
    if update.effective_chat is not None:
        return f"telegram:{update.effective_chat.id}"
    if update.effective_user is not None:
        return f"telegram:user:{update.effective_user.id}"
    return "telegram:none"
