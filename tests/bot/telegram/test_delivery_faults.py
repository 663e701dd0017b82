"""Bot API faults on every method the bot uses (500, 502, no reply, a reset connection, a late
reply), each request meeting all of them in turn: every answer arrives exactly once, and never
with an apology for one that did. An API away for longer than the retries keeps the answers in
the outbox, sent when it is back, also by the next process after a restart; polling resumes
within seconds of the API's return; an update that cannot be claimed is stopped with one
apology."""

import asyncio
import time

import aiohttp

from bot.telegram import send, webhook
from bot.telegram.app import build
from bot.telegram.webhook import SECRET_HEADER
from storage import Storage
from storage.database import Database
from tests.bot.telegram.conftest import Running
from tests.bot.telegram.conftest import settings as bot_settings
from tests.bot.telegram.test_app import ALICE, reply_to

GROUP, ADMIN = -300, 31
QUESTION = "can I fine-tune 7B on 24GB?"
# Failing kinds first; the late reply last, as the try that goes through.
KINDS = ("500", "502", "timeout", "reset", "late")
UNREACHABLE = "postgresql+asyncpg://postgres@127.0.0.1:1/nowhere"
SETTLE_S = 1.0  # a duplicate, or an apology, would arrive by then


def faults(fake, *methods: str) -> None:
    """The next request of each method meets every kind of fault in turn."""
    for method in methods:
        for kind in KINDS:
            # A late reply comes within the bot's read timeout (2 s here): it was delivered.
            fake.faults.add(method, kind, seconds=1.0)


def met_all(fake, method: str) -> bool:
    return all((method, kind) in fake.faults.injected for kind in KINDS)


def apologies(fake, chat) -> list[str]:
    return [m.plain_text for m in fake.messages(chat) if m.plain_text.startswith("Sorry")]


async def charts_off(storage, user: int, **more: object) -> None:
    row = await storage.users.ensure("telegram", user)
    await storage.users.set_settings(row.id, {"charts": False, **more})


async def test_start_outlasts_faults(fake, storage):
    start_methods = ("getMe", "deleteWebhook", "setMyCommands", "setMyDescription")
    faults(fake, *start_methods, "setMyShortDescription")
    running = Running(fake, storage)
    await running.start()
    try:
        (answer,) = await reply_to(fake, ALICE, "/help")
    finally:
        await running.stop()
    assert answer.plain_text.startswith("Ask any question")
    assert all(met_all(fake, m) for m in (*start_methods, "setMyShortDescription"))
    assert fake.descriptions[("short_description", "nl")].startswith("Draait")


async def test_polling_outlasts_faults(bot, fake, storage):
    await charts_off(storage, ALICE)
    faults(fake, "getUpdates")
    await fake.wait_for(lambda: met_all(fake, "getUpdates"), timeout=30)
    (answer,) = await reply_to(fake, ALICE, QUESTION)
    await asyncio.sleep(SETTLE_S)
    assert answer.plain_text.startswith("7B (6.92B)")
    assert len(fake.messages(ALICE)) == 1


async def test_an_answer_outlasts_faults(bot, fake, storage):
    await charts_off(storage, ALICE)
    faults(fake, "sendMessage")
    (answer,) = await reply_to(fake, ALICE, QUESTION)
    await asyncio.sleep(SETTLE_S)
    assert met_all(fake, "sendMessage")
    assert answer.plain_text.startswith("7B (6.92B)")
    assert len(fake.messages(ALICE)) == 1


async def test_a_chart_outlasts_faults(bot, fake):
    faults(fake, "sendPhoto")
    await reply_to(fake, ALICE, QUESTION)
    await fake.wait_for(lambda: fake.photos(ALICE), timeout=30)
    await asyncio.sleep(SETTLE_S)
    assert met_all(fake, "sendPhoto")
    assert len(fake.photos(ALICE)) == 1
    assert apologies(fake, ALICE) == []


async def test_a_button_outlasts_faults(bot, fake, storage):
    await charts_off(storage, ALICE)
    (first,) = await reply_to(fake, ALICE, QUESTION)
    faults(fake, "answerCallbackQuery")
    fake.press_button(ALICE, first, "m:with QLoRA")
    refined = (await fake.wait_messages(ALICE, 2, timeout=15))[1]
    await fake.wait_for(lambda: met_all(fake, "answerCallbackQuery"), timeout=15)
    await asyncio.sleep(SETTLE_S)
    assert "training (qlora)" in refined.plain_text
    assert len(fake.messages(ALICE)) == 2
    assert len(fake.callback_answers()) == 1


async def test_an_edit_in_place_outlasts_faults(bot, fake, storage):
    await charts_off(storage, ALICE, edit_in_place=True)
    (first,) = await reply_to(fake, ALICE, QUESTION)
    faults(fake, "editMessageText")
    fake.press_button(ALICE, first, "m:with QLoRA")
    await fake.wait_for(lambda: fake.edits(ALICE), timeout=15)
    await asyncio.sleep(SETTLE_S)
    assert met_all(fake, "editMessageText")
    assert len(fake.messages(ALICE)) == 1  # the answer changed; nothing new was sent
    assert "training (qlora)" in fake.messages(ALICE)[0].plain_text


async def test_an_export_outlasts_faults(bot, fake):
    faults(fake, "sendDocument")
    fake.send_text(ALICE, "/export")
    await fake.wait_for(lambda: fake.documents, timeout=15)
    await asyncio.sleep(SETTLE_S)
    assert len(fake.documents) == 1
    assert apologies(fake, ALICE) == []


async def test_a_chat_action_fault_costs_nothing(bot, fake, storage, monkeypatch):
    await charts_off(storage, ALICE)
    monkeypatch.setattr(send, "ACTION_AFTER_S", 0.0)
    faults(fake, "sendChatAction")
    (answer,) = await reply_to(fake, ALICE, QUESTION)
    await asyncio.sleep(SETTLE_S)
    assert answer.plain_text.startswith("7B (6.92B)")
    assert len(fake.messages(ALICE)) == 1


async def test_an_admin_check_outlasts_faults(bot, fake):
    fake.admins.add((GROUP, ADMIN))
    faults(fake, "getChatMember")
    fake.send_text(ADMIN, "/teamhw add 2x A100 80GB lab server", chat_id=GROUP, chat_type="group")
    (added,) = await fake.wait_messages(GROUP, 1, timeout=15)
    await asyncio.sleep(SETTLE_S)
    assert met_all(fake, "getChatMember")
    assert added.plain_text == "Added “lab server” to the team's hardware."
    assert len(fake.messages(GROUP)) == 1


async def test_an_inline_answer_outlasts_faults(bot, fake):
    faults(fake, "answerInlineQuery")
    fake.send_inline_query(ALICE, QUESTION)
    await fake.wait_for(lambda: fake.inline_answers, timeout=15)
    await asyncio.sleep(SETTLE_S)
    assert met_all(fake, "answerInlineQuery")
    assert len(fake.inline_answers) == 1


async def wait_until_kept(storage, timeout: float = 30) -> None:
    async with asyncio.timeout(timeout):
        while not await storage.outbox.chats("telegram"):
            await asyncio.sleep(0.05)


async def test_answers_wait_out_an_outage_in_the_outbox(fake, storage):
    """sendMessage fails for longer than the retry window (1 s here): the answer is kept, and
    sent once the API takes messages again; a later answer to the chat comes after it."""
    await charts_off(storage, ALICE)
    running = Running(fake, storage, telegram_retry_window_s=1.0)
    await running.start()
    try:
        fake.faults.add("sendMessage", "reset", count=10_000)
        fake.send_text(ALICE, QUESTION)
        await wait_until_kept(storage)
        fake.send_text(ALICE, "/help")
        await fake.wait_for(lambda: fake.pending_updates == 0, timeout=15)
        fake.faults.clear()
        await fake.wait_messages(ALICE, 2, timeout=30)
        await asyncio.sleep(SETTLE_S)
    finally:
        await running.stop()
    assert [m.plain_text.split(" ")[0] for m in fake.messages(ALICE)] == ["7B", "Ask"]
    assert await storage.outbox.chats("telegram") == set()


async def test_kept_answers_are_sent_after_a_restart(fake, storage):
    await charts_off(storage, ALICE)
    running = Running(fake, storage, telegram_retry_window_s=1.0)
    await running.start()
    fake.faults.add("sendMessage", "500", count=10_000)
    fake.send_text(ALICE, QUESTION)
    await wait_until_kept(storage)
    await running.stop()
    fake.faults.clear()
    assert fake.messages(ALICE) == []
    await running.start()
    try:
        (answer,) = await fake.wait_messages(ALICE, 1, timeout=30)
        await asyncio.sleep(SETTLE_S)
    finally:
        await running.stop()
    assert answer.plain_text.startswith("7B (6.92B)")
    assert len(fake.messages(ALICE)) == 1


async def test_polling_resumes_within_seconds_of_the_api_coming_back(bot, fake, storage):
    await charts_off(storage, ALICE)
    failures = 8
    fake.faults.add("getUpdates", "500", count=failures)
    await fake.wait_for(
        lambda: fake.faults.injected.count(("getUpdates", "500")) == failures, timeout=60
    )
    healthy = time.perf_counter()
    fake.send_text(ALICE, QUESTION)
    await fake.wait_messages(ALICE, 1, timeout=30)
    assert time.perf_counter() - healthy < 5.0


async def test_a_failed_claim_stops_the_update_with_one_apology(fake):
    """The database is unreachable: the update is not answered (nobody could claim it), and
    the user gets one apology, not two."""
    unreachable = Storage(Database(UNREACHABLE))
    running = Running(fake, unreachable)
    await running.start()
    try:
        fake.send_text(ALICE, QUESTION)
        await fake.wait_messages(ALICE, 1, timeout=30)
        await asyncio.sleep(SETTLE_S)
    finally:
        await running.stop()
        await unreachable.close()
    texts = [m.plain_text for m in fake.messages(ALICE)]
    assert len(texts) == 1
    assert texts[0].startswith("Sorry, I cannot reach my database")


async def test_webhook_refuses_an_update_it_cannot_claim_and_is_unhealthy(fake):
    """Telegram delivers a refused update again; /healthz tells the load balancer."""
    unreachable = Storage(Database(UNREACHABLE))
    secret = "s3cret-for-tests"
    conf = bot_settings(
        fake,
        telegram_webhook_secret=secret,
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_port=0,
    )
    try:
        async with build(conf, unreachable, webhook=True) as bot:
            await bot.start()
            runner, port = await webhook.start(bot)
            url = f"http://127.0.0.1:{port}"
            try:
                async with aiohttp.ClientSession() as session:
                    update = fake.send_text(ALICE, QUESTION)
                    async with session.post(
                        url + conf.telegram_webhook_path,
                        json=update,
                        headers={SECRET_HEADER: secret},
                    ) as r:
                        assert r.status == 503
                    async with session.get(url + "/healthz") as r:
                        assert r.status == 503
                        assert "database unavailable" in await r.text()
            finally:
                await runner.cleanup()
                await bot.stop()
    finally:
        await unreachable.close()
    assert fake.messages(ALICE) == []


async def test_an_update_id_out_of_range_is_one_apology(bot, fake):
    fake.enqueue(
        {
            "update_id": 2**63,
            "message": {
                "message_id": 1,
                "date": int(time.time()),
                "chat": fake.add_chat(ALICE),
                "from": {"id": ALICE, "is_bot": False, "first_name": "Test"},
                "text": QUESTION,
            },
        }
    )
    (apology,) = await fake.wait_messages(ALICE, 1, timeout=15)
    await asyncio.sleep(SETTLE_S)
    assert apology.plain_text.startswith("Sorry, something went wrong")
    assert len(fake.messages(ALICE)) == 1
