"""Inline buttons and their callback data. The data says what pressing means ("m:with QLoRA":
say this; "v:why": show the calculation; "p:RTX 4090": save this hardware), never a key into
memory, so a button still works after a restart or on another replica: whatever it refines is
in the database."""

from __future__ import annotations

import logging

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.error import TelegramError

from ..conversation.reply import Choice, Reply
from ..i18n import language, t

CALLBACK_LIMIT = 64  # bytes, Telegram's limit
PER_ROW = 2
VIEWS = ("why", "all")
# prefix -> what the rest of the data is
KINDS = {
    "m": "say",  # a message, as if typed
    "v": "view",  # another view of the last answer
    "p": "profile",  # hardware to save as a profile
    "f": "forget",  # yes / no
    "l": "language",  # en / nl
    "s": "setting",  # name=value
    "q": "share",  # a link to the presser's latest question
}
_PREFIX = {kind: prefix for prefix, kind in KINDS.items()}
SHARE = "latest"
log = logging.getLogger(__name__)


def data(kind: str, value: str) -> str | None:
    """Callback data for a button, or None when it would not fit Telegram's 64 bytes."""
    text = f"{_PREFIX[kind]}:{value}"
    return text if len(value) > 0 and len(text.encode("utf-8")) <= CALLBACK_LIMIT else None


def parse(raw: str | None) -> tuple[str, str] | None:
    """(kind, value) for data this bot made; None for anything else."""
    if not raw or ":" not in raw:
        return None
    prefix, value = raw.split(":", 1)
    kind = KINDS.get(prefix)
    if kind is None or not value or (kind == "view" and value not in VIEWS):
        return None
    if kind == "share" and value != SHARE:
        return None
    return kind, value


async def pressed(update: Update) -> tuple[str, str] | None:
    """Acknowledge a button press (Telegram shows a spinner until then) and read its data.

    In a group, the buttons under an answer act on the question of whoever asked it: another
    member's press would refine their own, different question under it, so they are told so
    instead. A button under a message the bot posted through inline mode (no chat to answer
    in) gets a hint to open the chat with the bot. Every press is acknowledged; one that cannot
    be (too old, or acknowledged by a retried request before) changes nothing."""
    query = update.callback_query
    if query is None:
        return None
    lang = language(query.from_user.language_code)
    owner = asker(query.message) if isinstance(query.message, Message) else None
    parsed = parse(query.data)
    if query.message is None or parsed is None:
        await _acknowledge(query, t("tg.button.expired", lang))
        return None
    if owner is not None and owner.id != query.from_user.id:
        await _acknowledge(query, t("tg.button.not_yours", lang, name=owner.first_name), True)
        return None
    await _acknowledge(query)
    return parsed


async def _acknowledge(query: CallbackQuery, text: str | None = None, alert: bool = False) -> None:
    try:
        await query.answer(text, show_alert=alert)
    except TelegramError as error:
        log.info("could not answer a button press: %s", error)


def asker(answer: Message) -> User | None:
    """Who asked the question that the bot's message `answer` replies to (groups only: in a
    private chat the bot does not quote)."""
    question = answer.reply_to_message
    if question is None or question.from_user is None or question.from_user.is_bot:
        return None
    return question.from_user


def rows(buttons: list[tuple[str, str, str]]) -> InlineKeyboardMarkup | None:
    """(label, kind, value) triples as rows of buttons, leaving out any whose data is too long."""
    made = [
        InlineKeyboardButton(label[:64], callback_data=d)
        for label, kind, value in buttons
        if (d := data(kind, value)) is not None
    ]
    grid = [made[i : i + PER_ROW] for i in range(0, len(made), PER_ROW)]
    return InlineKeyboardMarkup(grid) if grid else None


def choices(items: list[Choice]) -> list[tuple[str, str, str]]:
    return [(c.label, "say", c.message) for c in items]


def keyboard(reply: Reply) -> InlineKeyboardMarkup | None:
    """The reply's choices as buttons, and for an answer the "why?" and "all options" views."""
    items = choices(reply.choices)
    if reply.about_one_workload:
        items += [(t(f"tg.button.{view}", reply.language), "view", view) for view in VIEWS]
        items.append((t("tg.button.share", reply.language), "share", SHARE))
    return rows(items)
