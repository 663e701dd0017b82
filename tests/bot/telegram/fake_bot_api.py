"""A loopback Telegram Bot API server for end-to-end tests of the bot.

The bot under test talks to it through PTB's real HTTP client, so the wire format, error mapping
and polling loop are exercised as in production. The fake is strict where Telegram is (limits,
HTML entities, inline keyboards, "message is not modified") so that tests fail where Telegram
would, and it records every call so tests can assert on what the bot sent.
"""

import asyncio
import contextlib
import copy
import json
import time
from dataclasses import dataclass
from typing import Any, Self

from aiohttp import web

from tests.bot.telegram.fake_faults import HANG_S, PROXY_PAGE, FaultPlan
from tests.bot.telegram.fake_methods import MoreMethods
from tests.bot.telegram.fake_updates import (
    CAPTION_LIMIT,
    JSON_FIELDS,
    NOT_MODIFIED,
    TEXT_LIMIT,
    ApiError,
    Call,
    SentMessage,
    UpdateFeed,
    bad_request,
    check_reply_markup,
    plain_text,
)


@dataclass
class _Injected:
    method: str | None
    error: ApiError
    remaining: int


class FakeBotApi(MoreMethods, UpdateFeed):
    """The fake server; use as `async with FakeBotApi(token=..., username=...) as fake`."""

    def __init__(
        self,
        token: str = "123:ABC",
        username: str = "sizer_bot",
        first_name: str = "LLM Sizer",
        max_poll_wait: float = 0.5,
    ) -> None:
        self.token = token
        # Telegram bot ids are the token's numeric prefix.
        bot_id = int(token.split(":", 1)[0]) if token.split(":", 1)[0].isdigit() else 1
        super().__init__(
            {
                "id": bot_id,
                "is_bot": True,
                "first_name": first_name,
                "username": username,
                "can_join_groups": True,
                "can_read_all_group_messages": False,
                "supports_inline_queries": False,
            }
        )
        self.max_poll_wait = max_poll_wait
        self.calls: list[Call] = []
        self.blocked: set[int | str] = set()
        # (chat id, user id) of group admins, for getChatMember
        self.admins: set[tuple[int, int]] = set()
        # old group id -> supergroup id, after migrate_group()
        self.migrated: dict[int, int] = {}
        self.webhook_url = ""
        self.port = 0
        self._files: dict[str, bytes] = {}
        self.documents: list[tuple[int, bytes]] = []
        self._commands: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._injected: list[_Injected] = []
        self.faults = FaultPlan()
        self.descriptions: dict[tuple[str, str], str] = {}  # (kind, language) -> text
        self.inline_answers: list[dict[str, Any]] = []
        self._poll_generation = 0
        self._waiting_polls = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._handlers = {
            name.removeprefix("_api_").lower(): getattr(self, name)
            for name in dir(self)
            if name.startswith("_api_")
        }

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/file/bot"

    async def start(self) -> Self:
        """Listen on a free loopback port in the running loop."""
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        # handler_cancellation ends a long poll whose client went away instead of keeping it.
        self._runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=1.0
        )
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Release waiting long polls first so shutdown does not wait for their timeouts."""
        self._closing = True
        self._notify()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def polling(self) -> bool:
        """Whether a getUpdates long poll is waiting, i.e. the bot is idle and listening."""
        return self._waiting_polls > 0

    # Injecting failures -----------------------------------------------------------------------

    def inject_error(
        self,
        method: str | None,
        error_code: int,
        description: str,
        count: int = 1,
        parameters: dict[str, Any] | None = None,
    ) -> None:
        """Fail the next `count` calls of `method` (None: any method but getUpdates)."""
        error = ApiError(error_code, description, parameters)
        self._injected.append(_Injected(method and method.lower(), error, count))

    def rate_limit(self, method: str | None = None, retry_after: int = 1, count: int = 1) -> None:
        """Answer the next `count` calls with 429, which PTB raises as RetryAfter."""
        description = f"Too Many Requests: retry after {retry_after}"
        self.inject_error(method, 429, description, count, {"retry_after": retry_after})

    # Recorded traffic -------------------------------------------------------------------------

    def calls_to(self, method: str) -> list[Call]:
        """Every call of one method (any spelling case), failed ones included."""
        return [call for call in self.calls if call.method.lower() == method.lower()]

    def messages(self, chat_id: int | str | None = None) -> list[SentMessage]:
        """Text messages the bot sent, oldest first, in their current (edited) state."""
        return [m for m in self.sent if m.photo is None and chat_id in (None, m.chat_id)]

    def photos(self, chat_id: int | str | None = None) -> list[SentMessage]:
        """Photos the bot sent, with the uploaded bytes (also when resent by file_id)."""
        return [m for m in self.sent if m.photo is not None and chat_id in (None, m.chat_id)]

    def edits(self, chat_id: int | str | None = None) -> list[Call]:
        """Successful editMessageText / editMessageReplyMarkup calls, oldest first."""
        return [
            call
            for call in self.calls
            if call.ok
            and call.method.lower() in ("editmessagetext", "editmessagereplymarkup")
            and chat_id in (None, call.params.get("chat_id"))
        ]

    def callback_answers(self) -> list[Call]:
        """Successful answerCallbackQuery calls; params hold text and show_alert."""
        return [call for call in self.calls_to("answerCallbackQuery") if call.ok]

    def commands(
        self, scope: str | dict[str, Any] = "default", language_code: str = ""
    ) -> list[dict[str, Any]]:
        """The commands set for exactly this scope and language (Telegram's own fallbacks aside)."""
        scope = {"type": scope} if isinstance(scope, str) else scope
        return self._commands.get((json.dumps(scope, sort_keys=True), language_code), [])

    async def wait_messages(
        self, chat_id: int | str, count: int = 1, timeout: float = 5.0
    ) -> list[SentMessage]:
        """Wait until the bot has sent at least `count` text messages to the chat; return them."""
        try:
            return await self.wait_for(
                lambda: len(found := self.messages(chat_id)) >= count and found,
                timeout,
            )
        except TimeoutError:
            sent = [m.text for m in self.messages(chat_id)]
            raise TimeoutError(f"chat {chat_id}: wanted {count} messages, got {sent}") from None

    # Serving ----------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        fault = self.faults.take(request.match_info["method"])
        if fault is not None and fault.kind != "late":
            return await self._fail(request, fault.kind)
        response = await self._serve(request)
        if fault is not None:  # "late": done, and the reply takes its time
            await asyncio.sleep(fault.seconds)
        return response

    async def _fail(self, request: web.Request, kind: str) -> web.Response:
        """A fault instead of the method: nothing is carried out."""
        self._notify()
        if kind == "500":
            return web.json_response(
                {"ok": False, "error_code": 500, "description": "Internal Server Error"},
                status=500,
            )
        if kind == "502":
            return web.Response(body=PROXY_PAGE, status=502, content_type="text/html")
        if kind == "timeout":
            await asyncio.sleep(HANG_S)  # cancelled when the client gives up
        request.transport.abort()  # "reset" (and a timeout that somehow ended)
        raise ConnectionResetError("reset by the fake")

    async def _serve(self, request: web.Request) -> web.Response:
        call = Call(request.match_info["method"], {}, time.monotonic())
        reply: dict[str, Any] = {"ok": True}
        try:
            if request.match_info["token"] != self.token:
                raise ApiError(401, "Unauthorized")
            call.params, call.files = await _read_params(request)
        except ApiError as error:
            call.error = error.reply()
        # Recorded before dispatch so a long poll the bot abandons still shows up, in order.
        self.calls.append(call)
        if call.error is None:
            try:
                reply["result"] = await self._dispatch(call.method, call.params, call.files)
            except ApiError as error:
                call.error = error.reply()
        self._notify()
        if call.error:
            return web.json_response(call.error, status=call.error["error_code"])
        return web.json_response(reply)

    async def _dispatch(self, method: str, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        handler = self._handlers.get(method.lower())
        if handler is None:
            raise ApiError(404, "Not Found: method not found")
        for injected in self._injected:
            wildcard = injected.method is None and method.lower() != "getupdates"
            if injected.remaining > 0 and (wildcard or injected.method == method.lower()):
                injected.remaining -= 1
                raise injected.error
        return await handler(params, files)

    def _chat(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = params.get("chat_id")
        if chat_id in (None, ""):
            raise bad_request("chat_id is empty")
        if chat_id not in self._chats:
            raise bad_request("chat not found")
        if chat_id in self.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        if chat_id in self.migrated:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": self.migrated[chat_id]},
            )
        return self._chats[chat_id]

    def _reply_to(self, chat_id: int | str, params: dict[str, Any]) -> int | None:
        reply = params.get("reply_parameters") or {}
        reply_to = params.get("reply_to_message_id", reply.get("message_id"))
        if reply_to is None or (chat_id, reply_to) in self._messages:
            return reply_to
        if params.get("allow_sending_without_reply") or reply.get("allow_sending_without_reply"):
            return None
        raise bad_request("message to be replied not found")

    def _markup(self, params: dict[str, Any]) -> dict[str, Any] | None:
        markup = params.get("reply_markup")
        return None if markup is None else check_reply_markup(markup)

    def _edited(self, params: dict[str, Any]) -> SentMessage:
        key = (params.get("chat_id"), params.get("message_id"))
        if key not in self._sent:
            raise bad_request("message to edit not found")
        return self._sent[key]

    # Bot API methods ---------------------------------------------------------------------------

    async def _api_getMe(self, params: dict, files: dict) -> dict[str, Any]:
        return self.bot_user

    async def _api_deleteWebhook(self, params: dict, files: dict) -> bool:
        if params.get("drop_pending_updates"):
            self._queue.clear()
        self.webhook_url = ""
        return True

    async def _api_setWebhook(self, params: dict, files: dict) -> bool:
        url = params.get("url", "")
        if url and not url.startswith("https://"):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook_url = url
        return True

    async def _api_getWebhookInfo(self, params: dict, files: dict) -> dict[str, Any]:
        return {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._queue),
        }

    async def _api_getUpdates(self, params: dict, files: dict) -> list[dict[str, Any]]:
        if self.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use "
                "deleteWebhook to delete the webhook first",
            )
        # A new poll ends the one still waiting, as Telegram does when two pollers compete.
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()
        offset = int(params.get("offset") or 0)
        limit = min(max(int(params.get("limit") or 100), 1), 100)
        wait = min(float(params.get("timeout") or 0), self.max_poll_wait)
        self._confirm_updates(offset)
        self._waiting_polls += 1
        try:
            await self._wait_for_updates(wait, generation)
        finally:
            self._waiting_polls -= 1
        return self._deliver_updates(limit)

    async def _wait_for_updates(self, wait: float, generation: int) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait):
                while not self._queue and not self._closing:
                    await self._changed.wait()
                    if generation != self._poll_generation:
                        raise ApiError(
                            409,
                            "Conflict: terminated by other getUpdates request; make sure that "
                            "only one bot instance is running",
                        )

    async def _api_sendMessage(self, params: dict, files: dict) -> dict[str, Any]:
        chat = self._chat(params)
        text = params.get("text") or ""
        parse_mode = params.get("parse_mode")
        plain = plain_text(text, parse_mode, limit=TEXT_LIMIT, too_long="message is too long")
        if not plain.strip():
            raise bad_request("message text is empty")
        markup, reply_to = self._markup(params), self._reply_to(chat["id"], params)
        # The message id is taken only once every check passed: failed sends leave no gap.
        sent = SentMessage(chat["id"], self._next_message_id(chat["id"]), text, plain, parse_mode)
        sent.reply_markup, sent.reply_to_message_id = markup, reply_to
        return self._store(sent, {"text": plain})

    async def _api_sendPhoto(self, params: dict, files: dict) -> dict[str, Any]:
        chat = self._chat(params)
        photo = params.get("photo")
        if isinstance(photo, str) and photo.startswith("attach://"):
            photo = files.get(photo.removeprefix("attach://"))
        elif "photo" in files:
            photo = files["photo"]
        if isinstance(photo, str) and photo not in self._files:
            raise bad_request("wrong file identifier/HTTP URL specified")
        if not photo:
            raise bad_request("there is no photo in the request")
        caption = params.get("caption") or None
        parse_mode = params.get("parse_mode")
        content: dict[str, Any] = {}
        if caption:
            content["caption"] = plain_text(
                caption, parse_mode, limit=CAPTION_LIMIT, too_long="message caption is too long"
            )
        markup, reply_to = self._markup(params), self._reply_to(chat["id"], params)
        if isinstance(photo, str):
            file_id, photo = photo, self._files[photo]
        else:
            file_id = f"photo-{len(self._files) + 1}"
            self._files[file_id] = photo
        sent = SentMessage(chat["id"], self._next_message_id(chat["id"]), parse_mode=parse_mode)
        sent.photo, sent.file_id, sent.caption = photo, file_id, caption
        sent.reply_markup, sent.reply_to_message_id = markup, reply_to
        size = {"file_id": file_id, "file_unique_id": file_id, "width": 800, "height": 600}
        content["photo"] = [{**size, "file_size": len(photo)}]
        return self._store(sent, content)

    async def _api_sendDocument(self, params: dict, files: dict) -> dict[str, Any]:
        """A file the bot sends (an export); kept in `documents` as (chat id, bytes)."""
        chat = self._chat(params)
        document = params.get("document")
        if isinstance(document, str) and document.startswith("attach://"):
            document = files.get(document.removeprefix("attach://"))
        elif "document" in files:
            document = files["document"]
        if not isinstance(document, bytes) or not document:
            raise bad_request("there is no document in the request")
        caption = params.get("caption")
        if caption:
            plain_text(
                caption,
                params.get("parse_mode"),
                limit=CAPTION_LIMIT,
                too_long="message caption is too long",
            )
        self.documents.append((chat["id"], document))
        file_id = f"document-{len(self.documents)}"
        return {
            "message_id": self._next_message_id(chat["id"]),
            "date": 0,
            "chat": chat,
            "document": {"file_id": file_id, "file_unique_id": file_id, "file_size": len(document)},
        }

    async def _api_editMessageText(self, params: dict, files: dict) -> dict[str, Any]:
        sent = self._edited(params)
        if sent.text is None:
            raise bad_request("there is no text in the message to edit")
        text = params.get("text") or ""
        parse_mode = params.get("parse_mode")
        plain = plain_text(text, parse_mode, limit=TEXT_LIMIT, too_long="message is too long")
        if not plain.strip():
            raise bad_request("message text is empty")
        # Leaving reply_markup out removes the keyboard, as on Telegram.
        markup = self._markup(params)
        if (text, parse_mode, markup) == (sent.text, sent.parse_mode, sent.reply_markup):
            raise bad_request(NOT_MODIFIED)
        sent.text, sent.plain_text, sent.parse_mode = text, plain, parse_mode
        return self._apply_edit(sent, markup, {"text": plain})

    async def _api_editMessageReplyMarkup(self, params: dict, files: dict) -> dict[str, Any]:
        sent = self._edited(params)
        markup = self._markup(params)
        if markup == sent.reply_markup:
            raise bad_request(NOT_MODIFIED)
        return self._apply_edit(sent, markup, {})

    def _apply_edit(
        self, sent: SentMessage, markup: dict[str, Any] | None, content: dict[str, Any]
    ) -> dict[str, Any]:
        sent.reply_markup = markup
        message = self._messages[(sent.chat_id, sent.message_id)]
        message.update(content, edit_date=int(time.time()))
        message.pop("reply_markup", None)
        if markup is not None:
            message["reply_markup"] = markup
        return copy.deepcopy(message)

    async def _api_answerCallbackQuery(self, params: dict, files: dict) -> bool:
        if len(params.get("text") or "") > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        # A query can be answered once; the id is spent after that, as on Telegram.
        if self._queries.pop(str(params.get("callback_query_id")), None) is None:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        return True


async def _read_params(request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
    """Decode query, form, multipart or JSON parameters the way the Bot API accepts them."""
    params: dict[str, Any] = dict(request.query)
    files: dict[str, bytes] = {}
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except ValueError as error:
            raise bad_request("can't parse JSON request body") from error
        if not isinstance(body, dict):
            raise bad_request("JSON request body must be an object")
        return {**params, **body}, files
    for key, value in (await request.post()).items():
        if isinstance(value, web.FileField):
            files[key] = value.file.read()
        else:
            params[key] = value
    for key in JSON_FIELDS & params.keys():
        if isinstance(params[key], str):
            with contextlib.suppress(ValueError):
                params[key] = json.loads(params[key])
    return params, files
