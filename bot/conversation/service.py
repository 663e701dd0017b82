"""One message through the whole conversation: who is asking, their saved hardware and the
question so far (storage), parse, dialogue, answer, reply; then the new state and the query are
stored. Knows no front end: the terminal and Telegram both call `handle`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, ValidationError

from estimator.errors import EstimatorError
from estimator.result import Note
from storage import Storage
from storage.schemas import Chat, ChatType, NewQuery, Platform, Profile, User

from .. import lexicon as lx
from .. import sizing
from ..i18n import Language, language, supported, t
from ..model_source import HubLimiter
from ..model_source.lookups import HubLookups
from ..profile_text import describe
from ..render import numbers
from . import compose, saved_hardware, team
from .answer import LOCAL_FILES, answer
from .dialogue import State, Turn, step
from .language import choose
from .parse import MAX_TEXT, normalise, read, unreadable
from .preferences import Preferences
from .reading import Reading, Refusal
from .refine import refinements
from .reply import Item, Reply, Section
from .reply_cache import ReplyCache
from .saved_hardware import profile_draft
from .slots import Draft
from .time_budget import AnswerPool, OverBudget
from .working import Work, asker, failed

# A question left half-answered this long ago no longer captures the next message.
STATE_MAX_AGE = timedelta(hours=12)
GROUPS = ("group", "supergroup")
LONG_TEXT = 300
DETAILS = re.compile(r"^\s*/?" + lx.fragment("details") + r"\s*[.!?]?\s*$")


class Incoming(BaseModel):
    """A message as any front end delivers it."""

    platform: Platform
    chat_id: str
    chat_type: ChatType
    user_id: str
    text: str
    language: str | None = None  # what the client says the user speaks (Telegram sends it)
    title: str | None = None
    # A one-shot question (`llm-sizer ask`): a new question does not run on the machine of the
    # previous one; only a follow-up continues it.
    one_shot: bool = False


@dataclass(frozen=True, slots=True)
class _Context:
    user: User
    chat: Chat
    state: State
    profile: Profile | None  # the user's default; None in groups, where it would be shown
    prefs: Preferences
    lang: Language  # when the message itself does not say


class Conversation:
    """The conversation over one Storage."""

    def __init__(
        self,
        storage: Storage,
        *,
        local_files: bool = False,
        hub_limiter: HubLimiter | None = None,
        pool: AnswerPool | None = None,
        lookups: HubLookups | None = None,
    ) -> None:
        """`local_files`: questions may name a config.json on this machine (the terminal).
        `hub_limiter`: each user's Hub lookups are limited by it (Telegram, where anyone may
        name repositories); without it they are not (the terminal user's own machine)."""
        self.storage = storage
        self.local_files = local_files
        self.work = Work(hub_limiter, pool, lookups)
        self.pool = self.work.pool
        self.replies = ReplyCache()

    @contextmanager
    def _for_reader(self, prefs: Preferences) -> Iterator[None]:
        """Numbers in the reader's units, and files read only for the terminal."""
        units = numbers.UNITS.set(prefs.units)
        files = LOCAL_FILES.set(self.local_files)
        try:
            yield
        finally:
            LOCAL_FILES.reset(files)
            numbers.UNITS.reset(units)

    async def _context(self, message: Incoming) -> _Context:
        found = await self.storage.turns.load(
            message.platform,
            message.user_id,
            message.chat_id,
            message.chat_type,
            language=supported(message.language),
            title=message.title,
            max_age=STATE_MAX_AGE,
        )
        user, chat = found.user, found.chat
        state = _state(found.state.state if found.state else None)
        # In a group, a member's private profile would show their hardware to everyone: the
        # team's pool answers there instead.
        profile = None if chat.type in GROUPS else found.default_profile
        prefs = Preferences.of(user.settings)
        lang = language(state.language or prefs.language or user.language or chat.language)
        return _Context(user, chat, state, profile, prefs, lang)

    async def handle(self, message: Incoming) -> Reply:
        """The reply to `message`. Bad input gets a one-line reason; nothing stored is lost."""
        c = await self._context(message)
        with self._for_reader(c.prefs):
            reply = await self._handle(message, c)
        return reply.model_copy(update={"units": c.prefs.units, "charts": c.prefs.charts})

    async def view(self, message: Incoming, name: str) -> Reply:
        """Another view of the last answer: "why" (the whole calculation) or "all" (every
        recommendation)."""
        return await self._view(await self._context(message), name)

    async def _view(self, c: _Context, name: str) -> Reply:
        if not c.state.answered:
            return Reply(status="error", language=c.lang, text=t("reply.nothing_to_show", c.lang))
        with self._for_reader(c.prefs):
            try:
                prepared = self._prepared(c.state.draft, c.prefs, ())
                outcome = await self.work(asker(c.user), c.state.draft, answer, *prepared)
                reply = compose.answered(outcome, [], c.lang)
            except (EstimatorError, OverBudget) as exc:
                return failed(exc, c.lang)
        if name == "all":
            sections = compose.all_recommendations(outcome, c.lang)
        elif outcome.workload is not None:
            calculation = sizing.as_text(outcome.workload, c.lang)
            sections = [Section(kind="calculation", items=[Item(text=calculation)])]
        else:
            sections = reply.sections
        return Reply(
            status=reply.status,
            language=reply.language,
            sections=sections,
            parsed=reply.parsed,
            units=c.prefs.units,
            charts=False,
        )

    async def _handle(self, message: Incoming, c: _Context) -> Reply:
        text = message.text
        if not text.strip():
            return Reply(status="error", language=c.lang, text=t("reply.empty", c.lang))
        why = unreadable(text)
        if why is not None:
            return Reply(status="error", language=c.lang, text=t(f"unreadable.{why}", c.lang))
        text = _chosen(c.state, text)
        if DETAILS.match(normalise(text)):
            return await self._view(c, "why")
        # Reading takes about 1 ms for a question and up to ~0.2 s for 2,000 characters of
        # noise (bench/parse_speed.py): a long message is read off the event loop.
        try:
            reading = await self.pool.run(read, text) if len(text) > LONG_TEXT else read(text)
        except OverBudget as exc:
            return failed(exc, c.lang)
        lang = choose(normalise(text), c.state.language or c.prefs.language, c.lang)
        if reading.refused:
            return Reply(status="error", language=lang, text=refusal(reading.refused[0], lang))
        profile, profile_note = await self._profile(c, reading.draft.profile, lang)
        turn = step(
            c.state,
            reading,
            text,
            profile_draft(profile.hardware) if profile else None,
            keep_machine=not message.one_shot,
        )
        return await self._answer_turn(text, c, turn, lang, profile, profile_note, reading)

    async def _answer_turn(
        self,
        text: str,
        c: _Context,
        turn: Turn,
        lang: Language,
        profile: Profile | None = None,
        profile_note: Note | None = None,
        reading: Reading | None = None,
    ) -> Reply:
        """The reply to the turn the message `text` made; its state and question stored."""
        if turn.reset:
            await self.storage.conversations.clear(c.chat.id, c.user.id)
            return Reply(status="reset", language=lang, text=t("reply.reset", lang))
        state = turn.state.model_copy(update={"language": lang})
        if turn.act is not None:
            await self.storage.conversations.put(
                c.chat.id, c.user.id, state.model_dump(mode="json", exclude_defaults=True)
            )
            if turn.act == "own_hardware" and reading is not None:
                return await saved_hardware.save(self.storage, c.user.id, reading, text, lang)
            return compose.info(turn.act, lang, state.draft)
        notes = [profile_note] if profile_note and turn.from_profile else []
        if turn.kept_hardware:
            notes.append(Note("kept_hardware", {"hardware": _machine_words(state.draft)}))
        profile_text = (profile.text or profile.name) if turn.from_profile and profile else None
        try:
            reply = await self._worked_out(c, turn, profile_text, lang, tuple(notes))
        except (EstimatorError, OverBudget) as exc:
            return failed(exc, lang, state.draft)
        if c.chat.type in GROUPS and reply.about_one_workload:
            pool = await team.machines(self.storage, c.chat.id, lang)
            try:
                found = team.lines(await self.pool.run(team.verdicts, reply.parsed, pool), lang)
            except OverBudget:
                found = [t("reply.over_budget", lang)]
            reply = reply.with_section(
                Section(kind="team", items=[Item(text=line) for line in found])
            )
        if reply.status == "answered" or reply.status == "need_more":
            state = state.model_copy(update={"choices": [ch.message for ch in reply.choices]})
            await self.storage.turns.save(
                c.chat.id,
                c.user.id,
                state.model_dump(mode="json", exclude_defaults=True),
                NewQuery(
                    user_id=c.user.id,
                    chat_id=c.chat.id,
                    text=text[:MAX_TEXT],
                    inputs=reply.parsed.model_dump(mode="json", exclude_none=True),
                    status=reply.status,
                    verdict=reply.verdict,
                    total_bytes=reply.total_bytes,
                    per_device_bytes=reply.per_device_bytes,
                ),
            )
        return reply

    async def _worked_out(
        self,
        c: _Context,
        turn: Turn,
        profile_text: str | None,
        lang: Language,
        notes: tuple[Note, ...],
    ) -> Reply:
        """The reply `_reply` works out in an answer worker, or the same reply given before to
        the same question (reply_cache). The terminal's are not kept: they may read files."""
        args = (turn, profile_text, c.prefs, lang, notes)
        key = None if self.local_files else self.replies.key(*args)
        reply = self.replies.get(key)
        if reply is None:
            reply = await self.work(asker(c.user), turn.state.draft, self._reply, *args)
            self.replies.put(key, reply)
        return reply

    async def _profile(
        self, c: _Context, named: str | None, lang: Language
    ) -> tuple[Profile | None, Note | None]:
        """The saved machine for this question: the one it names ("on my mac"), else the
        default. A name that matches no profile (and is not just "my computer") gives no
        profile, so the question asks for the hardware instead of using the wrong machine."""
        if named is None or saved_hardware.generic(named):
            return c.profile, None
        profiles = await self.storage.profiles.of_user(c.user.id)
        found = saved_hardware.find(profiles, named)
        if found is not None:
            hardware = describe(found.hardware, lang)
            return found, Note("from_named_profile", {"name": found.name, "hardware": hardware})
        return None, None

    async def shared(self, message: Incoming, inputs: dict[str, Any]) -> Reply:
        """The answer to a question someone shared (`inputs`: the question as it was answered,
        `message.text` its words), for the reader of `message`, in their chat: stored as their
        question, so that the buttons under it refine it for them."""
        c = await self._context(message)
        try:
            draft = Draft.model_validate(inputs)
        except ValidationError:
            return Reply(status="error", language=c.lang, text=t("reply.shared_unreadable", c.lang))
        turn = step(State(language=c.state.language), draft, message.text)
        with self._for_reader(c.prefs):
            reply = await self._answer_turn(
                message.text, c, turn, language(draft.language or c.lang)
            )
        return reply.model_copy(update={"units": c.prefs.units, "charts": c.prefs.charts})

    async def preview(
        self, text: str, lang: Language | None = None, user: str | None = None
    ) -> Reply:
        """The answer to `text` on its own, stored nowhere and without anyone's saved
        hardware: what an inline answer shows in a chat where others read it. `user` (as
        "platform:id") is whose Hub lookups it counts against."""
        reader = language(lang)
        prefs = Preferences()
        try:
            reading = await self.pool.run(read, text)
            turn = step(State(), reading, text)
            reader = language(reading.draft.language or lang)
            with self._for_reader(prefs):
                draft = turn.state.draft
                return await self.work(user, draft, self._reply, turn, None, prefs, reader)
        except (EstimatorError, OverBudget) as exc:
            return failed(exc, reader)

    async def who_can(self, message: Incoming) -> Reply:
        """Which of the team's machines can run the question in `message`."""
        c = await self._context(message)
        why = unreadable(message.text)
        if why is not None:
            return Reply(status="error", language=c.lang, text=t(f"unreadable.{why}", c.lang))
        try:
            reading = await self.pool.run(read, message.text)
        except OverBudget as exc:
            return failed(exc, c.lang)
        lang = choose(normalise(message.text), c.state.language or c.prefs.language, c.lang)
        if reading.refused:
            return Reply(status="error", language=lang, text=refusal(reading.refused[0], lang))
        turn = step(State(), reading, message.text)
        if turn.act is not None:
            return compose.info("help" if turn.act == "own_hardware" else turn.act, lang)
        if turn.missing:
            return compose.question(turn, lang)
        pool = await team.machines(self.storage, c.chat.id, lang)
        draft = turn.state.draft
        try:
            found = await self.work(asker(c.user), draft, team.verdicts, draft, pool)
        except (EstimatorError, OverBudget) as exc:
            return failed(exc, lang)
        return Reply(
            status="answered",
            language=lang,
            sections=[Section(kind="team", items=[Item(text=x) for x in team.lines(found, lang)])],
            parsed=turn.state.draft,
        )

    @staticmethod
    def _prepared(
        draft: Draft, prefs: Preferences, notes: tuple[Note, ...]
    ) -> tuple[Draft, tuple[Note, ...], float | None]:
        """The draft with the user's default engine (for inference, when none was asked)."""
        if prefs.engine and draft.engine is None and draft.task == "inference":
            draft = draft.model_copy(update={"engine": prefs.engine})
            notes += (Note("engine_from_settings", {"engine": prefs.engine}),)
        return draft, notes, prefs.kwh_price

    def _reply(
        self,
        turn: Turn,
        profile_text: str | None,
        prefs: Preferences,
        lang: Language,
        extra: tuple[Note, ...] = (),
    ) -> Reply:
        if turn.missing:
            return compose.question(turn, lang)
        notes: tuple[Note, ...] = (Note("task_implied", {}),) if turn.implied_task else ()
        if extra:
            notes += extra
        elif profile_text:
            notes += (Note("from_profile", {"hardware": profile_text}),)
        draft, notes, kwh_price = self._prepared(turn.state.draft, prefs, notes)
        try:
            outcome = answer(draft, notes, kwh_price, turn.from_profile)
            found = (
                refinements(draft, outcome.workload.estimate.per_device_bytes)
                if outcome.workload
                else []
            )
        except EstimatorError as exc:
            return failed(exc, lang, draft)
        return compose.answered(outcome, found, lang)


def _chosen(state: State, text: str) -> str:
    """A bare number picks one of the choices the last reply offered ("2")."""
    number = text.strip().rstrip(".)")
    if number.isdigit() and 1 <= int(number) <= len(state.choices):
        return state.choices[int(number) - 1]
    return text


def refusal(r: Refusal, lang: Language) -> str:
    """One line: the value as written and the range it must lie in."""
    low = numbers.number(r.low, lang)
    high = (
        numbers.integer(r.high, lang)
        if float(r.high).is_integer()
        else numbers.number(r.high, lang)
    )
    return t(f"refused.{r.slot}", lang, value=r.value, low=low, high=high)


def _machine_words(draft: Draft) -> str:
    """The machine of a question in a few words: "2x GeForce RTX 3090", "M3 Max 64GB"."""
    if draft.gpu:
        return f"{draft.gpus}x {draft.gpu}" if draft.gpus and draft.gpus > 1 else draft.gpu
    if draft.apple:
        return draft.apple
    if draft.gpu_memory_gb:
        return f"{draft.gpu_memory_gb:g} GB"
    return f"CPU, {draft.ram_gb:g} GB RAM" if draft.ram_gb else "CPU"


def _state(stored: dict | None) -> State:
    """The stored state; one written by an older version that no longer reads starts afresh."""
    try:
        return State.model_validate(stored or {})
    except ValidationError:
        return State()
