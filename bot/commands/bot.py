"""`llm-sizer bot [--webhook]`, `llm-sizer set-webhook [--delete]` and `llm-sizer migrate`: run
the Telegram bot (long polling, or a webhook server of which several replicas may run), register
its webhook once at deploy, and bring the database schema up to date."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from typing import TYPE_CHECKING

from ..i18n import language, t

if TYPE_CHECKING:
    from ..telegram.settings import BotSettings


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("bot", help="run the Telegram bot (TELEGRAM_BOT_TOKEN)")
    p.add_argument(
        "--webhook",
        action="store_true",
        help="serve webhooks on TELEGRAM_WEBHOOK_LISTEN:PORT instead of polling",
    )
    p.add_argument("--lang", help="en or nl, for this command's own messages")
    p.set_defaults(func=run)
    hook = subparsers.add_parser(
        "set-webhook", help="register TELEGRAM_WEBHOOK_URL with Telegram (once, at deploy)"
    )
    hook.add_argument("--delete", action="store_true", help="remove the webhook (back to polling)")
    hook.add_argument("--lang", help="en or nl")
    hook.set_defaults(func=set_webhook)
    migrate = subparsers.add_parser("migrate", help="bring the database schema up to date")
    migrate.add_argument("--lang", help="en or nl")
    migrate.set_defaults(func=run_migrate)


def _fail(key: str, lang: str, **params: object) -> int:
    print(f"error: {t(key, lang, **params)}", file=sys.stderr)
    return 2


def _settings(lang: str) -> BotSettings | int:
    """The settings, or the exit code after saying what is missing."""
    from pydantic import ValidationError

    from ..telegram.settings import BotSettings

    try:
        settings = BotSettings()
    except ValidationError:
        return _fail("tg.error.settings", lang)
    if settings.telegram_bot_token is None or not settings.telegram_bot_token.get_secret_value():
        return _fail("tg.error.no_token", lang)
    return settings


async def _serve(settings: BotSettings, webhook: bool) -> None:
    from storage import Storage

    from ..telegram import webhook as server
    from ..telegram.app import build

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with await Storage.open() as storage, build(settings, storage, webhook=webhook) as bot:
        await bot.start()
        runner = (await server.start(bot))[0] if webhook else None
        await stop.wait()
        if runner is not None:
            await runner.cleanup()
        await bot.stop()


def _guarded(lang: str, work: object) -> int:
    """Runs the coroutine; a bad token, an unreachable API or database is one line, exit 2."""
    from telegram.error import InvalidToken, NetworkError, TelegramError

    from storage.errors import StorageError

    from ..render import errors

    try:
        asyncio.run(work)
    except InvalidToken:
        return _fail("tg.error.bad_token", lang)
    except NetworkError as exc:
        return _fail("tg.error.network", lang, reason=type(exc).__name__)
    except TelegramError as exc:
        return _fail("tg.error.telegram", lang, reason=str(exc)[:200])
    except StorageError as exc:
        print(f"error: {errors.message(exc, lang)}", file=sys.stderr)
        return 2
    except OSError as exc:
        return _fail("tg.error.listen", lang, reason=exc.strerror or type(exc).__name__)
    return 0


def run(args: argparse.Namespace) -> int:
    from ..telegram import logs

    lang = language(args.lang)
    settings = _settings(lang)
    if isinstance(settings, int):
        return settings
    if args.webhook and settings.telegram_webhook_secret is None:
        return _fail("tg.error.no_secret", lang)
    logs.configure(settings.telegram_bot_token.get_secret_value())
    return _guarded(lang, _serve(settings, args.webhook))


async def _register(settings: BotSettings, delete: bool) -> None:
    from telegram import Bot, Update

    token = settings.telegram_bot_token.get_secret_value()
    async with Bot(token, base_url=settings.telegram_api_base_url) as bot:
        if delete:
            await bot.delete_webhook()
            return
        await bot.set_webhook(
            settings.telegram_webhook_url,
            secret_token=settings.telegram_webhook_secret.get_secret_value(),
            allowed_updates=Update.ALL_TYPES,
        )


def set_webhook(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    settings = _settings(lang)
    if isinstance(settings, int):
        return settings
    if not args.delete and not (settings.telegram_webhook_url and settings.telegram_webhook_secret):
        return _fail("tg.error.no_webhook_url", lang)
    code = _guarded(lang, _register(settings, args.delete))
    if code == 0:
        print(t("tg.webhook.deleted" if args.delete else "tg.webhook.set", lang))
    return code


def run_migrate(args: argparse.Namespace) -> int:
    from storage.migrate import migrate

    lang = language(args.lang)
    revision: list[str] = []

    async def work() -> None:
        revision.append(await migrate())

    code = _guarded(lang, work())
    if code == 0:
        print(t("migrate.done", lang, revision=revision[0]))
    return code
