"""The Telegram bot end to end: PTB's real client over real HTTP against the fake Bot API, with
real storage, rules and estimator."""

import json
import logging

import pytest
from sqlalchemy import text

from bot.telegram import logs
from tests.bot.telegram.conftest import TOKEN

ALICE = 1001
PNG = b"\x89PNG\r\n\x1a\n"


async def reply_to(fake, user, text, count=1, **kw):
    """Send `text` as `user`; wait for `count` more messages to that chat and return the last."""
    before = len(fake.messages(user))
    fake.send_text(user, text, **kw)
    sent = await fake.wait_messages(user, before + count, timeout=15)
    return sent[before:]


async def test_start_explains_and_offers_examples(bot, fake):
    (welcome,) = await reply_to(fake, ALICE, "/start")
    assert "Ask in plain English or Dutch" in welcome.plain_text
    assert welcome.callback_data == [
        "m:can I fine-tune 7B on 24GB?",
        "m:will Qwen2.5-14B in int4 run on my RTX 4090 with 32k context?",
        "m:what's the biggest model I can run on an M3 Max 64GB?",
    ]


async def test_commands_are_in_the_menu_in_both_languages(bot, fake):
    scope = {"type": "all_private_chats"}
    await fake.wait_for(lambda: fake.commands(scope, "nl"))
    english = [c["command"] for c in fake.commands(scope, "en")]
    assert english == [
        "start",
        "help",
        "ask",
        "profile",
        "history",
        "export",
        "forget",
        "lang",
        "settings",
    ]
    assert fake.commands(scope, "nl")[1]["description"] == "hoe je vraagt"


async def test_a_question_gets_an_answer_buttons_and_a_chart(bot, fake):
    (answer,) = await reply_to(fake, ALICE, "can I fine-tune 7B on 24GB?")
    assert answer.parse_mode == "HTML"
    # A bare 7B is a 7B model: Qwen2.5-7B's shape with 25 layers, 6.92B.
    assert answer.plain_text.startswith(
        "7B (6.92B), training (full), bf16, 2,048 tokens on 24 GB GPU"
    )
    assert "Verdict: does not fit. Needs 106.9 GiB per device" in answer.plain_text
    assert "m:with QLoRA" in answer.callback_data
    assert {"v:why", "v:all"} <= set(answer.callback_data)
    photo = (await fake.wait_for(lambda: fake.photos(ALICE), timeout=30))[0]
    assert photo.photo.startswith(PNG)
    assert photo.caption.startswith("7B")


async def test_a_missing_model_is_asked_with_buttons_then_answered(bot, fake):
    (question,) = await reply_to(fake, ALICE, "will it run on my RTX 4090?")
    assert question.plain_text.startswith("Which model?")
    assert "m:Llama-3.1-8B" in question.callback_data
    fake.press_button(ALICE, question, "m:Qwen2.5-7B")
    answer = (await fake.wait_messages(ALICE, 2, timeout=15))[1]
    assert answer.plain_text.startswith(
        "Qwen2.5-7B (7.62B), inference, bf16, 4,096 tokens on GeForce RTX 4090"
    )


async def test_a_button_refines_the_answer(bot, fake):
    (first,) = await reply_to(fake, ALICE, "can I fine-tune 7B on 24GB?")
    fake.press_button(ALICE, first, "m:with QLoRA")
    refined = (await fake.wait_messages(ALICE, 2, timeout=15))[1]
    assert "training (qlora), nf4" in refined.plain_text
    assert "Verdict: fits" in refined.plain_text
    assert fake.callback_answers()


async def test_why_shows_the_calculation_in_pieces_under_the_limit(bot, fake):
    (first,) = await reply_to(fake, ALICE, "serve Llama 3.1 70B in fp8 to 16 users on 2x H100")
    fake.press_button(ALICE, first, "v:why")
    shown = await fake.wait_for(
        lambda: [m for m in fake.messages(ALICE) if "How it adds up" in m.plain_text]
    )
    assert shown[0].text.startswith("<pre>")
    assert all(len(m.plain_text) <= 4096 for m in fake.messages(ALICE))


async def test_profile_is_used_by_the_next_question(bot, fake):
    (saved,) = await reply_to(fake, ALICE, "/profile 2x RTX 3090, 64GB RAM")
    assert "2 × GeForce RTX 3090" in saved.plain_text
    (answer,) = await reply_to(fake, ALICE, "can I run llama 3 70b in int4?")
    assert "on 2x GeForce RTX 3090" in answer.plain_text
    assert "your saved hardware: 2x RTX 3090, 64GB RAM" in answer.plain_text


async def test_profile_buttons_save_common_hardware(bot, fake):
    (guide,) = await reply_to(fake, ALICE, "/profile")
    assert "p:RTX 4090" in guide.callback_data
    fake.press_button(ALICE, guide, "p:RTX 4090")
    saved = (await fake.wait_messages(ALICE, 2, timeout=15))[1]
    assert "GeForce RTX 4090" in saved.plain_text


async def test_history_lists_the_questions(bot, fake):
    await reply_to(fake, ALICE, "can I fine-tune 7B on 24GB?")
    (history,) = await reply_to(fake, ALICE, "/history")
    assert "can I fine-tune 7B on 24GB? — does not fit" in history.plain_text


async def test_forget_asks_first_then_deletes(bot, fake, storage):
    await reply_to(fake, ALICE, "/profile RTX 4090")
    (confirm,) = await reply_to(fake, ALICE, "/forget")
    assert confirm.callback_data == ["f:yes", "f:no"]
    fake.press_button(ALICE, confirm, "f:yes")
    await fake.wait_for(
        lambda: any("Deleted everything" in m.plain_text for m in fake.messages(ALICE))
    )
    assert await storage.users.find("telegram", ALICE) is None


async def test_export_sends_a_json_document(bot, fake):
    await reply_to(fake, ALICE, "/profile RTX 4090")
    fake.send_text(ALICE, "/export")
    chat, document = (await fake.wait_for(lambda: fake.documents))[0]
    exported = json.loads(document)
    assert chat == ALICE
    assert exported["profiles"][0]["hardware"]["gpu"] == "GeForce RTX 4090"


async def test_a_dutch_user_gets_dutch(bot, fake):
    (answer,) = await reply_to(
        fake, 2002, "kan ik een 7B model fine-tunen op een GPU met 24GB?", language_code="nl"
    )
    assert "Oordeel: past niet" in answer.plain_text
    assert "m:met QLoRA" in answer.callback_data
    (help_text,) = await reply_to(fake, 2002, "/help", language_code="nl")
    assert help_text.plain_text.startswith("Stel een vraag")


async def test_lang_overrides_the_client_language(bot, fake):
    (asked,) = await reply_to(fake, ALICE, "/lang")
    fake.press_button(ALICE, asked, "l:nl")
    await fake.wait_messages(ALICE, 2, timeout=15)
    (answer,) = await reply_to(fake, ALICE, "Qwen2.5-7B")  # no language in the text itself
    assert answer.plain_text.startswith("Wil je het draaien")


async def test_settings_turn_charts_off_and_units_to_gb(bot, fake):
    (shown,) = await reply_to(fake, ALICE, "/settings")
    fake.press_button(ALICE, shown, "s:charts=off")
    second = (await fake.wait_messages(ALICE, 2, timeout=15))[1]
    fake.press_button(ALICE, second, "s:units=GB")
    await fake.wait_messages(ALICE, 3, timeout=15)
    (answer,) = await reply_to(fake, ALICE, "can I fine-tune 7B on 24GB?")
    assert "Needs 114.8 GB per device" in answer.plain_text  # 106.9 GiB x 1.0737
    assert fake.photos(ALICE) == []


async def test_a_429_in_the_middle_is_waited_out(bot, fake):
    fake.rate_limit("sendMessage", retry_after=1)
    (answer,) = await reply_to(fake, ALICE, "can I fine-tune 7B on 24GB?")
    assert answer.plain_text.startswith("7B (6.92B)")
    assert fake.calls_to("sendMessage")[0].error is not None  # the 429 came first


async def test_a_malformed_update_does_not_stop_the_bot(bot, fake):
    fake.enqueue({"message": {"text": "no chat, no date, no sender"}})
    (answer,) = await reply_to(fake, ALICE, "/help")
    assert answer.plain_text.startswith("Ask any question")


async def test_an_update_sent_twice_is_answered_once(bot, fake):
    update = fake.send_text(ALICE, "/help")
    await fake.wait_messages(ALICE, 1, timeout=15)
    fake.enqueue(update)
    await reply_to(fake, ALICE, "/start")  # processed after the duplicate
    assert len([m for m in fake.messages(ALICE) if m.plain_text.startswith("Ask any")]) == 1


async def test_a_button_pressed_after_a_restart_still_works(bot, fake):
    (first,) = await reply_to(fake, ALICE, "can I fine-tune 7B on 24GB?")
    await bot.stop()
    await bot.start()
    fake.press_button(ALICE, first, "m:with QLoRA")
    refined = (await fake.wait_messages(ALICE, 2, timeout=15))[1]
    assert "training (qlora)" in refined.plain_text


async def test_a_database_error_gets_an_apology(bot, fake, storage):
    async with storage.db.engine.begin() as connection:
        await connection.execute(text("DROP TABLE queries"))
    (apology,) = await reply_to(fake, ALICE, "can I fine-tune 7B on 24GB?")
    assert apology.plain_text.startswith("Sorry, I cannot reach my database")


@pytest.fixture
def redacted_logs():
    """The bot process's logging (as `llm-sizer bot` sets it up), undone afterwards."""
    factory = logging.getLogRecordFactory()
    httpx_level = logging.getLogger("httpx").level
    logs.configure(TOKEN)
    yield
    logging.setLogRecordFactory(factory)
    logging.getLogger("httpx").setLevel(httpx_level)


async def test_the_token_never_reaches_the_log(redacted_logs, bot, fake, caplog):
    """Even at DEBUG, with a 429 retried and a request that fails, no line holds the token."""
    caplog.set_level(logging.DEBUG)
    fake.rate_limit("sendMessage", retry_after=1)
    await reply_to(fake, ALICE, "can I run 7B on a 4090?")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "getUpdates" in logged or "sendMessage" in logged  # the requests were logged
    assert TOKEN.split(":")[1] not in logged


@pytest.mark.parametrize("length", [5000])
async def test_a_huge_message_is_answered_within_limits(bot, fake, length):
    (answer,) = await reply_to(fake, ALICE, "run llama 3 8b on a 4090 " + "x" * length)
    assert len(answer.plain_text) <= 4096
