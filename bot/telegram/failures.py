"""What a failed update gets: one apology in the user's language, the reason in the log (never
the token or a password), and the button press it came from acknowledged so that the client
stops spinning."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from estimator.errors import EstimatorError
from storage.errors import StorageError

from ..i18n import t
from ..render import errors
from .chat_handlers import reader_language
from .send import Sender

log = logging.getLogger(__name__)


def database_down(error: BaseException | None) -> bool:
    return isinstance(error, SQLAlchemyError | OSError) or (
        isinstance(error, StorageError) and error.code.startswith("db_")
    )


def apology(error: BaseException | None, lang: str) -> str:
    """The message for a failure, and its reason logged for the operator (None: logged by the
    caller)."""
    if error is None:
        return t("tg.error.generic", lang)
    if database_down(error):
        # The reason (with the masked URL) is for the operator; the user gets an apology.
        reason = error if isinstance(error, StorageError) else type(error).__name__
        log.error("storage failed: %s", reason)
        return t("tg.error.database", lang)
    if isinstance(error, EstimatorError | StorageError):
        return errors.message(error, lang)
    log.error("handler failed", exc_info=error)
    return t("tg.error.generic", lang)


async def apologise(sender: Sender, update: Update, error: BaseException | None) -> None:
    """One apology for the update, where it came from."""
    lang = reader_language(update)
    text = apology(error, lang)
    query = update.callback_query
    if query is not None:
        # Answered before the failure, or too old: either way the client stopped spinning.
        with contextlib.suppress(TelegramError):
            await query.answer()
    chat = update.effective_chat
    if chat is None:
        return
    try:
        await sender.text(chat.id, text, to=update.effective_message)
    except Exception as exc:
        log.error("could not apologise: %s", type(exc).__name__)


def error_handler(
    sender: Sender,
) -> Callable[[object, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]:
    async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if not isinstance(update, Update):
            log.error("update failed outside a chat: %s", type(context.error).__name__)
            return
        await apologise(sender, update, context.error)

    return on_error
