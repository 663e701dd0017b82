"""The Telegram bot: its handlers, the command menus and descriptions per scope and language,
the gate every update passes (rate limit, claim), and what runs beside the handlers while it is
started (the outbox, pruning, chart workers)."""

from __future__ import annotations

import gc
import logging
from functools import partial

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import HTTPXRequest

from storage import Storage
from storage.locks import advisory_lock

from ..conversation.service import Conversation
from ..i18n import LANGUAGES, t
from ..model_source import HubLimiter
from . import gate
from .account_handlers import AccountHandlers
from .charts import Charts
from .chat_handlers import ChatHandlers
from .delivery import PatientLimiter
from .failures import error_handler
from .housekeeping import Housekeeping
from .inline_handlers import InlineHandlers
from .ordering import MAX_CONCURRENT, PerChatOrder
from .outbox import Outbox
from .send import Sender
from .settings import BotSettings
from .team_handlers import TeamHandlers
from .throttle import Throttle
from .tolerant_bot import TolerantBot

log = logging.getLogger(__name__)
COMMANDS = ("start", "help", "ask", "profile", "history", "export", "forget", "lang", "settings")
GROUP_COMMANDS = ("ask", "team", "teamhw", "share", "whocan", "recent", "help")
PRIVATE_ONLY = ("profile", "history", "export", "forget")
POLL_INTERVAL = 0.0
SEND_CONNECTIONS = 256  # PTB's own default for the sending pool
# Each update in flight in a webhook replica holds a connection for its chat's lock and uses
# one more at a time to answer: 6 x 2 stays within storage's pool (engine.POSTGRES_POOL_SIZE),
# so waiting updates queue here instead of timing out on the pool or opening new sessions.
WEBHOOK_IN_FLIGHT = 6


def bare(settings: BotSettings, processor: PerChatOrder | None = None) -> Application:
    """The application with its bot and update order but no handlers (the bench measures what
    PTB alone costs with it)."""
    token = settings.token
    read = settings.telegram_read_timeout_s
    bot = TolerantBot(
        token,
        base_url=settings.telegram_api_base_url,
        base_file_url=settings.file_url,
        request=HTTPXRequest(connection_pool_size=SEND_CONNECTIONS, read_timeout=read),
        get_updates_request=HTTPXRequest(connection_pool_size=1, read_timeout=read),
        rate_limiter=PatientLimiter(
            window_s=settings.telegram_retry_window_s,
            overall_max_rate=settings.telegram_max_messages_per_s,
        ),
    )
    order = processor or PerChatOrder()
    return Application.builder().bot(bot).concurrent_updates(order).build()


class TelegramBot:
    """The application and what runs beside it. `async with` initialises and shuts it down;
    `start` begins taking updates (long polling, or from the webhook server), `stop` ends."""

    def __init__(self, settings: BotSettings, storage: Storage, *, webhook: bool = False):
        self.settings = settings
        self.storage = storage
        self.webhook = webhook
        order = (
            PerChatOrder(WEBHOOK_IN_FLIGHT, across=partial(advisory_lock, storage.db))
            if webhook
            else PerChatOrder(MAX_CONCURRENT)
        )
        self.app = bare(settings, order)
        self.outbox = Outbox(storage, self.app.bot)
        self.charts = Charts()
        self.sender = Sender(self.app.bot, self.outbox, self.charts)
        self.housekeeping = Housekeeping(storage, settings)
        self._handlers()

    def _handlers(self) -> None:
        app, storage, sender = self.app, self.storage, self.sender
        # Anyone may name a Hub repository in Telegram: each user's lookups are limited.
        conversation = self.conversation = Conversation(storage, hub_limiter=HubLimiter())
        chat = ChatHandlers(conversation, storage, sender)
        account = AccountHandlers(storage, sender)
        teams = TeamHandlers(storage, conversation, sender)
        inline = InlineHandlers(conversation, storage)
        private, groups = filters.ChatType.PRIVATE, filters.ChatType.GROUPS
        throttle = Throttle(
            self.settings.telegram_user_burst, self.settings.telegram_user_messages_per_minute
        )
        app.add_handler(TypeHandler(Update, gate.rate_limit(throttle, sender)), group=-2)
        if not self.webhook:  # the webhook server claims updates before they get here
            app.add_handler(TypeHandler(Update, gate.claim(storage, sender)), group=-1)
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
        app.add_handler(MessageHandler(filters.COMMAND & (private | groups), chat.unknown_command))
        app.add_handler(CallbackQueryHandler(chat.button, pattern=r"^[mvq]:"))
        app.add_handler(CallbackQueryHandler(account.button, pattern=r"^[pfls]:"))
        app.add_handler(CallbackQueryHandler(chat.expired_button))
        app.add_handler(InlineQueryHandler(inline.answer))
        app.add_handler(MessageHandler(private & filters.TEXT & ~filters.COMMAND, chat.message))
        app.add_handler(
            MessageHandler(groups & filters.TEXT & ~filters.COMMAND, chat.group_message)
        )
        app.add_error_handler(error_handler(sender))

    async def __aenter__(self) -> TelegramBot:
        await self.app.initialize()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.app.shutdown()

    async def start(self) -> None:
        """Takes updates: long polling, or (webhook) from the server feeding `app`."""
        await self.app.start()
        self.charts.start()
        # What is loaded by now (catalogs, rules, PTB) lives as long as the process: frozen,
        # the garbage collector's full passes skip it; unfrozen, one of them took ~0.1 s of
        # the event loop (measured in tests/bot/conversation/test_service_properties.py).
        gc.freeze()
        await introduce(self.app)
        await self.outbox.start()
        self.housekeeping.start()
        if not self.webhook:
            updater = self.app.updater
            assert updater is not None  # the application is built with one for polling
            await updater.start_polling(
                poll_interval=POLL_INTERVAL, timeout=self.settings.telegram_poll_timeout_s
            )

    async def stop(self) -> None:
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        await self.app.stop()  # waits for the updates being handled
        await self.sender.drain()
        await self.outbox.stop()
        await self.housekeeping.stop()


async def introduce(app: Application) -> None:
    """What Telegram shows of the bot before anyone talks to it, in English, Dutch and the
    default: the command menus of private chats and of groups, the description (the empty
    chat's "What can this bot do?") and the short description (its profile, shared links).
    Failing, it is only said in the log: the bot works without."""
    try:
        for lang in (*LANGUAGES, None):
            texts = lang or "en"
            for commands, scope in (
                (COMMANDS, BotCommandScopeAllPrivateChats()),
                (GROUP_COMMANDS, BotCommandScopeAllGroupChats()),
            ):
                await app.bot.set_my_commands(
                    [BotCommand(c, t(f"tg.command.{c}", texts)) for c in commands],
                    scope=scope,
                    language_code=lang,
                )
            await app.bot.set_my_description(t("tg.description", texts), language_code=lang)
            await app.bot.set_my_short_description(
                t("tg.short_description", texts), language_code=lang
            )
    except TelegramError as error:
        log.warning("could not set the menus and descriptions: %s", error)


def build(settings: BotSettings, storage: Storage, *, webhook: bool = False) -> TelegramBot:
    """The bot; the caller initialises it (`async with`), then starts it."""
    return TelegramBot(settings, storage, webhook=webhook)
