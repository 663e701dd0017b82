"""Telegram's own conveniences, end to end over the fake Bot API: chat actions while an answer
or chart takes time, a share button whose link opens the question for someone else, inline
mode with a verdict card, the bot's descriptions per language, and refinement buttons that
edit the answer in place when the user chose so."""

import re
from urllib.parse import parse_qs, urlparse

from bot.telegram import send
from tests.bot.telegram.test_app import ALICE, reply_to

BOB = 2001
QUESTION = "can I fine-tune 7B on 24GB?"
LINK = re.compile(r"https://t\.me/sizer_bot\?start=(\S+)")


async def charts_off(storage, *users: int, **more: object) -> None:
    for user in users:
        row = await storage.users.ensure("telegram", user)
        await storage.users.set_settings(row.id, {"charts": False, **more})


async def test_typing_while_answering_and_upload_photo_while_drawing(bot, fake, monkeypatch):
    monkeypatch.setattr(send, "ACTION_AFTER_S", 0.0)
    await reply_to(fake, ALICE, QUESTION)
    await fake.wait_for(lambda: fake.photos(ALICE), timeout=30)
    actions = fake.chat_actions(ALICE)
    assert actions[0] == "typing"
    assert "upload_photo" in actions


async def test_a_quick_answer_shows_no_action(bot, fake, storage):
    await charts_off(storage, ALICE)
    await reply_to(fake, ALICE, QUESTION)
    assert fake.chat_actions(ALICE) == []  # answered before the client would show one


async def share(fake, user: int, answer) -> str:
    """Press Share under `answer`; the link's start payload."""
    assert "q:latest" in answer.callback_data
    before = len(fake.messages(user))
    fake.press_button(user, answer, "q:latest")
    shown = (await fake.wait_messages(user, before + 1, timeout=15))[before]
    return LINK.search(shown.plain_text).group(1)


async def test_a_shared_link_opens_the_question_for_someone_else(bot, fake, storage):
    await charts_off(storage, ALICE, BOB)
    (answer,) = await reply_to(fake, ALICE, QUESTION)
    payload = await share(fake, ALICE, answer)
    assert payload.startswith("q_") and len(payload) <= 64
    assert re.fullmatch(r"[A-Za-z0-9_-]+", payload)  # what a start parameter may hold

    (opened,) = await reply_to(fake, BOB, f"/start {payload}")
    assert opened.plain_text.split("\n")[:2] == answer.plain_text.split("\n")[:2]
    assert "m:with QLoRA" in opened.callback_data  # Bob's own question now: buttons refine it
    fake.press_button(BOB, opened, "m:with QLoRA")
    refined = (await fake.wait_messages(BOB, 2, timeout=15))[1]
    assert "training (qlora)" in refined.plain_text
    bob = await storage.users.find("telegram", BOB)
    assert [q.text for q in await storage.queries.recent_for_user(bob.id)][-1] == QUESTION


async def test_a_link_to_a_forgotten_question_says_so(bot, fake, storage):
    await charts_off(storage, ALICE, BOB)
    (answer,) = await reply_to(fake, ALICE, QUESTION)
    payload = await share(fake, ALICE, answer)
    alice = await storage.users.find("telegram", ALICE)
    await storage.privacy.forget(alice.id)
    (gone,) = await reply_to(fake, BOB, f"/start {payload}")
    assert gone.plain_text.startswith("That shared question is no longer there")
    (unknown,) = await reply_to(fake, BOB, "/start q_nothingLikeThis")
    assert unknown.plain_text == gone.plain_text


async def test_inline_mode_answers_with_a_verdict_card_and_opens_the_full_answer(
    bot, fake, storage
):
    await charts_off(storage, BOB)
    fake.send_inline_query(ALICE, QUESTION)
    answered = (await fake.wait_for(lambda: fake.inline_answers, timeout=15))[0]
    (card,) = answered["results"]
    assert card["title"].startswith("7B (6.92B), training (full)")
    assert card["description"].startswith("Verdict: does not fit")
    message = card["input_message_content"]
    assert message["parse_mode"] == "HTML" and "Verdict: does not fit" in message["message_text"]
    (button,) = card["reply_markup"]["inline_keyboard"][0]
    link = urlparse(button["url"])
    payload = parse_qs(link.query)["start"][0]
    assert (link.netloc, link.path) == ("t.me", "/sizer_bot")
    assert answered["button"]["start_parameter"] == payload

    (opened,) = await reply_to(fake, BOB, f"/start {payload}")
    assert opened.plain_text.startswith("7B (6.92B), training (full)")


async def test_inline_mode_uses_nobodys_saved_hardware(bot, fake, storage):
    """The card is posted where others read it: Alice's saved 4090 must not show."""
    await reply_to(fake, ALICE, "/profile RTX 4090")
    fake.send_inline_query(ALICE, "can I run Qwen2.5-7B?")
    answered = (await fake.wait_for(lambda: fake.inline_answers, timeout=15))[0]
    (card,) = answered["results"]
    assert card["title"].startswith("Qwen2.5-7B")
    assert "4090" not in str(answered)


async def test_an_empty_inline_query_offers_the_private_chat(bot, fake):
    fake.send_inline_query(ALICE, "")
    answered = (await fake.wait_for(lambda: fake.inline_answers, timeout=15))[0]
    assert answered["results"] == []
    assert answered["button"] == {"text": "Ask me in a private chat", "start_parameter": "inline"}


async def test_descriptions_are_set_per_language(bot, fake):
    await fake.wait_for(lambda: ("short_description", "nl") in fake.descriptions)
    assert fake.descriptions[("description", "")].startswith("Will this language model run")
    assert fake.descriptions[("description", "en")] == fake.descriptions[("description", "")]
    assert fake.descriptions[("description", "nl")].startswith("Draait of fine-tunet")
    assert fake.descriptions[("short_description", "nl")].startswith("Draait of fine-tunet")
    assert len(fake.descriptions[("short_description", "en")]) <= 120


async def test_refinements_edit_the_answer_in_place_when_chosen(bot, fake, storage):
    await charts_off(storage, ALICE)
    (shown,) = await reply_to(fake, ALICE, "/settings")
    assert "Refinement buttons: answer in a new message" in shown.plain_text
    fake.press_button(ALICE, shown, "s:edit=on")
    (changed,) = (await fake.wait_messages(ALICE, 2, timeout=15))[1:]
    assert "Refinement buttons: edit the answer in place" in changed.plain_text

    (answer,) = await reply_to(fake, ALICE, QUESTION)
    count = len(fake.messages(ALICE))
    fake.press_button(ALICE, answer, "m:with QLoRA")
    await fake.wait_for(lambda: fake.edits(ALICE), timeout=15)
    assert len(fake.messages(ALICE)) == count
    edited = fake.messages(ALICE)[-1]
    assert edited.message_id == answer.message_id
    assert "training (qlora), nf4" in edited.plain_text
    assert "m:with LoRA" in edited.callback_data  # its buttons refine on from here


async def test_refinements_answer_anew_by_default(bot, fake, storage):
    await charts_off(storage, ALICE)
    (answer,) = await reply_to(fake, ALICE, QUESTION)
    fake.press_button(ALICE, answer, "m:with QLoRA")
    await fake.wait_messages(ALICE, 2, timeout=15)
    assert fake.edits(ALICE) == []
    assert "training (full)" in fake.messages(ALICE)[0].plain_text
