"""Updates that are not a person typing a known command: messages without a sender, an
anonymous admin (per group), a channel writing in a group, presses on a message posted through
inline mode or on a button the bot never made, and commands it does not know. Each gets a
short, sensible reaction, never a traceback or a generic apology."""

import time

from tests.bot.telegram.test_app import ALICE, reply_to
from tests.bot.telegram.test_team_handlers import group_reply

GROUP_A, GROUP_B = -1001, -1002
ANONYMOUS = 1087968824  # Telegram's GroupAnonymousBot, the `from` of anonymous admins
CHANNEL = {"id": -1005, "type": "channel", "title": "News"}


def group_chat(chat_id: int) -> dict:
    return {"id": chat_id, "type": "supergroup", "title": f"Test supergroup {chat_id}"}


def no_apology(fake, chat) -> bool:
    return not any(m.plain_text.startswith("Sorry") for m in fake.messages(chat))


async def test_a_message_without_a_sender_is_answered(bot, fake):
    fake.send_as_chat(GROUP_A, "@sizer_bot can I run Qwen2.5-7B on an RTX 4090?", None, None)
    (answer,) = await fake.wait_messages(GROUP_A, 1, timeout=15)
    assert answer.plain_text.startswith("Qwen2.5-7B (7.62B), inference")


async def test_a_channel_writing_in_a_group_is_answered(bot, fake, storage):
    fake.send_as_chat(GROUP_A, "/ask can I run Qwen2.5-7B on an RTX 4090?", CHANNEL, 136817688)
    (answer,) = await fake.wait_messages(GROUP_A, 1, timeout=15)
    assert answer.plain_text.startswith("Qwen2.5-7B")
    assert await storage.users.find("telegram", "chat:-1005") is not None


async def test_anonymous_admins_are_someone_else_in_each_group(bot, fake, storage):
    fake.send_as_chat(GROUP_A, "/lang nl", group_chat(GROUP_A), ANONYMOUS)
    await fake.wait_messages(GROUP_A, 1, timeout=15)
    fake.send_as_chat(
        GROUP_B, "/ask can I run Qwen2.5-7B on an RTX 4090?", group_chat(GROUP_B), ANONYMOUS
    )
    (answer,) = await fake.wait_messages(GROUP_B, 1, timeout=15)
    assert answer.plain_text.startswith("Qwen2.5-7B (7.62B), inference")  # English: B's own
    a = await storage.users.find("telegram", f"chat:{GROUP_A}")
    b = await storage.users.find("telegram", f"chat:{GROUP_B}")
    assert a is not None and b is not None and a.id != b.id
    assert a.settings.get("language") == "nl" and b.settings.get("language") is None
    assert await storage.users.find("telegram", ANONYMOUS) is None


async def test_an_anonymous_admin_may_add_team_hardware(bot, fake):
    fake.send_as_chat(
        GROUP_A, "/teamhw add 2x A100 80GB lab server", group_chat(GROUP_A), ANONYMOUS
    )
    (added,) = await fake.wait_messages(GROUP_A, 1, timeout=15)
    assert added.plain_text == "Added “lab server” to the team's hardware."


async def test_a_press_on_an_inline_message_is_acknowledged(bot, fake):
    fake.press_inline_button(ALICE, "m:with QLoRA")
    (answered,) = await fake.wait_for(lambda: fake.callback_answers(), timeout=15)
    assert answered.params["text"].startswith("This button no longer works here")
    assert fake.messages() == []


async def test_a_button_the_bot_never_made_is_acknowledged(bot, fake):
    (welcome,) = await reply_to(fake, ALICE, "/start")
    message = fake._messages[(ALICE, welcome.message_id)]
    fake.enqueue(
        {
            "callback_query": {
                "id": "odd-1",
                "from": {"id": ALICE, "is_bot": False, "first_name": "Test"},
                "message": message,
                "chat_instance": str(ALICE),
                "data": "zz:what is this",
            }
        }
    )
    fake._queries["odd-1"] = {}
    (answered,) = await fake.wait_for(lambda: fake.callback_answers(), timeout=15)
    assert answered.params["text"].startswith("This button no longer works here")
    assert len(fake.messages(ALICE)) == 1


async def test_an_unknown_command_gets_a_help_line(bot, fake):
    (reply,) = await reply_to(fake, ALICE, "/frobnicate now")
    assert reply.plain_text == "I do not know /frobnicate. /help lists what I can do."
    (dutch,) = await reply_to(fake, ALICE, "/wat", language_code="nl")
    assert dutch.plain_text == "/wat ken ik niet. /help laat zien wat ik kan."


async def test_in_a_group_only_commands_addressed_to_the_bot_get_one(bot, fake):
    fake.send_text(11, "/frobnicate", chat_id=GROUP_A, chat_type="group")
    fake.send_text(11, "/frobnicate@otherbot", chat_id=GROUP_A, chat_type="group")
    (reply,) = await group_reply(fake, 11, "/frobnicate@sizer_bot", chat=GROUP_A)
    assert reply.plain_text.startswith("I do not know /frobnicate")
    assert len(fake.messages(GROUP_A)) == 1
    assert no_apology(fake, GROUP_A)


async def test_an_edited_message_without_text_changes_nothing(bot, fake):
    fake.enqueue(
        {
            "edited_message": {
                "message_id": 99,
                "date": int(time.time()),
                "edit_date": int(time.time()),
                "chat": fake.add_chat(ALICE),
                "from": {"id": ALICE, "is_bot": False, "first_name": "Test"},
                "photo": [{"file_id": "x", "file_unique_id": "x", "width": 1, "height": 1}],
            }
        }
    )
    (answer,) = await reply_to(fake, ALICE, "/help")
    assert answer.plain_text.startswith("Ask any question")
    assert len(fake.messages(ALICE)) == 1
