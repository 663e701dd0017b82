"""Telegram's side of the fake Bot API: the rules it enforces and the chats and updates it keeps.

Kept apart from the HTTP server so the rules (HTML entities, length limits, inline keyboards,
commands) and the data tests feed the bot (users, chats, messages, the update queue) can be read
and changed without the plumbing around them.
"""

import asyncio
import contextlib
import copy
import html
import json
import re
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

_RECHECK_SECONDS = 0.02
TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
CALLBACK_DATA_LIMIT = 64

# fmt: off
ALLOWED_TAGS = frozenset({
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "a", "code", "pre", "tg-spoiler",
    "span", "blockquote",
})
_BUTTON_ACTIONS = frozenset({
    "url", "callback_data", "web_app", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text",
    "callback_game", "pay",
})
CHAT_ACTIONS = frozenset({
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
    "upload_document", "choose_sticker", "find_location", "record_video_note", "upload_video_note",
})
_COMMAND_SCOPES = frozenset({
    "default", "all_private_chats", "all_group_chats", "all_chat_administrators", "chat",
    "chat_administrators", "chat_member",
})
# Form and multipart fields arrive as strings; these carry JSON (numbers, booleans, objects).
JSON_FIELDS = frozenset({
    "chat_id", "message_id", "offset", "limit", "timeout", "allowed_updates", "reply_markup",
    "reply_parameters", "reply_to_message_id", "entities", "caption_entities",
    "link_preview_options", "disable_notification", "protect_content", "drop_pending_updates",
    "show_alert", "cache_time", "commands", "scope", "max_connections",
    "allow_sending_without_reply", "message_thread_id", "results", "button", "is_personal",
})
# fmt: on
# Telegram decodes only these entities and leaves any other "&..." as typed.
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")
_TAG = re.compile(r"<(/?)([^\s>]*)([^>]*)(>?)")
_SPOILER_CLASS = re.compile(r"""\bclass\s*=\s*(["']?)tg-spoiler\1""")
_COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)


class ApiError(Exception):
    """A Bot API error reply; the server turns it into JSON with the HTTP status set to the code."""

    def __init__(
        self, error_code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def reply(self) -> dict[str, Any]:
        """The JSON body Telegram sends for this error."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(reason: str) -> ApiError:
    """A 400, the status Telegram uses for every content error."""
    return ApiError(400, f"Bad Request: {reason}")


def html_to_text(text: str) -> str:
    """The plain text of an HTML message, failing where Telegram's entity parser fails.

    Mirrors tdlib's parser closely enough to catch what bots get wrong: an unescaped "<" in
    dynamic text, an unsupported tag, tags closed in the wrong order or not at all.
    """
    parts: list[str] = []
    open_tags: list[str] = []
    pos = 0
    while (start := text.find("<", pos)) != -1:
        parts.append(text[pos:start])
        offset = len(text[:start].encode())
        tag = _TAG.match(text, start)
        is_end, name, attributes, closed = tag.groups()
        name = name.lower()
        kind = "end" if is_end else "start"
        if tag.end(2) == len(text) or (not closed and (is_end or name in ALLOWED_TAGS)):
            raise _parse_error(f"Unclosed {kind} tag at byte offset {offset}")
        if is_end:
            if not open_tags:
                raise _parse_error(f"Unexpected end tag at byte offset {offset}")
            if name != open_tags.pop():
                raise _parse_error(f"Unmatched end tag at byte offset {offset}")
        elif name not in ALLOWED_TAGS:
            raise _parse_error(f'Unsupported start tag "{name}" at byte offset {offset}')
        elif name == "span" and not _SPOILER_CLASS.search(attributes):
            raise _parse_error(f'Tag "span" must have class "tg-spoiler" at byte offset {offset}')
        else:
            open_tags.append(name)
        pos = tag.end()
    parts.append(text[pos:])
    if open_tags:
        raise _parse_error(f'Can\'t find end tag corresponding to start tag "{open_tags[-1]}"')
    return _ENTITY.sub(lambda match: html.unescape(match.group()), "".join(parts))


def _parse_error(reason: str) -> ApiError:
    return bad_request(f"can't parse entities: {reason}")


def plain_text(text: str, parse_mode: str | None, *, limit: int, too_long: str) -> str:
    """Check a text or caption against Telegram's rules and return what the user would see."""
    if parse_mode is None or parse_mode == "":
        plain = text
    elif parse_mode.lower() == "html":
        plain = html_to_text(text)
    elif parse_mode.lower() in ("markdown", "markdownv2"):
        # Markdown is not parsed: the project's bot sends HTML, so only the length is checked.
        plain = text
    else:
        raise bad_request(f"unsupported parse_mode {parse_mode!r}")
    if len(plain) > limit:
        raise bad_request(too_long)
    return plain


def check_reply_markup(markup: Any) -> dict[str, Any]:
    """Reject the reply markups Telegram rejects; return the markup as a dict."""
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return markup
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
        )
    for button in (button for row in rows for button in row):
        if not isinstance(button, dict) or not button.get("text"):
            raise bad_request("can't parse inline keyboard button: Text must be non-empty")
        if not _BUTTON_ACTIONS & button.keys():
            raise bad_request(
                "can't parse inline keyboard button: Text buttons are unallowed in the inline "
                "keyboard"
            )
        if "callback_data" in button:
            data = button["callback_data"]
            if not isinstance(data, str) or not 1 <= len(data.encode()) <= CALLBACK_DATA_LIMIT:
                raise bad_request("BUTTON_DATA_INVALID")
    return markup


def callback_data_of(markup: dict[str, Any] | None) -> list[str]:
    """The callback_data of every inline button, in reading order."""
    rows = (markup or {}).get("inline_keyboard") or []
    return [button["callback_data"] for row in rows for button in row if "callback_data" in button]


def command_entities(text: str) -> list[dict[str, Any]]:
    """The bot_command entity Telegram adds server-side; without it CommandHandler never fires."""
    if not text.startswith("/"):
        return []
    command = text.split(maxsplit=1)[0]
    # Entity offsets and lengths are in UTF-16 code units, not Python characters.
    return [{"type": "bot_command", "offset": 0, "length": len(command.encode("utf-16-le")) // 2}]


def user_dict(user_id: int, first_name: str, language_code: str | None) -> dict[str, Any]:
    """A human user as Telegram describes the sender of an update."""
    user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
    if language_code:
        user["language_code"] = language_code
    return user


def chat_dict(chat_id: int, chat_type: str, first_name: str) -> dict[str, Any]:
    """A chat as it appears inside a message; groups carry a title, private chats a name."""
    if chat_type == "private":
        return {"id": chat_id, "type": "private", "first_name": first_name}
    if chat_type not in ("group", "supergroup", "channel"):
        raise ValueError(f"unknown chat type {chat_type!r}")
    return {"id": chat_id, "type": chat_type, "title": f"Test {chat_type} {chat_id}"}


def commands_key(params: dict[str, Any]) -> tuple[str, str]:
    """Where set/get/deleteMyCommands keep a command list: the exact scope and language."""
    scope = params.get("scope") or {"type": "default"}
    if not isinstance(scope, dict) or scope.get("type") not in _COMMAND_SCOPES:
        raise bad_request("can't parse BotCommandScope")
    language_code = params.get("language_code") or ""
    if language_code and not (len(language_code) == 2 and language_code.isalpha()):
        raise bad_request("invalid language code specified")
    return json.dumps(scope, sort_keys=True), language_code


def check_commands(commands: Any) -> list[dict[str, Any]]:
    """Reject the command lists Telegram rejects (it wants lowercase names, short descriptions)."""
    if not isinstance(commands, list) or len(commands) > 100:
        raise bad_request("commands must be an Array of at most 100 BotCommand")
    for command in commands:
        if not isinstance(command, dict):
            raise bad_request("can't parse BotCommand")
        if not _COMMAND_NAME.fullmatch(command.get("command", "")):
            raise bad_request("BOT_COMMAND_INVALID")
        if not 1 <= len(command.get("description", "")) <= 256:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
    return commands


@dataclass
class Call:
    """One request the bot made, with its decoded parameters and the error reply if it failed."""

    method: str
    params: dict[str, Any]
    time: float
    files: dict[str, bytes] = field(default_factory=dict)
    error: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class SentMessage:
    """A message the bot sent, kept current through edits so button presses see its state.

    `text` and `caption` are as the bot sent them (markup included), `plain_text` as shown.
    """

    chat_id: int | str
    message_id: int
    text: str | None = None
    plain_text: str | None = None
    parse_mode: str | None = None
    reply_markup: dict[str, Any] | None = None
    photo: bytes | None = None
    file_id: str | None = None
    caption: str | None = None
    reply_to_message_id: int | None = None

    @property
    def callback_data(self) -> list[str]:
        """The callback_data of the inline buttons currently attached, in reading order."""
        return callback_data_of(self.reply_markup)


@dataclass
class _Pending:
    update: dict[str, Any]
    delivered: bool = False


class UpdateFeed:
    """The chats, their messages and the update queue; tests feed it, the server serves it."""

    def __init__(self, bot_user: dict[str, Any]) -> None:
        self.bot_user = bot_user
        self.sent: list[SentMessage] = []
        self._chats: dict[int | str, dict[str, Any]] = {}
        self._messages: dict[tuple[int | str, int], dict[str, Any]] = {}
        self._sent: dict[tuple[int | str, int], SentMessage] = {}
        self._message_ids: defaultdict[int | str, int] = defaultdict(int)
        self._queue: list[_Pending] = []
        self._next_update_id = 10_000
        # update_id -> when a getUpdates first handed it to the bot (time.monotonic())
        self.delivered_at: dict[int, float] = {}
        self._next_query_id = 0
        self._queries: dict[str, dict[str, Any]] = {}
        self._changed = asyncio.Event()

    def add_chat(
        self, chat_id: int, chat_type: str = "private", first_name: str = "Test"
    ) -> dict[str, Any]:
        """Make a chat known; sending to a chat the fake never saw fails like Telegram does."""
        return self._chats.setdefault(chat_id, chat_dict(chat_id, chat_type, first_name))

    def send_text(
        self,
        user_id: int,
        text: str,
        chat_id: int | None = None,
        chat_type: str = "private",
        language_code: str | None = "en",
        first_name: str = "Test",
        reply_to_message_id: int | None = None,
    ) -> dict[str, Any]:
        """Queue a user's text message and return the update; a "/..." text gets a bot_command."""
        if chat_id is None:
            if chat_type != "private":
                raise ValueError("a group message needs a chat_id")
            chat_id = user_id
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat_id),
            "date": int(time.time()),
            "chat": self.add_chat(chat_id, chat_type, first_name),
            "from": user_dict(user_id, first_name, language_code),
            "text": text,
        }
        if entities := command_entities(text):
            message["entities"] = entities
        if reply_to_message_id is not None:
            message["reply_to_message"] = self._quoted(chat_id, reply_to_message_id)
        self._messages[(chat_id, message["message_id"])] = message
        return self.enqueue({"message": copy.deepcopy(message)})

    def press_button(
        self,
        user_id: int,
        message: SentMessage,
        callback_data: str,
        first_name: str = "Test",
        language_code: str | None = "en",
    ) -> dict[str, Any]:
        """Queue a press on one of the message's current inline buttons and return the update."""
        if callback_data not in message.callback_data:
            raise ValueError(f"{callback_data!r} is not a button of {message.callback_data}")
        self._next_query_id += 1
        query = {
            "id": str(self._next_query_id),
            "from": user_dict(user_id, first_name, language_code),
            "message": copy.deepcopy(self._messages[(message.chat_id, message.message_id)]),
            "chat_instance": str(message.chat_id),
            "data": callback_data,
        }
        self._queries[query["id"]] = query
        return self.enqueue({"callback_query": query})

    def enqueue(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queue any update, odd ones included; one with an update_id keeps it.

        So passing an update returned earlier delivers a duplicate, which the bot must tolerate.
        An update PTB cannot parse at all (a message without date or chat) is never confirmed:
        the poller refetches it in a loop and updater.stop() raises, so keep odd updates
        parseable (unknown fields, a message without "from").
        """
        update.setdefault("update_id", self._next_update_id)
        if not isinstance(update["update_id"], int):
            raise TypeError("update_id must be an int: the poller confirms updates by it")
        self._next_update_id = max(self._next_update_id, update["update_id"] + 1)
        self._queue.append(_Pending(update))
        self._notify()
        return update

    @property
    def pending_updates(self) -> int:
        """Updates queued and not yet confirmed by a later getUpdates offset."""
        return len(self._queue)

    async def wait_for(self, predicate: Callable[[], T], timeout: float = 5.0) -> T:
        """Wait until predicate() is truthy and return its value, instead of sleeping blindly.

        Rechecked on every bot call and queued update, and every few milliseconds besides, for
        state the fake never sees (what a handler wrote to the database).
        """
        async with asyncio.timeout(timeout):
            while not (result := predicate()):
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), _RECHECK_SECONDS)
        return result

    def _notify(self) -> None:
        # Waiters hold the old event; a fresh one arms the next wait.
        self._changed.set()
        self._changed = asyncio.Event()

    def _next_message_id(self, chat_id: int | str) -> int:
        # Telegram numbers a chat's messages, the users' and the bot's, in one sequence.
        self._message_ids[chat_id] += 1
        return self._message_ids[chat_id]

    def _quoted(self, chat_id: int | str, message_id: int) -> dict[str, Any]:
        # Telegram nests one level: a quoted message carries no reply_to_message of its own.
        message = self._messages[(chat_id, message_id)]
        return {key: value for key, value in message.items() if key != "reply_to_message"}

    def _confirm_updates(self, offset: int) -> None:
        if offset > 0:
            # Only delivered updates are confirmed, so a re-queued duplicate still goes out.
            self._queue = [
                p for p in self._queue if not (p.delivered and p.update["update_id"] < offset)
            ]

    def _deliver_updates(self, limit: int) -> list[dict[str, Any]]:
        batch = self._queue[:limit]
        now = time.monotonic()
        for pending in batch:
            pending.delivered = True
            self.delivered_at.setdefault(pending.update["update_id"], now)
        return [copy.deepcopy(pending.update) for pending in batch]

    def _store(self, sent: SentMessage, content: dict[str, Any]) -> dict[str, Any]:
        message = {
            "message_id": sent.message_id,
            "date": int(time.time()),
            "chat": self._chats[sent.chat_id],
            "from": self.bot_user,
            **content,
        }
        if sent.reply_markup is not None:
            message["reply_markup"] = sent.reply_markup
        if sent.reply_to_message_id is not None:
            message["reply_to_message"] = self._quoted(sent.chat_id, sent.reply_to_message_id)
        self.sent.append(sent)
        self._sent[(sent.chat_id, sent.message_id)] = sent
        self._messages[(sent.chat_id, sent.message_id)] = message
        return copy.deepcopy(message)
