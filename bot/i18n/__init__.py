"""Message catalogs, one JSON file per language. Every user-facing text comes from here."""

from __future__ import annotations

import json
import os
import string
from functools import cache
from importlib import resources
from typing import Any, Literal, TypeGuard

Language = Literal["en", "nl"]
LANGUAGES: tuple[Language, ...] = ("en", "nl")
DEFAULT_LANGUAGE: Language = "en"


def is_language(code: str | None) -> TypeGuard[Language]:
    return code in LANGUAGES


@cache
def catalog(lang: str) -> dict[str, str]:
    return json.loads(
        resources.files("bot.i18n").joinpath(f"{lang}.json").read_text(encoding="utf-8")
    )


def language(requested: str | None = None) -> Language:
    """The language to answer in: the requested one, else LLM_SIZER_LANG, else English."""
    for candidate in (requested, os.environ.get("LLM_SIZER_LANG")):
        found = supported(candidate)
        if found is not None:
            return found
    return DEFAULT_LANGUAGE


def supported(code: str | None) -> Language | None:
    """ "nl" for "nl-BE", None for a language without a catalog (a client's language code)."""
    short = (code or "").strip().lower()[:2]
    return short if is_language(short) else None


def has(key: str, lang: str) -> bool:
    return key in catalog(lang)


class _Formatter(string.Formatter):
    """str.format with plurals: `{n:p:sequence|sequences}` is the singular when n reads 1 (as
    a number or as the text a number was formatted to), else the plural."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("p:"):
            one, _, other = format_spec[2:].partition("|")
            return one if str(value).strip() in ("1", "1.0") else other
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def t(key: str, lang: str, **params: Any) -> str:
    """The text of `key` in `lang` with `params` filled in."""
    return _FORMATTER.vformat(catalog(lang)[key], (), params)


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Language",
    "catalog",
    "has",
    "is_language",
    "language",
    "supported",
    "t",
]
