"""`llm-sizer bot [--webhook]`, `llm-sizer set-webhook [--delete]` and `llm-sizer migrate`: run
the Telegram bot (long polling, or a webhook server of which several replicas may run), register
its webhook once at deploy, and bring the database schema up to date."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from ..i18n import language, t

if TYPE_CHECKING:
    from ..telegram.settings import BotSettings


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
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
    if not settings.token:
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


def _guarded(lang: str, work: Coroutine[Any, Any, None]) -> int:
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
    logs.configure(settings.token)
    return _guarded(lang, _serve(settings, args.webhook))


async def _delete_webhook(settings: BotSettings) -> None:
    from telegram import Bot

    async with Bot(settings.token, base_url=settings.telegram_api_base_url) as bot:
        await bot.delete_webhook()


async def _set_webhook(settings: BotSettings, url: str, secret: str) -> None:
    from telegram import Bot, Update

    async with Bot(settings.token, base_url=settings.telegram_api_base_url) as bot:
        await bot.set_webhook(url, secret_token=secret, allowed_updates=Update.ALL_TYPES)


def set_webhook(args: argparse.Namespace) -> int:
    lang = language(args.lang)
    settings = _settings(lang)
    if isinstance(settings, int):
        return settings
    url, secret = settings.telegram_webhook_url, settings.telegram_webhook_secret
    if args.delete:
        work = _delete_webhook(settings)
    elif url and secret:
        work = _set_webhook(settings, url, secret.get_secret_value())
    else:
        return _fail("tg.error.no_webhook_url", lang)
    code = _guarded(lang, work)
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
