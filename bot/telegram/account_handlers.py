"""Handlers of what the bot keeps about a person: /profile, /history, /export, /forget, /lang
and /settings, with their buttons."""

from __future__ import annotations

import json

from telegram import Update
from telegram.ext import ContextTypes

from estimator.errors import EstimatorError
from storage import Storage
from storage.schemas import User

from ..conversation.preferences import ENGINES, MAX_KWH_PRICE, Preferences
from ..i18n import LANGUAGES, language, supported, t
from ..profile_text import describe, list_line
from ..profile_text import parse as parse_hardware
from ..render import numbers, saved_queries
from . import buttons
from .chat_handlers import EDIT_IN_PLACE
from .identity import chat_of, client_language, user_key, user_of
from .send import Sender

COMMON_HARDWARE = (
    "RTX 4090",
    "RTX 3090",
    "2x RTX 3090",
    "RTX 4060 Ti 16GB",
    "A100 80GB",
    "H100",
    "M3 Max 64GB",
    "CPU only, 32GB RAM",
)
HISTORY_SHOWN = 10


class AccountHandlers:
    def __init__(self, storage: Storage, sender: Sender) -> None:
        self.storage = storage
        self.send = sender

    async def _user(self, update: Update) -> tuple[User, str]:
        user = await self.storage.users.ensure(
            "telegram", user_key(update), language=supported(client_language(update))
        )
        return user, language(Preferences.of(user.settings).language or user.language)

    async def profile(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/profile: list and guide; /profile TEXT saves; /profile use|delete NAME."""
        user, lang = await self._user(update)
        chat_id = chat_of(update).id
        args = context.args or []
        if args and args[0].lower() in ("use", "delete") and len(args) > 1:
            name = " ".join(args[1:])
            if args[0].lower() == "use":
                profile = await self.storage.profiles.use(user.id, name)
                await self.send.text(chat_id, t("profile.now_default", lang, name=profile.name))
            else:
                await self.storage.profiles.delete(user.id, name)
                await self.send.text(chat_id, t("profile.deleted", lang, name=name))
            return
        if args:
            await self._save_profile(context, chat_id, user, " ".join(args), lang)
            return
        profiles = await self.storage.profiles.of_user(user.id)
        lines = [list_line(p, lang) for p in profiles]
        lines.append(t("tg.profile.guide", lang))
        choices = buttons.rows([(h, "profile", h) for h in COMMON_HARDWARE])
        await self.send.text(chat_id, "\n".join(lines), choices)

    async def _save_profile(
        self, context: ContextTypes.DEFAULT_TYPE, chat_id: int, user: User, text: str, lang: str
    ) -> None:
        parsed = parse_hardware(text)
        profile = await self.storage.profiles.save(
            user.id, parsed.suggested_name(), parsed.hardware(), text=text, make_default=True
        )
        hardware = describe(profile.hardware, lang)
        lines = [
            t("profile.saved", lang, name=profile.name, hardware=hardware),
            t("profile.now_default", lang, name=profile.name),
        ]
        await self.send.text(chat_id, "\n".join(lines))

    async def history(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, lang = await self._user(update)
        queries = await self.storage.queries.recent_for_user(user.id, HISTORY_SHOWN)
        if not queries:
            await self.send.text(chat_of(update).id, t("history.empty", lang))
            return
        lines = [saved_queries.line(q, lang) for q in queries]
        await self.send.text(chat_of(update).id, "\n".join(lines))

    async def export(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, lang = await self._user(update)
        export = await self.storage.privacy.export(user.id)
        document = json.dumps(export.model_dump(mode="json"), indent=2, ensure_ascii=False)
        await context.bot.send_document(
            chat_of(update).id,
            document.encode("utf-8"),
            filename="llm-sizer-export.json",
            caption=t("tg.export.caption", lang),
        )

    async def forget(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, lang = await self._user(update)
        s = await self.storage.privacy.summary(user.id)
        text = t(
            "forget.summary",
            lang,
            user=user_of(update).full_name,
            profiles=s.profiles,
            queries=s.queries,
            memberships=s.memberships,
            states=s.conversation_states,
        )
        confirm = buttons.rows(
            [(t("tg.forget.yes", lang), "forget", "yes"), (t("tg.forget.no", lang), "forget", "no")]
        )
        await self.send.text(chat_of(update).id, text, confirm)

    async def language(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user, lang = await self._user(update)
        wanted = (context.args or [""])[0].lower()[:2]
        if wanted in LANGUAGES:
            await self._set_language(context, chat_of(update).id, user, wanted)
            return
        choices = buttons.rows(
            [(t(f"tg.language.{code}", lang), "language", code) for code in LANGUAGES]
        )
        await self.send.text(chat_of(update).id, t("tg.language.ask", lang), choices)

    async def _set_language(
        self, context: ContextTypes.DEFAULT_TYPE, chat_id: int, user: User, code: str
    ) -> None:
        # A choice, unlike the client's language that Telegram sends with every update, so it
        # lives in the settings where the next update does not overwrite it.
        await self.storage.users.set_settings(user.id, {**user.settings, "language": code})
        await self.send.text(chat_id, t("tg.language.set", code))

    async def settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/settings shows them with buttons; /settings kwh 0.30 sets the electricity price."""
        user, lang = await self._user(update)
        args = context.args or []
        if len(args) == 2 and args[0].lower() in ("kwh", "electricity", "stroom"):
            await self._set(context, chat_of(update).id, user, "kwh_price", args[1], lang)
            return
        await self._show_settings(context, chat_of(update).id, user, lang)

    async def _show_settings(
        self, context: ContextTypes.DEFAULT_TYPE, chat_id: int, user: User, lang: str
    ) -> None:
        prefs = Preferences.of(user.settings)
        text = t(
            "tg.settings.show",
            lang,
            charts=t("tg.on" if prefs.charts else "tg.off", lang),
            units=prefs.units,
            kwh=t("tg.settings.kwh_default", lang)
            if prefs.kwh_price is None
            else numbers.number(prefs.kwh_price, lang),
            engine=prefs.engine or t("tg.settings.engine_auto", lang),
        )
        in_place = bool(user.settings.get(EDIT_IN_PLACE))
        mode = t("tg.settings.refine_edit" if in_place else "tg.settings.refine_new", lang)
        text = "\n".join([text, t("tg.settings.refine", lang, mode=mode)])
        choices = [
            (
                t("tg.settings.charts_off" if prefs.charts else "tg.settings.charts_on", lang),
                "setting",
                f"charts={'off' if prefs.charts else 'on'}",
            ),
            (
                t("tg.settings.units", lang, units="GB" if prefs.units == "GiB" else "GiB"),
                "setting",
                f"units={'GB' if prefs.units == 'GiB' else 'GiB'}",
            ),
            *[(t("tg.settings.engine", lang, engine=e), "setting", f"engine={e}") for e in ENGINES],
            (
                t("tg.settings.engine", lang, engine=t("tg.settings.engine_auto", lang)),
                "setting",
                "engine=auto",
            ),
            (
                t("tg.settings.refine_to_new" if in_place else "tg.settings.refine_to_edit", lang),
                "setting",
                f"edit={'off' if in_place else 'on'}",
            ),
        ]
        await self.send.text(chat_id, text, buttons.rows(choices))

    async def _set(
        self,
        context: ContextTypes.DEFAULT_TYPE,
        chat_id: int,
        user: User,
        name: str,
        value: str,
        lang: str,
    ) -> None:
        settings = dict(user.settings)
        if name == "charts":
            settings["charts"] = value == "on"
        elif name == "units" and value in ("GB", "GiB"):
            settings["units"] = value
        elif name == "edit" and value in ("on", "off"):
            settings[EDIT_IN_PLACE] = value == "on"
        elif name == "engine" and value in (*ENGINES, "auto"):
            settings["engine"] = None if value == "auto" else value
        elif name == "kwh_price":
            try:
                price = float(value.replace(",", "."))
            except ValueError:
                price = -1.0
            if not 0 <= price <= MAX_KWH_PRICE:
                raise EstimatorError(
                    "out_of_range", field="kwh", value=value[:20], low=0, high=MAX_KWH_PRICE
                )
            settings["kwh_price"] = price
        else:
            return
        user = await self.storage.users.set_settings(user.id, settings)
        await self._show_settings(context, chat_id, user, lang)

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Buttons of /profile, /forget, /lang and /settings."""
        parsed = await buttons.pressed(update)
        if parsed is None:
            return
        kind, value = parsed
        user, lang = await self._user(update)
        chat_id = chat_of(update).id
        if kind == "profile":
            await self._save_profile(context, chat_id, user, value, lang)
        elif kind == "forget" and value == "yes":
            await self.storage.privacy.forget(user.id)
            await self.send.text(chat_id, t("tg.forget.done", lang))
        elif kind == "forget":
            await self.send.text(chat_id, t("forget.cancelled", lang))
        elif kind == "language" and value in LANGUAGES:
            await self._set_language(context, chat_id, user, value)
        elif kind == "setting" and "=" in value:
            name, _, setting = value.partition("=")
            await self._set(context, chat_id, user, name, setting, lang)
