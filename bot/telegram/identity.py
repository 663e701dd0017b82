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
