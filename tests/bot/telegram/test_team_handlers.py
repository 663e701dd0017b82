"""A team in a group chat, end to end over the fake Bot API: three members (one admin), team
hardware, shared profiles and their privacy, /whocan, /recent, other bots' commands, and the
group's move to a supergroup."""

from tests.bot.telegram.test_app import reply_to

GROUP = -100
ADMIN, BOB, CAROL = 11, 12, 13


async def group_reply(fake, user, text, count=1, chat=GROUP, **kw):
    before = len(fake.messages(chat))
    fake.send_text(user, text, chat_id=chat, chat_type="group", **kw)
    sent = await fake.wait_messages(chat, before + count, timeout=15)
    return sent[before:]


async def test_team_hardware_is_added_by_admins_only(bot, fake):
    fake.admins.add((GROUP, ADMIN))
    (refused,) = await group_reply(fake, BOB, "/teamhw add 2x A100 80GB lab server")
    assert refused.plain_text.startswith("Only the group's admins")
    (added,) = await group_reply(fake, ADMIN, "/teamhw add 2x A100 80GB lab server")
    assert added.plain_text == "Added “lab server” to the team's hardware."
    (pool,) = await group_reply(fake, CAROL, "/team")
    assert "lab server: 2 × A100 80GB" in pool.plain_text


async def test_answers_in_a_group_say_which_team_machines_fit(bot, fake):
    fake.admins.add((GROUP, ADMIN))
    await group_reply(fake, ADMIN, "/teamhw add 2x A100 80GB lab server")
    await group_reply(fake, ADMIN, "/teamhw add RTX 3060 12GB old desktop")
    (answer,) = await group_reply(fake, BOB, "/ask can I fine-tune Qwen2.5-3B with QLoRA?")
    text = answer.plain_text
    assert "On the team's hardware:" in text
    assert "✓ lab server" in text and "✓ old desktop" in text
    assert answer.reply_to_message_id is not None  # the answer quotes the question
    (full,) = await group_reply(fake, CAROL, "/ask full fine-tune of Qwen2.5-3B?")
    assert "✓ lab server" in full.plain_text and "✗ old desktop" in full.plain_text


async def test_an_inverse_answer_lists_no_team_verdicts(bot, fake):
    """ "The biggest model for a 4090" names no workload to try on the team's machines (the
    search's placeholder model must not be judged there)."""
    fake.admins.add((GROUP, ADMIN))
    await group_reply(fake, ADMIN, "/teamhw add 2x A100 80GB lab server")
    (answer,) = await group_reply(
        fake, BOB, "/ask what's the biggest model I can run on an RTX 4090?"
    )
    assert answer.plain_text.startswith("Largest catalog model that fits")
    assert "On the team's hardware" not in answer.plain_text


async def test_whocan_lists_the_machines(bot, fake):
    fake.admins.add((GROUP, ADMIN))
    await group_reply(fake, ADMIN, "/teamhw add 2x A100 80GB lab server")
    (answer,) = await group_reply(fake, BOB, "/whocan run Llama 3.1 70B in bf16")
    assert "✓ lab server" in answer.plain_text


async def test_a_private_profile_stays_private_until_shared(bot, fake):
    await reply_to(fake, BOB, "/profile RTX 4090")  # in the private chat with the bot
    (pool,) = await group_reply(fake, CAROL, "/team")
    assert "4090" not in pool.plain_text
    (answer,) = await group_reply(fake, BOB, "/ask can I run Qwen2.5-7B?")
    assert "4090" not in answer.plain_text
    (shared,) = await group_reply(fake, BOB, "/share on")
    assert "now part of the team's pool" in shared.plain_text
    (pool,) = await group_reply(fake, CAROL, "/team")
    assert "rtx 4090: GeForce RTX 4090" in pool.plain_text
    (profile,) = await group_reply(fake, BOB, "/profile")
    assert profile.plain_text.startswith("That one shows private data")


async def test_forget_in_private_leaves_every_team(bot, fake, storage):
    await reply_to(fake, BOB, "/profile RTX 4090")
    await group_reply(fake, BOB, "/share on")
    (confirm,) = await reply_to(fake, BOB, "/forget")
    fake.press_button(BOB, confirm, "f:yes")
    await fake.wait_for(lambda: any("Deleted" in m.plain_text for m in fake.messages(BOB)))
    (pool,) = await group_reply(fake, CAROL, "/team")
    assert "4090" not in pool.plain_text


async def test_mentions_and_replies_are_questions_other_talk_is_not(bot, fake):
    fake.send_text(BOB, "lunch at noon?", chat_id=GROUP, chat_type="group")
    fake.send_text(BOB, "/ask@otherbot can I run 7B?", chat_id=GROUP, chat_type="group")
    (answer,) = await group_reply(fake, BOB, "@sizer_bot can I run Qwen2.5-7B on an RTX 4090?")
    assert answer.plain_text.startswith("Qwen2.5-7B (7.62B), inference")
    (follow_up,) = await group_reply(
        fake, BOB, "and with 32k context?", reply_to_message_id=answer.message_id
    )
    assert "bf16, 32,768 tokens on GeForce RTX 4090" in follow_up.plain_text
    assert len(fake.messages(GROUP)) == 2  # the lunch talk and the other bot's command: silence


async def test_recent_shows_the_teams_questions(bot, fake):
    await group_reply(fake, BOB, "/ask can I run Qwen2.5-7B on an RTX 4090?")
    (recent,) = await group_reply(fake, CAROL, "/recent")
    assert "can I run Qwen2.5-7B on an RTX 4090? — fits" in recent.plain_text


async def test_the_team_moves_to_the_supergroup(bot, fake):
    fake.admins.add((GROUP, ADMIN))
    await group_reply(fake, ADMIN, "/teamhw add 2x A100 80GB lab server")
    fake.migrate_group(GROUP, -1009, ADMIN)
    fake.add_chat(-1009, "supergroup")
    (pool,) = await group_reply(fake, CAROL, "/team", chat=-1009)
    assert "lab server" in pool.plain_text


async def test_buttons_under_an_answer_belong_to_its_asker(bot, fake):
    fake.send_text(BOB, "/ask can I fine-tune 7B on 24GB?", GROUP, "group", first_name="Bob")
    (answer,) = await fake.wait_messages(GROUP, 1, timeout=15)
    question_id = answer.reply_to_message_id
    assert "m:with QLoRA" in answer.callback_data

    fake.press_button(CAROL, answer, "m:with QLoRA", first_name="Carol")
    (refused,) = await fake.wait_for(lambda: fake.callback_answers(), timeout=15)
    assert (
        refused.params["text"] == "These buttons belong to Bob's question. Ask your own with /ask."
    )
    assert refused.params["show_alert"] in (True, "true")
    fake.press_button(CAROL, answer, "v:why", first_name="Carol")
    await fake.wait_for(lambda: len(fake.callback_answers()) == 2, timeout=15)
    assert len(fake.messages(GROUP)) == 1  # nothing was answered for Carol

    fake.press_button(BOB, answer, "m:with QLoRA", first_name="Bob")
    refined = (await fake.wait_messages(GROUP, 2, timeout=15))[1]
    assert "training (qlora), nf4" in refined.plain_text
    # Quoting Bob's question, the refined answer's buttons are still his alone.
    assert refined.reply_to_message_id == question_id
    fake.press_button(BOB, refined, "m:with 8k tokens context", first_name="Bob")
    again = (await fake.wait_messages(GROUP, 3, timeout=15))[2]
    assert "8,192 tokens" in again.plain_text and "qlora" in again.plain_text
