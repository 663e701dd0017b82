"""Webhook mode: Telegram POSTs each update here. Several replicas may run behind one URL on one
PostgreSQL: the secret header is checked, each update is claimed once in the database (the
dedupe handler of the application), and one chat's updates are handled one at a time across
replicas (an advisory lock), so nothing is answered twice and follow-ups see their question.

The reply to Telegram waits for the handling: Telegram sends a chat's next update after this
one is acknowledged, which keeps each chat in order."""

from __future__ import annotations

import asyncio
import hmac
import logging

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from storage import Storage
from storage.locks import chat_lock

from .identity import chat_key
from .settings import BotSettings

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # Telegram's updates are far smaller
# Each update in flight holds a connection for its chat's lock and uses one more at a time to
# answer: 6 x 2 stays within storage's pool (engine.POSTGRES_POOL_SIZE), so waiting updates
# queue here instead of timing out on the pool or opening new sessions.
MAX_IN_FLIGHT = 6


def server(app: Application, storage: Storage, settings: BotSettings) -> web.Application:
    secret = (
        settings.telegram_webhook_secret.get_secret_value()
        if settings.telegram_webhook_secret
        else ""
    )

    in_flight = asyncio.Semaphore(MAX_IN_FLIGHT)

    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not secret or not hmac.compare_digest(given.encode(), secret.encode()):
            return web.Response(status=403)
        try:
            update = Update.de_json(await request.json(), app.bot)
        except Exception:  # any malformed body: acknowledged, or Telegram retries it forever
            log.warning("dropped a webhook body that is not an update")
            return web.Response(status=200)
        async with in_flight, chat_lock(storage.db, chat_key(update)):
            await app.process_update(update)
        return web.Response(status=200)

    async def health(_: web.Request) -> web.Response:
        return web.Response(text="ok")

    web_app = web.Application(client_max_size=MAX_BODY)
    web_app.router.add_post(settings.telegram_webhook_path, receive)
    web_app.router.add_get("/healthz", health)
    return web_app


async def start(
    app: Application, storage: Storage, settings: BotSettings
) -> tuple[web.AppRunner, int]:
    """The webhook server, listening; returns its runner (to clean up) and the port it got."""
    runner = web.AppRunner(server(app, storage, settings), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.telegram_webhook_listen, settings.telegram_webhook_port)
    await site.start()
    port = runner.addresses[0][1]
    return runner, port
