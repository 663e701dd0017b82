"""More of the fake Bot API: group membership, chat actions, commands, descriptions and inline
mode, and the updates that feed them (inline queries, messages sent as a chat, presses on a
message posted through inline mode). A mixin of FakeBotApi, kept apart to keep each file to one
size a reader can hold."""

import re
import time
from typing import Any

from tests.bot.telegram.fake_updates import (
    CHAT_ACTIONS,
    TEXT_LIMIT,
    bad_request,
    check_commands,
    check_reply_markup,
    commands_key,
    plain_text,
    user_dict,
)

DESCRIPTION_LIMIT = 512
SHORT_DESCRIPTION_LIMIT = 120
START_PARAMETER = re.compile(r"[A-Za-z0-9_-]{1,64}")
INLINE_RESULTS_LIMIT = 50


class MoreMethods:
    async def _api_getChatMember(self, params: dict, files: dict) -> dict[str, Any]:
        chat = self._chat(params)
        user_id = int(params.get("user_id") or 0)
        user = {"id": user_id, "is_bot": False, "first_name": "Test"}
        if (chat["id"], user_id) in self.admins:
            return {"status": "creator", "user": user, "is_anonymous": False}
        return {"status": "member", "user": user}

    def migrate_group(self, old_chat_id: int, new_chat_id: int, user_id: int) -> None:
        """The group becomes a supergroup: Telegram posts a service message in each chat, and
        sends to the old id fail from now on with migrate_to_chat_id."""
        self.add_chat(new_chat_id, "supergroup")
        for chat_id, key, value in (
            (old_chat_id, "migrate_to_chat_id", new_chat_id),
            (new_chat_id, "migrate_from_chat_id", old_chat_id),
        ):
            self.enqueue(
                {
                    "message": {
                        "message_id": self._next_message_id(chat_id),
                        "date": int(time.time()),
                        "chat": self._chats[chat_id],
                        "from": {"id": user_id, "is_bot": False, "first_name": "Test"},
                        key: value,
                    }
                }
            )
        self.migrated[old_chat_id] = new_chat_id

    async def _api_sendChatAction(self, params: dict, files: dict) -> bool:
        self._chat(params)
        if params.get("action") not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        return True

    def chat_actions(self, chat_id: int | str) -> list[str]:
        """The actions the bot showed in a chat ("typing", "upload_photo"), in order."""
        return [
            c.params["action"]
            for c in self.calls_to("sendChatAction")
            if c.ok and c.params.get("chat_id") == chat_id
        ]

    async def _api_setMyCommands(self, params: dict, files: dict) -> bool:
        self._commands[commands_key(params)] = check_commands(params.get("commands"))
        return True

    async def _api_getMyCommands(self, params: dict, files: dict) -> list[dict[str, Any]]:
        return self._commands.get(commands_key(params), [])

    async def _api_deleteMyCommands(self, params: dict, files: dict) -> bool:
        self._commands.pop(commands_key(params), None)
        return True

    # Descriptions ---------------------------------------------------------------------------

    def _describe(self, kind: str, field: str, limit: int, params: dict) -> bool:
        text = params.get(field) or ""
        if len(text) > limit:
            raise bad_request(f"{kind.upper()}_INVALID")
        language = params.get("language_code") or ""
        if language and not (len(language) == 2 and language.isalpha()):
            raise bad_request("invalid language code specified")
        self.descriptions[(kind, language)] = text
        return True

    async def _api_setMyDescription(self, params: dict, files: dict) -> bool:
        return self._describe("description", "description", DESCRIPTION_LIMIT, params)

    async def _api_setMyShortDescription(self, params: dict, files: dict) -> bool:
        return self._describe(
            "short_description", "short_description", SHORT_DESCRIPTION_LIMIT, params
        )

    async def _api_getMyDescription(self, params: dict, files: dict) -> dict[str, str]:
        key = ("description", params.get("language_code") or "")
        return {"description": self.descriptions.get(key, "")}

    async def _api_getMyShortDescription(self, params: dict, files: dict) -> dict[str, str]:
        key = ("short_description", params.get("language_code") or "")
        return {"short_description": self.descriptions.get(key, "")}

    # Inline mode ----------------------------------------------------------------------------

    def send_inline_query(
        self, user_id: int, query: str, language_code: str | None = "en"
    ) -> dict[str, Any]:
        """Queue an inline query ("@bot <query>" typed in any chat) and return the update."""
        self._next_query_id += 1
        inline = {
            "id": f"inline-{self._next_query_id}",
            "from": user_dict(user_id, "Test", language_code),
            "query": query,
            "offset": "",
        }
        self._queries[inline["id"]] = inline
        return self.enqueue({"inline_query": inline})

    async def _api_answerInlineQuery(self, params: dict, files: dict) -> bool:
        if self._queries.pop(str(params.get("inline_query_id")), None) is None:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        results = params.get("results")
        if not isinstance(results, list) or len(results) > INLINE_RESULTS_LIMIT:
            raise bad_request("RESULTS_TOO_MUCH")
        for result in results:
            _check_result(result)
        button = params.get("button")
        if button is not None:
            if not isinstance(button, dict) or not button.get("text"):
                raise bad_request("BUTTON_TEXT_INVALID")
            parameter = button.get("start_parameter")
            if parameter is not None and not START_PARAMETER.fullmatch(parameter):
                raise bad_request("START_PARAM_INVALID")
        self.inline_answers.append(params)
        return True

    def press_inline_button(self, user_id: int, callback_data: str) -> dict[str, Any]:
        """Queue a press on a button of a message posted through inline mode: the update has
        an inline_message_id and no message (the bot cannot see the chat)."""
        self._next_query_id += 1
        query = {
            "id": str(self._next_query_id),
            "from": user_dict(user_id, "Test", "en"),
            "inline_message_id": f"inline-message-{self._next_query_id}",
            "chat_instance": "inline",
            "data": callback_data,
        }
        self._queries[query["id"]] = query
        return self.enqueue({"callback_query": query})

    # Senders that are not a person ----------------------------------------------------------

    def send_as_chat(
        self, chat_id: int, text: str, sender_chat: dict[str, Any] | None, user_id: int | None
    ) -> dict[str, Any]:
        """Queue a group message without a person behind it: an anonymous admin (sender_chat is
        the group, `from` Telegram's placeholder 1087968824), a channel's post in a group, or
        (sender_chat and user_id None) a message with no sender at all."""
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat_id),
            "date": int(time.time()),
            "chat": self.add_chat(chat_id, "supergroup"),
            "text": text,
        }
        if user_id is not None:
            message["from"] = {"id": user_id, "is_bot": True, "first_name": "Group"}
        if sender_chat is not None:
            message["sender_chat"] = sender_chat
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            length = len(command.encode("utf-16-le")) // 2
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        self._messages[(chat_id, message["message_id"])] = message
        return self.enqueue({"message": dict(message)})


def _check_result(result: Any) -> None:
    if not isinstance(result, dict) or result.get("type") != "article":
        raise bad_request("RESULT_TYPE_INVALID")
    if not 1 <= len(str(result.get("id") or "").encode()) <= 64:
        raise bad_request("RESULT_ID_INVALID")
    if not result.get("title"):
        raise bad_request("RESULT_TITLE_EMPTY")
    content = result.get("input_message_content") or {}
    plain_text(
        content.get("message_text") or "",
        content.get("parse_mode"),
        limit=TEXT_LIMIT,
        too_long="MESSAGE_TOO_LONG",
    )
    if result.get("reply_markup") is not None:
        check_reply_markup(result["reply_markup"])
