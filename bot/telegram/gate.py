"""What every update passes before a handler sees it: the per-user rate limit, then (when
polling) its claim, so that an update Telegram delivers twice is answered once.

A claim that fails (the database away, an update id out of range) stops the update there with
one apology: PTB would otherwise run the handlers anyway, answer an update nobody claimed, and
apologise twice (once for the claim, once for the handler that failed next). In webhook mode
the server claims the update before the application sees it and refuses the request when the
claim fails, so that Telegram delivers it again."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes

from storage import Storage, StorageError

from ..i18n import t
from ..render import numbers
from .chat_handlers import reader_language
from .failures import apologise, database_down
from .identity import user_key
from .send import Sender
from .throttle import Throttle, Verdict

log = logging.getLogger(__name__)
# PTB's handlers take coroutine functions (TypeHandler's callback type).
Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


def rate_limit(throttle: Throttle, sender: Sender) -> Handler:
    async def check(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Too many messages too fast: not answered; told once, politely."""
        if update.inline_query is not None:
            return  # Telegram sends one per keystroke, and answers stay cheap (no storage)
        who = user_key(update)
        verdict = throttle.check(who)
        if verdict is Verdict.ANSWER:
            return
        if verdict is Verdict.REFUSE_AND_SAY:
            lang = reader_language(update)
            wait = numbers.integer(max(1, math.ceil(throttle.wait_s(who))), lang)
            text = t("tg.slow_down", lang, seconds=wait)
            try:
                if update.callback_query is not None:
                    await update.callback_query.answer(text, show_alert=True)
                elif update.effective_chat is not None:
                    await sender.text(update.effective_chat.id, text, to=update.effective_message)
            except TelegramError as error:
                log.info("could not ask a user to slow down: %s", error)
        elif update.callback_query is not None:
            try:
                await update.callback_query.answer()
            except TelegramError as error:
                log.info("could not answer a refused button press: %s", error)
        raise ApplicationHandlerStop

    return check


def claim(storage: Storage, sender: Sender) -> Handler:
    async def check(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Telegram re-sends an update it is not sure arrived; the first claim answers it."""
        try:
            fresh = await storage.updates.claim("telegram", update.update_id)
        except StorageError as error:
            log.error("could not claim update %s: %s", update.update_id, error.code)
            # An id out of range is no fault of the database: the general apology then.
            await apologise(sender, update, error if database_down(error) else None)
            raise ApplicationHandlerStop from None
        if not fresh:
            raise ApplicationHandlerStop

    return check
