"""`llm-sizer bot`: the Telegram bot, long polling until interrupted."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys

from ..i18n import language, t


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("bot", help="run the Telegram bot (TELEGRAM_BOT_TOKEN)")
    p.add_argument("--lang", help="en or nl, for this command's own messages")
    p.set_defaults(func=run)


async def _serve(settings: object) -> None:
    from storage import Storage

    from ..telegram.app import build, start_polling, stop_polling

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with await Storage.open() as storage:
        app = build(settings, storage)
        async with app:
            await start_polling(app)
            await stop.wait()
            await stop_polling(app)


def run(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from ..telegram import logs
    from ..telegram.settings import BotSettings

    lang = language(args.lang)
    try:
        settings = BotSettings()
    except ValidationError:
        print(f"error: {t('tg.error.settings', lang)}", file=sys.stderr)
        return 2
    if settings.telegram_bot_token is None or not settings.telegram_bot_token.get_secret_value():
        print(f"error: {t('tg.error.no_token', lang)}", file=sys.stderr)
        return 2
    logs.configure(settings.telegram_bot_token.get_secret_value())
    from telegram.error import InvalidToken, NetworkError

    from storage.errors import StorageError

    try:
        asyncio.run(_serve(settings))
    except InvalidToken:
        print(f"error: {t('tg.error.bad_token', lang)}", file=sys.stderr)
        return 2
    except NetworkError as exc:
        print(f"error: {t('tg.error.network', lang, reason=type(exc).__name__)}", file=sys.stderr)
        return 2
    except StorageError as exc:
        from ..render import errors

        print(f"error: {errors.message(exc, lang)}", file=sys.stderr)
        return 2
    return 0
