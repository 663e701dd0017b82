"""Webhook mode: Telegram POSTs each update here. Several replicas may run behind one URL on one
PostgreSQL: the secret header is checked, each update is claimed once in the database before
it is handled, and one chat's updates are handled one at a time across replicas (the
application's update order takes an advisory lock per chat), so nothing is answered twice and
follow-ups see their question.

A claim that fails (the database away) refuses the request with a 503: Telegram delivers the
update again later, and nothing is answered that nobody claimed; an update no database can
claim (an id past 2^63) gets one apology and is acknowledged. The reply to Telegram waits for
the handling: Telegram sends a chat's next update after this one is acknowledged, which keeps
each chat in order. /healthz says ok only when the database answers."""

from __future__ import annotations

import asyncio
import hmac
import logging

from aiohttp import web
from telegram import Update

from storage import StorageError

from .app import TelegramBot
from .failures import apologise, database_down

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # Telegram's updates are far smaller
HEALTH_TIMEOUT_S = 2.0


def server(bot: TelegramBot) -> web.Application:
    settings, storage, app = bot.settings, bot.storage, bot.app
    secret = (
        settings.telegram_webhook_secret.get_secret_value()
        if settings.telegram_webhook_secret
        else ""
    )

    async def receive(request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "")
        if not secret or not hmac.compare_digest(given.encode(), secret.encode()):
            return web.Response(status=403)
        try:
            update = Update.de_json(await request.json(), app.bot)
        except Exception:  # any malformed body: acknowledged, or Telegram retries it forever
            log.warning("dropped a webhook body that is not an update")
            return web.Response(status=200)
        try:
            fresh = await storage.updates.claim("telegram", update.update_id)
        except StorageError as error:
            log.error("could not claim update %s: %s", update.update_id, error.code)
            if database_down(error):
                return web.Response(status=503)  # Telegram delivers it again
            # An id no database holds (past 2^63) would be refused forever: one apology.
            await apologise(bot.sender, update, None)
            return web.Response(status=200)
        if fresh:
            await app.update_processor.process_update(update, app.process_update(update))
        return web.Response(status=200)

    async def health(_: web.Request) -> web.Response:
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT_S):
                await storage.ping()
        except (StorageError, TimeoutError) as error:
            reason = error.code if isinstance(error, StorageError) else "timeout"
            return web.Response(status=503, text=f"database unavailable ({reason})")
        return web.Response(text="ok")

    web_app = web.Application(client_max_size=MAX_BODY)
    web_app.router.add_post(settings.telegram_webhook_path, receive)
    web_app.router.add_get("/healthz", health)
    return web_app


async def start(bot: TelegramBot) -> tuple[web.AppRunner, int]:
    """The webhook server, listening; returns its runner (to clean up) and the port it got."""
    runner = web.AppRunner(server(bot), access_log=None)
    await runner.setup()
    settings = bot.settings
    site = web.TCPSite(runner, settings.telegram_webhook_listen, settings.telegram_webhook_port)
    await site.start()
    port = runner.addresses[0][1]
    return runner, port
