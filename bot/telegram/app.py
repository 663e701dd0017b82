"""The Telegram application: handlers, the command menu per scope and language, duplicate
updates dropped, Telegram's flood limits respected, and every failure answered politely."""

from __future__ import annotations

import logging

from sqlalchemy.exc import SQLAlchemyError
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import HTTPXRequest

from estimator.errors import EstimatorError
from storage import Storage
from storage.errors import StorageError

from ..conversation.service import Conversation
from ..i18n import LANGUAGES, t
from ..render import errors
from . import send
from .account_handlers import AccountHandlers
from .chat_handlers import ChatHandlers, reader_language
from .ordering import PerChatOrder
from .settings import BotSettings
from .team_handlers import TeamHandlers
from .tolerant_bot import TolerantBot

log = logging.getLogger(__name__)
COMMANDS = ("start", "help", "ask", "profile", "history", "export", "forget", "lang", "settings")
GROUP_COMMANDS = ("ask", "team", "teamhw", "share", "whocan", "recent", "help")
PRIVATE_ONLY = ("profile", "history", "export", "forget")
# Telegram retries a failed send after its retry_after; a few times, then the error handler
# apologises.
MAX_RETRIES = 3
POLL_INTERVAL = 0.0
POLL_TIMEOUT = 10  # seconds Telegram holds a getUpdates open when there is nothing new
SEND_CONNECTIONS = 256  # PTB's own default for the sending pool


async def menu(app: Application) -> None:
    """The command menus of private chats and of groups, in English, Dutch and the default."""
    for commands, scope in (
        (COMMANDS, BotCommandScopeAllPrivateChats()),
        (GROUP_COMMANDS, BotCommandScopeAllGroupChats()),
    ):
        for lang in (*LANGUAGES, None):
            await app.bot.set_my_commands(
                [BotCommand(c, t(f"tg.command.{c}", lang or "en")) for c in commands],
                scope=scope,
                language_code=lang,
            )


def _dedupe(storage: Storage):
    async def claim(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Telegram re-sends an update it is not sure arrived; the first claim answers it."""
        if not await storage.updates.claim("telegram", update.update_id):
            raise ApplicationHandlerStop

    return claim


async def _on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    error = context.error
    if not isinstance(update, Update) or update.effective_chat is None:
        log.error("update failed outside a chat: %s", type(error).__name__)
        return
    lang = reader_language(update)
    database_down = isinstance(error, StorageError) and error.code.startswith("db_")
    if isinstance(error, SQLAlchemyError | OSError) or database_down:
        # The reason (with the masked URL) is for the operator; the user gets an apology.
        log.error("storage failed: %s", error if database_down else type(error).__name__)
        text = t("tg.error.database", lang)
    elif isinstance(error, EstimatorError | StorageError):
        text = errors.message(error, lang)
    else:
        log.error("handler failed", exc_info=error)
        text = t("tg.error.generic", lang)
    try:
        await send.text(context.bot, update.effective_chat.id, text)
    except Exception as exc:
        log.error("could not apologise: %s", type(exc).__name__)


def bare(settings: BotSettings) -> Application:
    """The application with its bot and update order but no handlers (the bench measures what
    PTB alone costs with it)."""
    token = settings.telegram_bot_token.get_secret_value() if settings.telegram_bot_token else ""
    bot = TolerantBot(
        token,
        base_url=settings.telegram_api_base_url,
        base_file_url=settings.file_url,
        request=HTTPXRequest(connection_pool_size=SEND_CONNECTIONS),
        get_updates_request=HTTPXRequest(connection_pool_size=1),
        rate_limiter=AIORateLimiter(
            overall_max_rate=settings.telegram_max_messages_per_s,
            overall_time_period=1,
            max_retries=MAX_RETRIES,
        ),
    )
    return Application.builder().bot(bot).concurrent_updates(PerChatOrder()).build()


def build(settings: BotSettings, storage: Storage) -> Application:
    """The application; the caller starts it (polling) or feeds it updates (webhook, tests)."""
    app = bare(settings)
    conversation = Conversation(storage)
    chat = ChatHandlers(conversation)
    account = AccountHandlers(storage)
    teams = TeamHandlers(storage, conversation)
    private, groups = filters.ChatType.PRIVATE, filters.ChatType.GROUPS
    app.add_handler(TypeHandler(Update, _dedupe(storage)), group=-1)
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, teams.migrated))
    app.add_handler(CommandHandler("start", chat.start))
    app.add_handler(CommandHandler("help", chat.help))
    app.add_handler(CommandHandler("ask", chat.ask))
    app.add_handler(CommandHandler(list(PRIVATE_ONLY), teams.private_only, filters=groups))
    app.add_handler(CommandHandler("profile", account.profile, filters=private))
    app.add_handler(CommandHandler("history", account.history, filters=private))
    app.add_handler(CommandHandler("export", account.export, filters=private))
    app.add_handler(CommandHandler("forget", account.forget, filters=private))
    app.add_handler(CommandHandler("lang", account.language))
    app.add_handler(CommandHandler("settings", account.settings))
    app.add_handler(CommandHandler("team", teams.pool, filters=groups))
    app.add_handler(CommandHandler("teamhw", teams.hardware, filters=groups))
    app.add_handler(CommandHandler("share", teams.share, filters=groups))
    app.add_handler(CommandHandler("whocan", teams.who_can, filters=groups))
    app.add_handler(CommandHandler("recent", teams.recent, filters=groups))
    app.add_handler(CallbackQueryHandler(chat.button, pattern=r"^[mv]:"))
    app.add_handler(CallbackQueryHandler(account.button, pattern=r"^[pfls]:"))
    app.add_handler(MessageHandler(private & filters.TEXT & ~filters.COMMAND, chat.message))
    app.add_handler(MessageHandler(groups & filters.TEXT & ~filters.COMMAND, chat.group_message))
    app.add_error_handler(_on_error)
    return app


async def start_polling(app: Application) -> None:
    """Start an initialized application: the menu, then long polling."""
    await app.start()
    await menu(app)
    await app.updater.start_polling(poll_interval=POLL_INTERVAL, timeout=POLL_TIMEOUT)


async def stop_polling(app: Application) -> None:
    await app.updater.stop()
    await app.stop()
