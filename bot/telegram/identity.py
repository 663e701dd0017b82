"""Who wrote an update and where, as the conversation core knows people and chats."""

from __future__ import annotations

from telegram import Update

from ..conversation.service import Incoming


def incoming(update: Update, text: str) -> Incoming:
    chat = update.effective_chat
    user = update.effective_user
    return Incoming(
        platform="telegram",
        chat_id=str(chat.id),
        chat_type=chat.type
        if chat.type in ("private", "group", "supergroup", "channel")
        else "private",
        user_id=str(user.id),
        text=text,
        language=user.language_code,
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
