"""The fake Bot API driven by PTB's real HTTP client, so later bot tests can trust it."""

import asyncio
import datetime as dtm
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import aiohttp
import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Update,
)
from telegram.error import (
    BadRequest,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
)
from telegram.ext import (
    Application,
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from tests.bot.telegram.fake_bot_api import FakeBotApi

TOKEN = "123:ABC"
USER = 42


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    async with FakeBotApi(token=TOKEN, username="sizer_bot") as server:
        server.add_chat(USER)
        yield server


@pytest.fixture
async def bot(fake: FakeBotApi) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=fake.base_url, base_file_url=fake.base_file_url) as client:
        yield client


@asynccontextmanager
async def polling(fake: FakeBotApi, handlers: Sequence[BaseHandler]) -> AsyncIterator[Application]:
    """An Application polling the fake, started and stopped the way tests must (no run_polling)."""
    app = (
        Application.builder()
        .token(TOKEN)
        .base_url(fake.base_url)
        .base_file_url(fake.base_file_url)
        .build()
    )
    app.add_handlers(handlers)
    async with app:
        await app.start()
        await app.updater.start_polling(poll_interval=0, timeout=1)
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()


def keyboard(*data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(item, callback_data=item)] for item in data])


async def test_get_me_reports_the_configured_bot(bot: Bot) -> None:
    me = await bot.get_me()

    assert (me.id, me.username, me.is_bot) == (123, "sizer_bot", True)


async def test_wrong_token_is_unauthorized(fake: FakeBotApi) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.base_url}999:XYZ/getMe") as response,
    ):
        assert response.status == 401
        assert await response.json() == {
            "ok": False,
            "error_code": 401,
            "description": "Unauthorized",
        }
    # Entering the Bot calls getMe; on failure PTB shuts its HTTP client down again.
    with pytest.raises(InvalidToken):
        async with Bot("999:XYZ", base_url=fake.base_url):
            pass


async def test_json_bodies_get_requests_and_unknown_methods(fake: FakeBotApi) -> None:
    async with aiohttp.ClientSession() as session:
        url = f"{fake.base_url}{TOKEN}"
        async with session.post(f"{url}/sendMessage", json={"chat_id": USER, "text": "hi"}) as r:
            assert (await r.json())["result"]["text"] == "hi"
        async with session.get(f"{url}/sendMessage", params={"chat_id": USER, "text": "yo"}) as r:
            assert (await r.json())["result"]["message_id"] == 2
        async with session.post(f"{url}/noSuchMethod") as response:
            assert response.status == 404
            assert (await response.json())["description"] == "Not Found: method not found"

    assert [m.text for m in fake.messages(USER)] == ["hi", "yo"]


async def test_send_message_is_recorded_with_markup(bot: Bot, fake: FakeBotApi) -> None:
    sent = await bot.send_message(USER, "<b>Fits</b> on 1 GPU", parse_mode="HTML")
    await bot.send_message(USER, "pick", reply_markup=keyboard("a", "b"))

    first, second = fake.messages(USER)
    assert (first.message_id, second.message_id) == (sent.message_id, sent.message_id + 1)
    assert (first.text, first.plain_text, first.parse_mode) == (
        "<b>Fits</b> on 1 GPU",
        "Fits on 1 GPU",
        "HTML",
    )
    assert sent.text == "Fits on 1 GPU"
    assert second.callback_data == ["a", "b"]
    assert second.reply_markup == {
        "inline_keyboard": [
            [{"text": "a", "callback_data": "a"}],
            [{"text": "b", "callback_data": "b"}],
        ]
    }


async def test_text_limit_counts_characters_after_html(bot: Bot) -> None:
    await bot.send_message(USER, "<b>" + "é" * 4096 + "</b>", parse_mode="HTML")

    with pytest.raises(BadRequest, match="Message is too long"):
        await bot.send_message(USER, "x" * 4097)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1 < 2", 'Unsupported start tag ""'),
        ("<div>x</div>", 'Unsupported start tag "div"'),
        ("<b>bold", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>x</b></i>", "Unmatched end tag"),
        ("x</b>", "Unexpected end tag"),
        ("<span>x</span>", 'Tag "span" must have class "tg-spoiler"'),
    ],
)
async def test_html_parse_errors(bot: Bot, text: str, reason: str) -> None:
    with pytest.raises(BadRequest, match="Can't parse entities") as raised:
        await bot.send_message(USER, text, parse_mode="HTML")

    assert reason.lower() in raised.value.message.lower()


async def test_valid_html_passes(bot: Bot) -> None:
    text = (
        '<a href="https://hf.co">m</a> <span class="tg-spoiler">s</span> <pre><code>x</code></pre>'
        " <blockquote>q</blockquote> 1 &lt; 2 &amp; AT&T"
    )

    sent = await bot.send_message(USER, text, parse_mode="HTML")

    assert sent.text == "m s x q 1 < 2 & AT&T"


async def test_empty_text_unknown_chat_and_blocked_user(bot: Bot, fake: FakeBotApi) -> None:
    with pytest.raises(BadRequest, match="Message text is empty"):
        await bot.send_message(USER, "<b> </b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(7, "hi")
    fake.blocked.add(USER)
    with pytest.raises(Forbidden, match="blocked"):
        await bot.send_message(USER, "hi")


async def test_callback_data_is_limited_to_64_bytes(bot: Bot) -> None:
    first = await bot.send_message(USER, "ok", reply_markup=keyboard("é" * 32))

    with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
        await bot.send_message(USER, "too long", reply_markup=keyboard("é" * 32 + "x"))
    with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
        empty = InlineKeyboardMarkup([[InlineKeyboardButton("b", callback_data="")]])
        await bot.send_message(USER, "empty", reply_markup=empty)
    # Failed sends take no message id.
    assert (await bot.send_message(USER, "next")).message_id == first.message_id + 1


async def test_injected_429_raises_retry_after(
    bot: Bot, fake: FakeBotApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Opt in to PTB's timedelta retry_after so reading it does not warn.
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    fake.rate_limit("sendMessage", retry_after=1)

    with pytest.raises(RetryAfter) as raised:
        await bot.send_message(USER, "hi")
    await bot.send_message(USER, "hi again")

    assert raised.value.retry_after == dtm.timedelta(seconds=1)
    assert [call.ok for call in fake.calls_to("sendMessage")] == [False, True]
    assert [m.text for m in fake.messages(USER)] == ["hi again"]


async def test_injected_error_for_any_method_spares_get_updates(bot: Bot, fake: FakeBotApi) -> None:
    fake.inject_error(None, 500, "Internal Server Error")

    assert await bot.get_updates(timeout=0) == ()
    with pytest.raises(NetworkError, match="Internal Server Error"):
        await bot.get_me()
    await bot.get_me()


async def test_edit_rules(bot: Bot, fake: FakeBotApi) -> None:
    sent = await bot.send_message(USER, "v1", reply_markup=keyboard("a"))

    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_text("v1", USER, sent.message_id, reply_markup=keyboard("a"))
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await bot.edit_message_text("v2", USER, sent.message_id + 1)
    await bot.edit_message_text("v2", USER, sent.message_id)

    (message,) = fake.messages(USER)
    # Telegram drops the keyboard when an edit leaves reply_markup out.
    assert (message.text, message.reply_markup) == ("v2", None)
    await bot.edit_message_reply_markup(USER, sent.message_id, reply_markup=keyboard("b"))
    assert message.callback_data == ["b"]
    assert [call.method for call in fake.edits(USER)] == [
        "editMessageText",
        "editMessageReplyMarkup",
    ]
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query("999")


async def test_application_answers_start_and_text(fake: FakeBotApi) -> None:
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.effective_message.reply_text(f"welcome {update.effective_user.language_code}")

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.effective_message.reply_text(update.effective_message.text.upper())

    handlers = [
        CommandHandler("start", start),
        MessageHandler(filters.TEXT & ~filters.COMMAND, echo),
    ]
    async with polling(fake, handlers):
        fake.send_text(USER, "/start", language_code="nl")
        fake.send_text(USER, "llama 70b")
        replies = await fake.wait_messages(USER, 2)

    assert [m.text for m in replies] == ["welcome nl", "LLAMA 70B"]
    # User and bot messages share the chat's numbering; PTB quotes nothing in private chats.
    assert [(m.message_id, m.reply_to_message_id) for m in replies] == [(3, None), (4, None)]
    assert fake.pending_updates == 0


async def test_group_commands_addressed_to_another_bot_are_ignored(fake: FakeBotApi) -> None:
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.effective_message.reply_text(update.effective_message.text)

    async with polling(fake, [CommandHandler("start", start)]):
        fake.send_text(USER, "/start@other_bot", chat_id=-100, chat_type="supergroup")
        fake.send_text(USER, "/start@sizer_bot", chat_id=-100, chat_type="supergroup")
        (reply,) = await fake.wait_messages(-100)

    # In groups PTB's reply_text quotes the message it answers.
    assert (reply.text, reply.reply_to_message_id) == ("/start@sizer_bot", 2)


async def test_button_press_reaches_callback_query_handler(bot: Bot, fake: FakeBotApi) -> None:
    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        await query.answer("noted")
        await query.edit_message_text(f"chose {query.data}")

    await bot.send_message(USER, "pick", reply_markup=keyboard("fp16", "int4"))
    (message,) = fake.messages(USER)
    async with polling(fake, [CallbackQueryHandler(pressed)]):
        update = fake.press_button(USER, message, "int4")
        await fake.wait_for(fake.edits)

    assert update["callback_query"]["message"]["text"] == "pick"
    assert [call.params["text"] for call in fake.callback_answers()] == ["noted"]
    assert message.text == "chose int4"
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(update["callback_query"]["id"])
    with pytest.raises(ValueError, match="not a button"):
        fake.press_button(USER, message, "int4")


async def test_send_photo_records_bytes_and_caption(bot: Bot, fake: FakeBotApi) -> None:
    png = b"\x89PNG\r\n\x1a\nchart"

    sent = await bot.send_photo(
        USER, png, caption="<i>VRAM</i>", parse_mode="HTML", filename="c.png"
    )
    await bot.send_photo(USER, sent.photo[-1].file_id)

    first, again = fake.photos(USER)
    assert (first.photo, first.caption, sent.caption) == (png, "<i>VRAM</i>", "VRAM")
    assert (again.photo, again.file_id) == (png, first.file_id)
    assert fake.messages(USER) == []
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await bot.send_photo(USER, png, caption="x" * 1025)
    with pytest.raises(BadRequest, match="Wrong file identifier"):
        await bot.send_photo(USER, "no-such-file")


async def test_commands_are_stored_per_scope_and_language(bot: Bot, fake: FakeBotApi) -> None:
    private = BotCommandScopeAllPrivateChats()
    await bot.set_my_commands([BotCommand("size", "Size a model")], scope=private)
    await bot.set_my_commands([BotCommand("size", "Model doorrekenen")], private, "nl")
    await bot.set_my_commands([BotCommand("ask", "Ask")], scope=BotCommandScopeAllGroupChats())

    assert fake.commands("all_private_chats") == [
        {"command": "size", "description": "Size a model"}
    ]
    assert fake.commands("all_private_chats", "nl")[0]["description"] == "Model doorrekenen"
    assert [c["command"] for c in fake.commands("all_group_chats")] == ["ask"]
    assert fake.commands() == []
    assert [c.command for c in await bot.get_my_commands(scope=private, language_code="nl")] == [
        "size"
    ]
    await bot.delete_my_commands(scope=private, language_code="nl")
    assert fake.commands("all_private_chats", "nl") == []
    with pytest.raises(BadRequest, match=r"(?i)bot_command_invalid"):
        await bot.set_my_commands([BotCommand("Size", "capitals are refused")])


async def test_duplicate_update_is_delivered_twice(fake: FakeBotApi) -> None:
    seen: list[int] = []

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(update.update_id)

    async with polling(fake, [MessageHandler(filters.TEXT, record)]):
        update = fake.send_text(USER, "hello")
        await fake.wait_for(lambda: seen)
        fake.enqueue(update)
        await fake.wait_for(lambda: len(seen) == 2)

    assert seen == [update["update_id"]] * 2


async def test_long_poll_returns_as_soon_as_an_update_arrives(bot: Bot, fake: FakeBotApi) -> None:
    fake.max_poll_wait = 5
    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await fake.wait_for(lambda: fake.polling)
    loop = asyncio.get_running_loop()
    started = loop.time()

    fake.send_text(USER, "hi")
    (update,) = await poll

    assert loop.time() - started < 1
    assert update.message.text == "hi"
    # Confirming the offset drops the update; without it, it would come back.
    assert await bot.get_updates(offset=update.update_id + 1, timeout=0) == ()
    assert fake.pending_updates == 0


async def test_raw_updates_are_delivered_as_given(fake: FakeBotApi) -> None:
    received: list[Update] = []

    async def record(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        received.append(update)

    channel_post = {"message_id": 1, "date": 0, "chat": {"id": -5, "type": "channel"}, "text": "x"}
    async with polling(fake, [TypeHandler(Update, record)]):
        fake.enqueue({"future_update": {"x": 1}})
        fake.enqueue({"update_id": 77_000, "message": channel_post})
        await fake.wait_for(lambda: len(received) == 2)

    assert received[0].api_kwargs == {"future_update": {"x": 1}}
    assert received[0].effective_message is None
    assert (received[1].update_id, received[1].effective_user) == (77_000, None)


async def test_a_second_poller_terminates_the_first(bot: Bot, fake: FakeBotApi) -> None:
    fake.max_poll_wait = 5
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await fake.wait_for(lambda: fake.polling)

    # A second Bot: PTB gives getUpdates a one-connection pool, so one Bot never polls twice.
    async with Bot(TOKEN, base_url=fake.base_url) as other_instance:
        second = asyncio.create_task(other_instance.get_updates(timeout=5))
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await first
        fake.send_text(USER, "hi")

        assert [update.message.text for update in await second] == ["hi"]


async def test_webhook_and_chat_action_rules(bot: Bot, fake: FakeBotApi) -> None:
    with pytest.raises(BadRequest, match=r"(?i)https url must be provided"):
        await bot.set_webhook("http://example.org/hook")
    await bot.set_webhook("https://example.org/hook")
    assert (await bot.get_webhook_info()).url == "https://example.org/hook"
    with pytest.raises(Conflict, match="webhook is active"):
        await bot.get_updates()

    fake.send_text(USER, "queued while the webhook was set")
    await bot.delete_webhook(drop_pending_updates=True)
    assert await bot.get_updates() == ()

    await bot.send_chat_action(USER, "typing")
    with pytest.raises(BadRequest, match="Wrong parameter action"):
        await bot.send_chat_action(USER, "dancing")
